/**
 * Languages and number formats (issue 17 §3) in Chromium: the profile's language and number format
 * switch the UI at once and stay after a reload; amounts follow the format (fr-CH '1 234,50', de-CH
 * "1'234.50"), inputs take what the user sees, the form's own validation and the server's 400 field
 * messages come in the user's language; the same pages in German, French, Italian and English are
 * photographed for a person to compare.
 */
import { expect, test, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

// Every spec signs in as the same person (support.ts): their language must not outlive this file.
test.afterEach(async ({ page }) => {
  const { post } = await apiFor(page);
  await post('/napi/profile/preferences', { language: null, numberFormat: null });
});

const LANGUAGE = /^(Language|Sprache|Langue|Lingua)$/;
const NUMBER_FORMAT = /^(Number format|Zahlenformat|Format des nombres|Formato dei numeri)$/;

/** Chooses a language and a number format in the profile and saves them (the form speaks the language shown now). */
async function choose(page: Page, language: string, format: RegExp) {
  await page.goto('/profile');
  const form = page.locator('form').filter({ has: page.getByLabel(LANGUAGE) });
  await form.getByLabel(LANGUAGE).click();
  await page.getByRole('option', { name: language, exact: true }).click();
  await form.getByLabel(NUMBER_FORMAT).click();
  await page.getByRole('option', { name: format }).click();
  await form.getByRole('button', { name: /^(Save|Speichern|Enregistrer|Salva)$/ }).click();
}

test('language and number format from the profile: menu, amounts, inputs and messages follow; reload keeps them; four languages side by side', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Lang ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const accountId = async (number: string) =>
    ((await (await post('/api/accounting/account/list', { filters: { text: number } })).json()).data as { id: number; number: string }[]).find((a) => a.number === number)!.id;
  await post('/api/accounting/entry/insert', {
    data: { dateLedger: '2026-01-15', description: 'Kaffeemaschine', entryAccounts: [{ account: { id: await accountId('6500') }, amount: '1234.50', direction: 1 }, { account: { id: await accountId('1020') }, amount: '1234.50', direction: -1 }] },
  });

  // English with the spec's fr-CH amounts until the user chooses.
  await page.goto('/accounting/journal');
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByText('Accounting', { exact: true })).toBeVisible();
  await expect(page.getByText('1\u202f234,50').first()).toBeVisible();
  await snap(page, 'lang-en-journal');

  // German with de-CH numbers: the profile switches the UI at once.
  await choose(page, 'Deutsch', /^1.234\.50 \(de-CH\)$/);
  await expect(page.getByText('Ihre Sprache und Ihr Zahlenformat wurden gespeichert.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' }).getByText('Buchhaltung', { exact: true })).toBeVisible();
  await snap(page, 'lang-de-profile');
  await page.goto('/accounting/journal');
  await expect(page.getByText(/^1['’]234\.50$/).first()).toBeVisible();
  await snap(page, 'lang-de-journal');
  // A reload keeps both: the profile holds them.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible();
  await expect(page.getByText(/^1['’]234\.50$/).first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // A form's own check (the domain's schema in the browser) speaks German; the amounts under the
  // entry form's lines are in de-CH too.
  await page.goto('/company/add');
  await page.getByRole('button', { name: 'Firma erstellen' }).click();
  await expect(page.getByText(/^Dieses Feld (ist erforderlich|muss angegeben werden)$/).first()).toBeVisible();
  await snap(page, 'lang-de-company-form');
  await page.goto('/accounting/entry/add');
  await expect(page.getByText('Differenz')).toBeVisible();
  await snap(page, 'lang-de-entry-form');

  // The server's field messages come in the language the web asks for.
  const refused = await page.request.post('/api/accounting/entry/insert', {
    headers: { ...(await apiFor(page)).headers, 'accept-language': 'de' },
    data: { data: { dateLedger: '2026-01-15', description: 'x', entryAccounts: [{ account: { id: await accountId('1020') }, amount: '-1', direction: 1 }] } },
  });
  expect(refused.status()).toBe(400);
  expect(JSON.stringify(await refused.json())).toContain('der Betrag muss grösser als 0 sein');

  // French (fr-CH numbers) and Italian (it-CH), photographed on the same pages.
  await choose(page, 'Français', /^1 234,50 \(fr-CH\)$/);
  await expect(page.getByRole('navigation', { name: 'Menu principal' }).getByText('Comptabilité', { exact: true })).toBeVisible();
  await page.goto('/accounting/journal');
  await expect(page.getByText('1\u202f234,50').first()).toBeVisible();
  await snap(page, 'lang-fr-journal');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
  await snap(page, 'lang-fr-dashboard');
  // Countries are named in the UI's language too.
  await page.goto('/company/add');
  await expect(page.getByRole('combobox', { name: 'Pays' })).toHaveValue('Suisse');

  await choose(page, 'Italiano', /^1.234\.50 \(it-CH\)$/);
  await expect(page.getByRole('navigation', { name: 'Menu principale' }).getByText('Contabilità', { exact: true })).toBeVisible();
  await page.goto('/accounting/journal');
  await expect(page.getByText(/^1['’]234\.50$/).first()).toBeVisible();
  await snap(page, 'lang-it-journal');
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await snap(page, 'lang-it-dashboard');

  await choose(page, 'English', /^1.234\.50 \(en-CH\)$/);
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByText('Accounting', { exact: true })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await snap(page, 'lang-en-dashboard');
});
