/**
 * The Swiss VAT return in Chromium (issue 13 §3, Proof): set up the VAT registration, book an entry
 * with a VAT code, open the quarter's return, drill down from 303 to the posting, download the XML
 * and the PDF, mark the return as filed, and see a posting into the quarter refused.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('books with a VAT code, drills from 303 to the posting, downloads XML and PDF, files the quarter and locks it', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndOnboard(page, { name: `VAT ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, headers } = await apiFor(page);

  // The VAT registration, through the form of the empty page.
  await page.goto('/accounting/vat');
  await expect(page.getByRole('heading', { name: 'Set up the VAT registration' })).toBeVisible();
  await page.getByLabel('VAT number').fill('CHE-116.281.711 MWST');
  await page.getByLabel('Registered since').fill('01.01.2024');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  // A wrong check digit is named at the field, nothing is saved.
  await expect(page.getByText('VAT number invalid: CHE-123.456.789 MWST with a valid check digit')).toBeVisible();
  await snap(page, 'vat-return-01-setup');
  await page.getByLabel('VAT number').fill('CHE-116.281.710 MWST');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('VAT settings saved.')).toBeVisible();

  // An entry with a VAT code, through the entry form: a sale of 1081.00 incl. VAT at the standard rate (V81) in Q1 2025.
  const accounts = (await (await post('/api/accounting/account/list', {})).json()) as { data: { id: number; number: string }[] };
  const id = (number: string) => accounts.data.find((a) => a.number === number)!.id;
  await page.goto('/accounting/entry/add');
  const date = page.getByRole('textbox', { name: 'Date' });
  await date.fill('14.02.2025');
  await date.press('Tab');
  await page.getByLabel('Description').fill('Consulting February');
  const pick = async (name: string, value: string) => {
    await page.getByRole('combobox', { name }).click();
    await page.getByRole('combobox', { name }).fill(value);
    await page.getByRole('option', { name: new RegExp(`^${value} `) }).first().click();
  };
  await pick('Account, line 1', '1020');
  await page.getByLabel('Debit, line 1').fill('1081.00');
  await pick('Account, line 2', '3200');
  await page.getByLabel('Credit, line 2').fill('1081.00');
  await pick('VAT code, line 2', 'V81');
  await expect(page.getByRole('region', { name: 'Postings after VAT' })).toContainText('2200');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
  const banner = page.getByRole('status').filter({ hasText: 'was successfully added.' });
  const sale = { id: Number((await banner.innerText()).match(/Journal Entry (\d+)/)![1]) };

  // The quarter's return: 303 at 1000.00 and 81.00.
  await page.goto('/accounting/vat');
  await page.getByRole('combobox', { name: 'Year' }).click();
  await page.getByRole('option', { name: '2025', exact: true }).click();
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Q1 2025 · open' }).click();
  await expect(page.getByRole('heading', { name: 'Return Q1 2025' })).toBeVisible();
  const figures = page.getByRole('table', { name: 'VAT return figures' });
  const row303 = figures.getByRole('row').filter({ hasText: 'Standard rate 8.1 % (supplies from 01.01.2024)' });
  await expect(row303).toContainText('1 000,00');
  await expect(row303).toContainText('81,00');
  await expect(figures.getByRole('row').filter({ hasText: 'Amount payable' })).toContainText('81,00');
  await snap(page, 'vat-return-02-quarter');
  await page.screenshot({ path: '/tmp/vat-return-quarter.png' });

  // Drill down from 303 to the posting, and on to its journal entry.
  await row303.getByRole('button', { name: 'Postings of 303 at 8.1 %' }).first().click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('303 — Standard rate 8.1 %')).toBeVisible();
  const postings = drawer.getByRole('table', { name: 'Postings of the figure' });
  await expect(postings.getByRole('row').filter({ hasText: '3200' })).toContainText('1 000,00');
  await expect(postings.getByRole('row').filter({ hasText: '2200' })).toContainText('81,00');
  // The drawer slides in: let the transition end before the pictures.
  await page.waitForTimeout(400);
  await page.screenshot({ path: '/tmp/vat-return-drill-down.png' });
  await snap(page, 'vat-return-03-drill-down');
  await postings.getByRole('row').filter({ hasText: '3200' }).getByRole('link', { name: String(sale.id) }).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/entry/${sale.id}/detail$`));
  await expect(page.getByText('Consulting February').first()).toBeVisible();
  await page.goBack();
  await page.keyboard.press('Escape');

  // Downloads: the eCH-0217 XML and the PDF of the form.
  await expect(page.getByRole('heading', { name: 'Return Q1 2025' })).toBeVisible();
  const xmlDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download XML' }).first().click();
  const xml = await xmlDownload;
  expect(xml.suggestedFilename()).toBe('vat-return-2025-01-01-2025-03-31-1.xml');
  const xmlText = readFileSync((await xml.path())!, 'utf8');
  expect(xmlText).toContain('<VATDeclaration xmlns="http://www.ech.ch/xmlns/eCH-0217/1">');
  expect(xmlText).toContain('<turnover>1000.00</turnover>');
  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'PDF' }).first().click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toBe('vat-return-2025-01-01-2025-03-31-1.pdf');
  expect(readFileSync((await pdf.path())!).subarray(0, 5).toString()).toBe('%PDF-');

  // Mark as filed, after the confirmation.
  await page.getByRole('button', { name: 'Mark as filed' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByText('locks the books up to 31.03.2025')).toBeVisible();
  await snap(page, 'vat-return-04-confirm');
  await confirm.getByRole('button', { name: 'Mark as filed' }).click();
  await expect(page.getByText('Return Q1 2025 filed; the books are locked up to 31.03.2025.')).toBeVisible();
  await expect(page.getByText('Filed', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Filed returns' })).toContainText('31.03.2025');
  await snap(page, 'vat-return-05-filed');

  // A posting into the filed quarter is refused, naming the lock date.
  const refused = await page.request.post('/api/accounting/entry/insert', {
    headers,
    data: {
      data: {
        dateLedger: '2025-03-20',
        description: 'Late sale',
        entryAccounts: [
          { account: { id: id('1020') }, amount: '108.10', direction: 1 },
          { account: { id: id('3200') }, amount: '108.10', direction: -1, vatCode: 'V81' },
        ],
      },
    },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error).toContain('lock date 2025-03-31');
  await page.goto('/accounting/entry/add');
  await expect(page.getByTestId('lock-notice')).toHaveText('Books locked up to 31.03.2025: entries dated on or before it are refused.');
});
