/**
 * The period end of a year in Chromium, end to end (issue 12 "Proof"): a new workplace books last
 * year (revenue, expenses, bank charges, and a receivable posted by hand without an invoice) → locks
 * its first quarter → the entry form refuses a posting into it with the sentence naming the lock
 * date → the checks of that year fail on the receivables → the linked entry is deleted → the checks
 * pass → the closing wizard closes the year → its lock is listed → the Financials of that year show
 * the closed result, and the PDF and XLSX downloads hold it (read with pdftotext and exceljs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { shownAmount, signUpAndOnboard, snap } from './support';

/** Screenshot of a step, in e2e/screenshots/ and as /tmp/period-end-<name>.png to look at. */
async function shot(page: Page, name: string) {
  await snap(page, `period-end-${name}`);
  await page.screenshot({ path: `/tmp/period-end-${name}.png`, fullPage: true });
}

test('locks a quarter, fixes a failing check, closes the year and downloads its statements', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndOnboard(page, { name: `Period end ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const year = new Date().getFullYear() - 1;
  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const entry = async (dateLedger: string, description: string, debit: string, credit: string, amount: string) => {
    const response = await post('/api/accounting/entry/insert', {
      data: { dateLedger, description, entryAccounts: [{ account: { id: id(debit) }, amount, direction: 1 }, { account: { id: id(credit) }, amount, direction: -1 }] },
    });
    expect(response.status()).toBe(200);
    return (await response.json()) as { id: number };
  };
  // Last year: capital 10'000, consulting revenue 8'000, rent 1'500, office supplies 250.40, bank
  // charges 12.35: profit 6'237.25, bank 16'237.25. A receivable of 600.00 booked by hand (no
  // invoice behind it) makes the receivables check fail.
  await entry(`${year}-01-15`, 'Capital paid in', '1020', '2800', '10000.00');
  await entry(`${year}-02-10`, 'Consulting Muster AG', '1020', '3400', '8000.00');
  await entry(`${year}-03-31`, 'Rent first quarter', '6000', '1020', '1500.00');
  await entry(`${year}-05-20`, 'Office supplies', '6500', '1020', '250.40');
  await entry(`${year}-06-30`, 'Bank charges', '6940', '1020', '12.35');
  const manual = await entry(`${year}-11-30`, 'Old system invoice 17', '1100', '3400', '600.00');

  // 1) Lock the first quarter.
  await page.goto('/accounting/lock');
  await expect(page.getByText('No locks')).toBeVisible();
  await page.getByLabel('Lock date').fill(`31.03.${year}`);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByText(`Books locked up to 31.03.${year}`)).toBeVisible();
  await shot(page, '01-lock-quarter');

  // 2) The entry form shows the lock and refuses a posting into the quarter with a sentence naming it.
  await page.goto('/accounting/entry/add');
  await expect(page.getByTestId('lock-notice')).toHaveText(`Books locked up to 31.03.${year}: entries dated on or before it are refused.`);
  const date = page.getByRole('textbox', { name: 'Date' });
  await date.fill(`15.02.${year}`);
  await date.press('Tab');
  await page.getByLabel('Description').fill('Late receipt for February');
  for (const [line, number] of [
    [1, '6500'],
    [2, '1020'],
  ] as const) {
    await page.getByRole('combobox', { name: `Account, line ${line}` }).click();
    await page.getByRole('combobox', { name: `Account, line ${line}` }).fill(number);
    await page.getByRole('option', { name: new RegExp(`^${number} `) }).first().click();
  }
  await page.getByLabel('Debit, line 1').fill('45.00');
  await page.getByLabel('Credit, line 2').fill('45.00');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The books are locked for this date' });
  await expect(refusal).toContainText(`The date 15.02.${year} is on or before the lock date 31.03.${year}. Choose a date after the lock date`);
  await expect(page).toHaveURL(/\/accounting\/entry\/add$/);
  await shot(page, '02-entry-refused');

  // 3) The checks of last year: the receivables fail, the manual entry is linked.
  await page.goto('/accounting/checks');
  await page.getByRole('button', { name: `Last year (${year})` }).click();
  const receivables = page.getByTestId('check-receivables');
  await expect(receivables).toHaveAttribute('data-status', 'failed');
  await expect(receivables).toContainText('a difference of CHF 600.00');
  await expect(page.getByText(`01.01.${year} to 31.12.${year}: 1 check failed`)).toBeVisible();
  await shot(page, '03-checks-failed');

  // 4) Fix it where the link leads: the entry was booked by mistake, delete it.
  await receivables.getByRole('link', { name: /Old system invoice 17/ }).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/entry/${manual.id}/detail$`));
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/accounting\/entry$/);

  // 5) Run the checks again: passed.
  await page.goto('/accounting/checks');
  await page.getByRole('button', { name: `Last year (${year})` }).click();
  await page.getByRole('button', { name: 'Run checks' }).click();
  await expect(receivables).toHaveAttribute('data-status', 'passed');
  await expect(page.getByText(`01.01.${year} to 31.12.${year}: 0 checks failed, 0 warnings, 13 passed.`)).toBeVisible();
  await expect(page.getByTestId('checks-status')).toHaveText('Passed');
  await shot(page, '04-checks-passed');

  // 6) Close the year in the wizard: checks, preview, book after the confirmation.
  await page.goto(`/accounting/close?year=${year}`);
  await expect(page.getByRole('heading', { name: 'Year-end closing' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Fiscal year' })).toHaveValue(new RegExp(`^${year} \\(01\\.01\\.${year} – 31\\.12\\.${year}\\) · open$`));
  await expect(page.getByTestId('check-receivables')).toHaveAttribute('data-status', 'passed');
  await shot(page, '05-close-checks');
  await page.getByRole('button', { name: 'Next: preview' }).click();
  const closingEntry = page.getByRole('table', { name: 'Closing entry' });
  await expect(page.getByText(`Profit ${year}`)).toBeVisible();
  await expect(closingEntry.getByRole('row', { name: /3400 Dienstleistungserlöse/ })).toContainText(/8\s000,00/);
  await expect(closingEntry.getByRole('row', { name: /2979 Jahresgewinn/ })).toContainText(/6\s237,25/);
  const opening = page.getByRole('table', { name: 'Opening balances' });
  await expect(opening.getByRole('row', { name: /1020/ })).toContainText(/16\s237,25/);
  await shot(page, '06-close-preview');
  await page.getByRole('button', { name: 'Next: book' }).click();
  await page.getByRole('button', { name: `Close fiscal year ${year}` }).click();
  const dialog = page.getByRole('dialog', { name: `Close fiscal year ${year}` });
  await expect(dialog).toContainText(`locked up to 31.12.${year}`);
  await dialog.getByRole('button', { name: 'Book and lock' }).click();
  await expect(page.getByText(`The fiscal year ${year} is closed`, { exact: true })).toBeVisible();
  await expect(page.getByText(`The books are locked up to 31.12.${year}.`)).toBeVisible();
  await shot(page, '07-closed');

  // 7) The year's lock is listed on /accounting/lock, above the quarter's.
  await page.getByRole('main').getByRole('link', { name: 'Accounting locks', exact: true }).click();
  await expect(page).toHaveURL(/\/accounting\/lock$/);
  await expect(page.getByText(`Books locked up to 31.12.${year}.`)).toBeVisible();
  const lockDates = page.getByRole('table').getByRole('row');
  await expect(lockDates.nth(1)).toContainText(`31.12.${year}`);
  await expect(lockDates.nth(2)).toContainText(`31.03.${year}`);
  await shot(page, '08-locks');

  // 8) Financials of the closed year: the income statement's result is the closed result, the
  // balance sheet carries it in 2979.
  await page.goto('/accounting/statement');
  await page.getByRole('button', { name: 'Last year', exact: true }).click();
  await expect(page.getByLabel('As of')).toHaveValue(`31.12.${year}`);
  const table = page.locator('table.statement');
  await expect(table.locator('tr.totals', { hasText: 'Total assets' })).toContainText(/16\s237,25/);
  const resultLine = table.locator('tr.statement-line', { hasText: 'Annual profit or loss' });
  await resultLine.click();
  await expect(table.getByRole('link', { name: /^2979 / })).toBeVisible();
  expect(shownAmount(await resultLine.locator('td.num').first().innerText())).toBe('6237.25');
  await expect(page.getByText('Assets = liabilities + equity')).toBeVisible();
  await shot(page, '09-balance-sheet');
  await page.getByRole('tab', { name: 'Income statement' }).click();
  await expect(page.getByLabel('From')).toHaveValue(`01.01.${year}`);
  const annual = table.locator('tr.totals', { hasText: 'Annual profit or loss' });
  expect(shownAmount(await annual.locator('td.num').first().innerText())).toBe('6237.25');
  await shot(page, '10-income-statement');

  // 9) Downloads of the balance sheet: the PDF's text and the XLSX's cells hold the figures.
  await page.getByRole('tab', { name: 'Balance sheet' }).click();
  await expect(table.locator('tr.totals', { hasText: 'Total assets' })).toBeVisible();
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'PDF' }).click()]);
  expect(pdf.suggestedFilename()).toBe(`BalanceSheet-${year}-12-31.pdf`);
  const pdfPath = (await pdf.path())!;
  expect(readFileSync(pdfPath).subarray(0, 4).toString()).toBe('%PDF');
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-']).toString('utf8');
  expect(text).toContain(`Balance sheet as of 31.12.${year}`);
  expect(text).toMatch(/2979\s+\S.*\s6'237\.25/);
  expect(text).toMatch(/Total assets\s+16'237\.25/);
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'XLSX' }).click()]);
  expect(xlsx.suggestedFilename()).toBe(`BalanceSheet-${year}-12-31.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(readFileSync((await xlsx.path())!) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]));
  expect(rows).toContainEqual(['', 'Total assets', 16237.25]);
  expect(rows.find((row) => row[0] === '2979')?.[2]).toBe(6237.25);
});
