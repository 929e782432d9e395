/**
 * Year-end closing in Chromium (issue 12 §3): close 2025 through the wizard (checks, preview with
 * the closing entry and the opening balances, book after confirmation), see the lock of 31.12.2025
 * on /accounting/lock (not deletable), and the closed year with 'Reopen year' for the owner.
 */
import { expect, test } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('closes a fiscal year through the wizard and shows its lock', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Closing ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, headers } = await apiFor(page);
  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const entry = (dateLedger: string, debit: string, credit: string, amount: string, description: string) => ({
    data: { dateLedger, description, entryAccounts: [{ account: { id: id(debit) }, amount, direction: 1 }, { account: { id: id(credit) }, amount, direction: -1 }] },
  });
  await post('/api/accounting/entry/insert', entry('2025-02-10', '1020', '3400', '12500.40', 'Consulting'));
  await post('/api/accounting/entry/insert', entry('2025-06-30', '6000', '1020', '4800.00', 'Rent'));
  await post('/api/accounting/entry/insert', entry('2025-09-15', '6500', '1020', '199.95', 'Office supplies'));
  // A receivable booked by hand, without an invoice: the receivables check fails.
  await post('/api/accounting/entry/insert', entry('2025-12-20', '1100', '3400', '100.00', 'Old system invoice 7'));

  await page.goto('/accounting/close');
  await expect(page.getByRole('heading', { name: 'Year-end closing' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Fiscal year' })).toHaveValue(/^2025 \(01\.01\.2025 – 31\.12\.2025\) · open$/);
  await expect(page.getByText('Fiscal year January – December · result to 2979 Jahresgewinn oder -verlust')).toBeVisible();
  await page.getByRole('button', { name: 'Change' }).click();
  await expect(page.getByRole('dialog', { name: 'Fiscal year settings' }).getByRole('combobox', { name: 'Fiscal year starts in' })).toHaveValue('January');
  await snap(page, 'accounting-close-00-settings');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // 1) Checks: the failure needs a note before the wizard goes on.
  await expect(page.getByText('The trial balance sums to zero (debit total = credit total).')).toBeVisible();
  await expect(page.getByTestId('check-receivables')).toHaveAttribute('data-status', 'failed');
  await expect(page.getByRole('button', { name: 'Acknowledge 1 failed check first' })).toBeDisabled();
  await page.getByLabel('Note to acknowledge this failure').fill('Invoice 7 of the old system, paid in January 2026');
  await snap(page, 'accounting-close-01-checks');
  await page.getByRole('button', { name: 'Next: preview' }).click();

  // 2) Preview: the closing entry and the opening balances of 2026.
  const closingEntry = page.getByRole('table', { name: 'Closing entry' });
  await expect(closingEntry).toBeVisible();
  await expect(page.getByText('Profit 2025')).toBeVisible();
  await expect(closingEntry.getByRole('row', { name: /3400 Dienstleistungserlöse/ })).toContainText('12 600,40');
  await expect(closingEntry.getByRole('row', { name: /2979 Jahresgewinn/ })).toContainText('7 600,45');
  await expect(page.getByText("Bilan's balances are cumulative")).toBeVisible();
  const opening = page.getByRole('table', { name: 'Opening balances' });
  await expect(opening.getByRole('row', { name: /1020/ })).toContainText('7 500,45');
  await expect(opening.getByRole('row', { name: /1100/ })).toContainText('100,00');
  await snap(page, 'accounting-close-02-preview');
  await page.getByRole('button', { name: 'Next: book' }).click();

  // 3) Book, after the confirmation.
  await page.getByRole('button', { name: 'Close fiscal year 2025' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close fiscal year 2025' });
  await expect(dialog).toContainText('locked up to 31.12.2025');
  await snap(page, 'accounting-close-03-confirm');
  await dialog.getByRole('button', { name: 'Book and lock' }).click();

  // 4) Done.
  await expect(page.getByText('The fiscal year 2025 is closed', { exact: true })).toBeVisible();
  await expect(page.getByText('The books are locked up to 31.12.2025.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Financial statements' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Closing entry \d+$/ })).toBeVisible();
  await snap(page, 'accounting-close-04-done');

  // The lock is listed, and only reopening removes it.
  await page.getByRole('main').getByRole('link', { name: 'Accounting locks', exact: true }).click();
  await expect(page).toHaveURL(/\/accounting\/lock$/);
  await expect(page.getByText('Books locked up to 31.12.2025.')).toBeVisible();
  await page.getByRole('button', { name: 'Delete the lock of 31.12.2025' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toContainText('the lock of 2025-12-31 closes the fiscal year 2025; reopen the year to remove it');
  await snap(page, 'accounting-close-05-lock');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  const refused = await page.request.post('/api/accounting/entry/insert', { headers, data: entry('2025-12-31', '1020', '3400', '1.00', 'Late') });
  expect(refused.status()).toBe(409);

  // The closed year: its closing, and 'Reopen year' for the owner with what it does.
  await page.goto('/accounting/close?year=2025');
  await expect(page.getByText(/Closed on .* by Anna Muster; the books are locked up to 31\.12\.2025\./)).toBeVisible();
  await expect(page.getByText('Invoice 7 of the old system, paid in January 2026')).toBeVisible();
  await page.getByRole('button', { name: 'Reopen year' }).click();
  await expect(page.getByRole('dialog', { name: 'Reopen fiscal year 2025' })).toContainText('removes the lock of 31.12.2025');
  await snap(page, 'accounting-close-06-reopen-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, 'accounting-close-07-closed');
});
