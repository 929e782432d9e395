/**
 * Accessibility (issue 17 §4): axe-core (WCAG 2.0/2.1/2.2 A and AA rules) on every page of the app
 * and on its main dialogs, in German, French, Italian and English: no serious or critical
 * violation. The pages are filled with a company, an invoice, a quote, a bill and an entry so that
 * tables, badges and buttons are there to be checked, not only empty states.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard } from './support';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page, where: string, within?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(TAGS);
  // Pages outside the shell (terms, password) have no <main>: they are checked whole.
  const scoped = within !== undefined && (await page.locator(within).count()) > 0;
  const result = await (scoped ? builder.include(within) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      // For contrast, the colours and the ratio say what to change.
      const nodes = v.nodes.slice(0, 3).map((n) => {
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
        const colours = data?.fgColor ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
        return `${n.target.join(' ')}${colours}`;
      });
      return `${where}: ${v.id} (${v.impact}, ${v.nodes.length}×) ${nodes.join(' | ')}`;
    });
}

/** Waits until the page shows its heading and no loader is left. */
async function settled(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .mantine-Loader-root')).toHaveCount(0, { timeout: 15_000 }).catch(() => undefined);
}

interface Seeded {
  company: string;
  invoice: string;
  quote: string;
  bill: string;
  entry: number;
  bank: number;
}

/** A workplace with one of each document, so tables, badges and actions are there to be checked. */
async function seed(page: Page, language: string): Promise<Seeded> {
  await signUpAndOnboard(page, { name: `A11y ${language} ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const json = async (path: string, data: unknown) => (await post(path, data)).json();
  const account = async (number: string) =>
    ((await json('/api/accounting/account/list', { filters: { text: number } })).data as { id: number; number: string }[]).find((a) => a.number === number)!.id;
  const company = await json('/api/company/insert', { data: { name: 'Muster Kunde AG', address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } } });
  const [address] = (await json('/api/address/list', { filters: { company: { uuid: company.uuid } } })).data as { id: number }[];
  const [profile] = (await json('/api/payment-profile/list', {})).data as { id: number }[];
  const head = { company: { uuid: company.uuid }, address: { id: address!.id }, paymentProfile: { id: profile!.id }, vat: '0.081', items: [{ name: 'Beratung', amount: '2', price: '150.00' }] };
  const invoice = await json('/api/invoice/insert', { data: { ...head, dateInvoice: '2026-01-10', dateDue: '2026-02-09', description: 'Beratung Januar' } });
  const quote = await json('/api/quote/insert', { data: { ...head, dateQuote: '2026-01-05', validUntil: '2026-02-05', description: 'Offerte Januar' } });
  const bill = await json('/api/payable/insert', { data: { date: '2026-01-12', amount: '269.55', description: 'Druckerpatronen' }, supplier: { name: 'Papeterie Zumstein AG', iban: 'CH93 0076 2011 6238 5295 7' } });
  const [bank, office] = [await account('1020'), await account('6500')];
  const entry = await json('/api/accounting/entry/insert', {
    data: { dateLedger: '2026-01-15', description: 'Kaffeemaschine', entryAccounts: [{ account: { id: office }, amount: '1234.50', direction: 1 }, { account: { id: bank }, amount: '1234.50', direction: -1 }] },
  });
  await post('/napi/profile/preferences', { language, numberFormat: null });
  return { company: company.uuid, invoice: invoice.uuid, quote: quote.uuid, bill: bill.uuid, entry: entry.id, bank };
}

const pagesOf = (s: Seeded) => [
  '/inbox', '/inbox/mail', '/company', '/company/add', `/company/${s.company}/ap-ar`,
  '/invoice', '/invoice/add', `/invoice/${s.invoice}/detail`, '/invoice/debtors', '/invoice/dunning', '/invoice/import',
  '/invoice/recurring', '/invoice/recurring/add', '/quote', '/quote/add', `/quote/${s.quote}/detail`,
  '/bill', '/bill/add', '/bill/creditors', `/bill/${s.bill}/detail`, `/bill/${s.bill}/edit`, '/transaction-group', '/outbox',
  '/accounting', '/accounting/entry/add', '/accounting/entry', `/accounting/entry/${s.entry}/detail`, '/accounting/journal',
  '/accounting/trial-balance', '/accounting/account', `/accounting/account/${s.bank}/detail`, `/accounting/account/${s.bank}/reconciliation`,
  '/accounting/lock', '/accounting/vat-codes', '/accounting/checks', '/accounting/close', '/accounting/vat', '/accounting/statement',
  '/accounting/import', '/salary/import', '/mail/import', '/report', '/report/analytics', '/settings', '/staff', '/profile', '/support',
  '/terms', '/password',
];

test.describe('signed in', () => {
  // Every spec signs in as the same person (support.ts): their language must not outlive this file.
  test.afterEach(async ({ page }) => {
    const { post } = await apiFor(page);
    await post('/napi/profile/preferences', { language: null, numberFormat: null });
  });

  for (const language of ['en', 'de', 'fr', 'it'] as const) {
    test(`every page and the command palette pass axe (WCAG 2.2 AA) in ${language}`, async ({ page }) => {
      test.setTimeout(600_000);
      const seeded = await seed(page, language);
      // The shell (menu, top bar, footer) once, on the dashboard; then each page's own content.
      await page.goto('/');
      await settled(page);
      expect.soft(await violations(page, `${language} /`), `${language} /`).toEqual([]);
      for (const path of pagesOf(seeded)) {
        await page.goto(path);
        await settled(page);
        expect.soft(await violations(page, `${language} ${path}`, 'main'), `${language} ${path}`).toEqual([]);
      }
      await page.goto('/');
      await settled(page);
      await page.keyboard.press('Control+K');
      await page.keyboard.type('kaffee');
      await expect(page.getByRole('dialog').getByText(/Kaffeemaschine/)).toBeVisible();
      expect.soft(await violations(page, `${language} command palette`), `${language} command palette`).toEqual([]);
    });
  }
});

test('the pages without a session pass axe (WCAG 2.2 AA)', async ({ page }) => {
  for (const path of ['/login', '/login/signup', '/login/support', '/terms']) {
    await page.goto(path);
    await expect(page.locator('h1, h2').first()).toBeVisible();
    expect.soft(await violations(page, `anonymous ${path}`), path).toEqual([]);
  }
});
