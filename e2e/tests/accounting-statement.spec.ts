/**
 * Financials in Chromium (issue 12 §4): the balance sheet and the income statement of this year,
 * a line opened to its account, the account's postings of the period, and the PDF and XLSX
 * downloads (non-empty, of the right type).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('shows the balance sheet and income statement, drills down to postings, and downloads PDF and XLSX', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Financials ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const year = new Date().getFullYear();
  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const entry = (dateLedger: string, description: string, debit: string, credit: string, amount: string) =>
    post('/api/accounting/entry/insert', {
      data: { dateLedger, description, entryAccounts: [{ account: { id: id(debit) }, amount, direction: 1 }, { account: { id: id(credit) }, amount, direction: -1 }] },
    });
  await entry(`${year}-01-05`, 'Capital paid in', '1020', '2800', '20000.00');
  await entry(`${year}-01-10`, 'Consulting fee', '1020', '3400', '4321.50');
  await entry(`${year}-01-20`, 'Rent January', '6000', '1020', '1500.00');

  await page.goto('/accounting/statement');
  await expect(page.getByRole('heading', { name: 'Financials' })).toBeVisible();
  const table = page.locator('table.statement');
  await expect(table.getByText('Cash and current assets held at a stock exchange price')).toBeVisible();
  await expect(page.getByText('Assets = liabilities + equity')).toBeVisible();
  const cashLine = table.locator('tr.statement-line', { hasText: 'Cash and current assets' });
  await expect(cashLine).toContainText(/22\s821,50/);
  await expect(table.locator('tr.totals', { hasText: 'Total assets' })).toContainText(/22\s821,50/);
  await cashLine.click();
  await expect(cashLine.locator('button')).toHaveAttribute('aria-expanded', 'true');
  await expect(table.getByRole('link', { name: /^1020 / })).toBeVisible();
  await snap(page, 'accounting-statement-01-balance-sheet');
  await page.screenshot({ path: '/tmp/accounting-statement-balance-sheet.png', fullPage: true });

  await page.getByRole('tab', { name: 'Income statement' }).click();
  await expect(table.getByText('Net proceeds from sales of goods and services')).toBeVisible();
  await expect(table.locator('tr.totals', { hasText: 'Annual profit or loss' })).toContainText(/2\s821,50/);
  const revenueLine = table.locator('tr.statement-line', { hasText: 'Net proceeds' });
  await revenueLine.click();
  await snap(page, 'accounting-statement-02-income');
  await page.screenshot({ path: '/tmp/accounting-statement-income.png', fullPage: true });

  // The account opens on its postings of the period.
  await table.getByRole('link', { name: /^3400 / }).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/account/${id('3400')}/detail\\?dateFrom=${year}-01-01&dateTo=${year}-12-31`));
  await expect(page.getByRole('cell', { name: 'Consulting fee' })).toBeVisible();
  await expect(page.getByLabel('From')).toHaveValue(`01.01.${year}`);
  await page.goBack();

  // Downloads in German: the file names of the server, a PDF and an XLSX (a zip) with content.
  await page.getByRole('tab', { name: 'Balance sheet' }).click();
  await page.getByRole('combobox', { name: 'Statement language' }).click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await expect(table.getByText('Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs')).toBeVisible();
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF' }).click()]);
  expect(pdf.suggestedFilename()).toBe(`Bilanz-${year}-12-31.pdf`);
  const pdfBytes = readFileSync((await pdf.path())!);
  expect(pdfBytes.length).toBeGreaterThan(1000);
  expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'XLSX' }).click()]);
  expect(xlsx.suggestedFilename()).toBe(`Bilanz-${year}-12-31.xlsx`);
  const xlsxBytes = readFileSync((await xlsx.path())!);
  expect(xlsxBytes.length).toBeGreaterThan(1000);
  expect(xlsxBytes.subarray(0, 2).toString()).toBe('PK');
  // The CSV is the person's file (decision 034): the spec's fr-CH format, so ';' and decimal commas; German headers.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe(`Bilanz-${year}-12-31.csv`);
  const csvLines = readFileSync((await csv.path())!, 'utf8').split('\n');
  expect(csvLines[0]).toMatch(/^\uFEFFBericht;Art;Gruppe;Position;Konto;Bezeichnung;Betrag/);
  expect(csvLines.find((line) => line.includes(';account;') && line.includes(';1020;'))).toMatch(/;22821,50(;|$)/);
});
