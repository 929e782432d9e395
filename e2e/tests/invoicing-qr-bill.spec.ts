import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { daysBefore, decodeQr, screenshotDir, shownAmount, signUpAndOnboard, snap, swissToday } from './support';

/**
 * Issue #4 (and its audit §4, §7, §10), all through the screens: a customer with an address, the
 * own QR-IBAN payment profile in Settings → an invoice with two lines and a discount → edited once
 * while pending → sent (ledger date defaults to the invoice date) → its PDF downloaded and its QR
 * code decoded → paid (ledger date today) → the receivable back to zero in the trial balance and
 * the invoice gone from Debtors. Then the CSV import with a row error and a success, and the
 * deletion of a pending invoice after confirmation. Screenshots of every invoicing page.
 */
test.describe.configure({ mode: 'serial' });

const QR_IBAN = 'CH4431999123000889012';

/** YYYY-MM-DD of `daysAgo` days before today in Switzerland (the app's today), and its Swiss display form. */
function day(daysAgo: number): { iso: string; shown: string } {
  const iso = daysBefore(swissToday(), daysAgo);
  return { iso, shown: `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}` };
}

async function typeDate(field: Locator, shown: string): Promise<void> {
  await field.fill(shown);
  await field.press('Tab');
}

/** Chooses an option of a Mantine Select in `scope` (a combobox named `name`). */
async function choose(page: Page, scope: Page | Locator, name: string, option: string | RegExp, search?: string): Promise<void> {
  const box = scope.getByRole('combobox', { name });
  await box.click();
  if (search) await box.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

test('invoice with a Swiss QR-bill through the screens: create, edit, send, PDF, pay, books, debtors, import', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = `Inv ${Date.now().toString(36)}`;
  await signUpAndOnboard(page, { name, currency: 'CHF' });

  // The customer with its address (Companies screens).
  await page.goto('/company');
  await page.getByRole('link', { name: 'New company' }).click();
  await expect(page.getByRole('heading', { name: 'Create Company' })).toBeVisible();
  await page.getByLabel('Name').fill('Simon Muster AG');
  await page.getByLabel('Street').fill('Musterstrasse');
  await page.getByLabel('House number').fill('1');
  await page.getByLabel('ZIP').fill('8000');
  await page.getByLabel('City').fill('Seldwyla');
  await page.getByRole('button', { name: 'Create company' }).click();
  await page.waitForURL(/\/company\/[0-9a-f-]+\/general$/);
  await expect(page.getByRole('heading', { name: 'Simon Muster AG' })).toBeVisible();
  await page.getByRole('tab', { name: 'Addresses' }).click();
  await expect(page.getByRole('cell', { name: 'Musterstrasse' })).toBeVisible();
  await snap(page, 'inv-00a-customer');

  // The own QR-IBAN payment profile on the bank account 1000 (Settings → Payment Configuration).
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Add payment profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add payment profile' });
  await choose(page, dialog, 'Account', /^1000 /, '1000');
  await choose(page, dialog, 'Type', 'QR bill');
  await dialog.getByLabel('QR-IBAN').fill('CH44 3199 9123 0008 8901 2');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('CH44 3199 9123 0008 8901 2')).toBeVisible();
  await snap(page, 'inv-00b-settings-qr-iban');

  // Create the invoice: two lines, a discount, dated three days ago (due 30 days later).
  await page.goto('/invoice');
  await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
  await snap(page, 'inv-01-list-empty');
  await page.getByRole('link', { name: 'Create Invoice' }).click();
  await expect(page.getByRole('heading', { name: 'Create Invoice' })).toBeVisible();
  // Nothing chosen yet: the form's check (invoiceSchema and its required selects) names the customer and sends nothing.
  await page.getByRole('button', { name: 'Create Invoice' }).click();
  await expect(page.getByRole('combobox', { name: 'Customer' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This field must be given').first()).toBeVisible();
  await expect(page).toHaveURL(/\/invoice\/add$/);
  await choose(page, page, 'Customer', 'Simon Muster AG');
  await expect(page.getByRole('combobox', { name: 'Address' })).toHaveValue('Musterstrasse 1, 8000 Seldwyla');
  await expect(page.getByRole('combobox', { name: 'Pay to (payment profile)' })).toHaveValue(/QR-IBAN CH44 3199/);
  const invoiceDate = day(3);
  await typeDate(page.getByLabel('Invoice date'), invoiceDate.shown);
  const dueDate = day(3 - 30);
  await expect(page.getByLabel('Due date')).toHaveValue(dueDate.shown);
  await page.getByLabel('Description').fill('Consulting March');
  await page.getByLabel('Item 1 name').fill('Workshop');
  await page.getByLabel('Item 1 quantity').fill('2');
  await page.getByLabel('Item 1 price').fill('120');
  await page.getByLabel('Item 1 discount', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Add line' }).click();
  await page.getByLabel('Item 2 name').fill('Travel Zürich–Genève');
  await page.getByLabel('Item 2 quantity').fill('1');
  await page.getByLabel('Item 2 price').fill('33.33');
  const totals = page.getByLabel('Totals');
  await expect(totals).toContainText('249,33');
  await expect(totals).toContainText('20,20');
  await expect(totals).toContainText('269,55');
  await snap(page, 'inv-02-add');
  await page.getByRole('button', { name: 'Create Invoice' }).click();

  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
  await expect(page.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  expect(shownAmount(await page.getByTestId('invoice-total').innerText())).toBe('269.55');
  await expect(page.getByTestId('due-date')).toHaveText(`Due ${dueDate.shown} (30 days net)`);
  const reference = (await page.getByTestId('payment-reference').innerText()).replace(/\s/g, '');
  expect(reference).toMatch(/^\d{27}$/);
  await snap(page, 'inv-03-detail-pending');

  // Edit once while pending: the second line's quantity, the first line on services revenue 3400.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const editForm = page.getByRole('form', { name: /Edit invoice BILAN\d{6}/ });
  await expect(editForm.getByLabel('Item 2 name')).toHaveValue('Travel Zürich–Genève');
  await editForm.getByLabel('Item 2 quantity').fill('2');
  await choose(page, editForm, 'Item 1 revenue account', /^3400 Dienstleistungserlöse/, '3400');
  await editForm.getByLabel('Description').fill('Consulting March, two trips');
  // 216.00 + 66.66 = 282.66; VAT 22.90; 305.56 → 305.55.
  await expect(editForm.getByLabel('Totals')).toContainText('305,55');
  await snap(page, 'inv-03b-edit');
  await editForm.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  expect(shownAmount(await page.getByTestId('invoice-total').innerText())).toBe('305.55');
  await expect(page.getByText('Consulting March, two trips')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Lines' }).getByRole('cell', { name: '3400 Dienstleistungserlöse' })).toBeVisible();

  // Send: the ledger date defaults to the invoice date.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const sendDialog = page.getByRole('dialog', { name: 'Send invoice' });
  await expect(sendDialog.getByLabel('Ledger date')).toHaveValue(invoiceDate.shown);
  await expect(sendDialog).toHaveCSS('opacity', '1');
  await snap(page, 'inv-04a-send-dialog');
  await sendDialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Sent', { exact: true })).toBeVisible();
  // A sent invoice is read-only; its postings show with accounts, debit and credit.
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  const postings = page.getByRole('table', { name: 'Postings' });
  await expect(postings.getByRole('link', { name: /invoice sent/ })).toBeVisible();
  const postingRow = (account: string) => postings.getByRole('row').filter({ has: page.getByRole('link', { name: account, exact: true }) });
  expect(shownAmount(await postingRow('1100').getByRole('cell').nth(3).innerText())).toBe('305.55');
  expect(shownAmount(await postingRow('3400').getByRole('cell').nth(4).innerText())).toBe('215.99');
  expect(shownAmount(await postingRow('3200').getByRole('cell').nth(4).innerText())).toBe('66.66');
  expect(shownAmount(await postingRow('2200').getByRole('cell').nth(4).innerText())).toBe('22.90');
  await snap(page, 'inv-04-detail-sent');

  // Download the PDF and decode its QR code.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloadPromise;
  const pdfPath = join(mkdtempSync(join(tmpdir(), 'bilan-e2e-dl-')), 'invoice.pdf');
  await download.saveAs(pdfPath);
  const payload = decodeQr(pdfPath);
  expect(payload).not.toBeNull();
  const lines = payload!.split(/\r?\n/);
  expect(lines.slice(0, 4)).toEqual(['SPC', '0200', '1', QR_IBAN]);
  expect(lines[5]).toBe(`${name} AG`);
  expect(lines.slice(18, 20)).toEqual(['305.55', 'CHF']);
  expect(lines.slice(20, 27)).toEqual(['S', 'Simon Muster AG', 'Musterstrasse', '1', '8000', 'Seldwyla', 'CH']);
  expect(lines.slice(27, 29)).toEqual(['QRR', reference]);
  // The PDF as the customer sees it, for the screenshots folder.
  execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', pdfPath, join(screenshotDir, 'inv-05-pdf')]);

  // The posting is visible from the entry, with a link back to the invoice.
  await postings.getByRole('link', { name: /invoice sent/ }).click();
  // A document posting names its document and links to it (issue 11 §2).
  await expect(page.getByText(/Posted by invoice BILAN\d{6}/)).toBeVisible();
  await snap(page, 'inv-06-entry');
  await page.getByRole('link', { name: 'open the invoice' }).click();

  // Debtors before payment: not yet due, linked to the customer's ap-ar page and the invoice.
  await page.goto('/invoice/debtors');
  const debtorRow = page.getByRole('row').filter({ hasText: 'Simon Muster AG' });
  await expect(debtorRow).toBeVisible();
  expect(shownAmount(await debtorRow.getByRole('cell').nth(2).innerText())).toBe('305.55');
  await expect(debtorRow.getByRole('link', { name: 'Simon Muster AG' })).toHaveAttribute('href', /\/company\/[0-9a-f-]+\/ap-ar$/);
  await expect(debtorRow.getByRole('link', { name: /BILAN\d{6}/ })).toHaveAttribute('href', /\/invoice\/[0-9a-f-]+\/detail$/);
  await snap(page, 'inv-07-debtors-open');
  await debtorRow.getByRole('link', { name: 'Simon Muster AG' }).click();
  await expect(page.getByText('Open receivables')).toBeVisible();
  await snap(page, 'inv-07b-customer-ap-ar');

  // The list: open invoices of this customer (company filter).
  await page.goto('/invoice');
  await page.getByText('Open invoices', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Open invoices' })).toBeChecked();
  await choose(page, page, 'Customer', 'Simon Muster AG');
  await expect(page).toHaveURL(/company=[0-9a-f-]{36}/);
  await expect(page.getByRole('row').filter({ hasText: 'Simon Muster AG' })).toHaveCount(1);
  await snap(page, 'inv-08-list-open');
  await page.getByRole('row').filter({ hasText: 'Simon Muster AG' }).click();

  // Mark paid: the payment date defaults to today (decision 021).
  await page.getByRole('button', { name: 'Mark paid' }).click();
  const paidDialog = page.getByRole('dialog', { name: 'Mark paid' });
  await expect(paidDialog.getByLabel('Payment date')).toHaveValue(day(0).shown);
  await paidDialog.getByLabel('Bank reference').fill('CAMT-0001');
  await paidDialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  await expect(page.getByText('Bank reference CAMT-0001')).toBeVisible();
  await expect(postings.getByRole('link', { name: /payment/ })).toBeVisible();
  await snap(page, 'inv-09-detail-paid');

  // Public share link: another browser without a session sees the invoice and nothing else.
  await page.getByRole('button', { name: 'Create share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toMatch(/\/public\/invoice\/[A-Za-z0-9_-]+$/);
  const anonymous = await browser.newContext({ baseURL: new URL(link).origin });
  const publicPage = await anonymous.newPage();
  await publicPage.goto(link);
  await expect(publicPage.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  await expect(publicPage.getByText('To Simon Muster AG')).toBeVisible();
  await expect(publicPage.getByRole('link', { name: 'Open PDF' })).toBeVisible();
  await snap(publicPage, 'inv-09b-public-share');
  await anonymous.close();

  // The receivable is back to zero in the trial balance.
  await page.goto('/accounting/trial-balance');
  const receivable = page.getByRole('row').filter({ has: page.getByRole('link', { name: '1100', exact: true }) });
  await expect(receivable).toBeVisible();
  const cells = receivable.getByRole('cell');
  expect(shownAmount(await cells.nth(2).innerText())).toBe('305.55');
  expect(shownAmount(await cells.nth(3).innerText())).toBe('305.55');
  expect(shownAmount(await cells.nth(4).innerText())).toBe('0.00');
  await snap(page, 'inv-10-trial-balance');

  // Gone from Debtors.
  await page.goto('/invoice/debtors');
  await expect(page.getByText('No open invoices.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Simon Muster AG' })).toHaveCount(0);
  await snap(page, 'inv-11-debtors-empty');

  // CSV import: a row error names its row and field, nothing is imported; then the fixed file.
  await page.goto('/invoice/import');
  await expect(page.getByRole('heading', { name: 'Invoice Import' })).toBeVisible();
  const header = 'invoice,company,dateInvoice,currency,fxRate,name,amount,price,discount,discountAbs';
  const csv = (second: string) => `${header}\nE1,simon muster ag,${day(1).iso},EUR,0.95,Licence,1,500,,\nE1,Simon Muster AG,${day(1).iso},EUR,0.95,${second}\n`;
  await page.getByLabel('CSV').fill(csv('Support,2,80,120,'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('1 problem, nothing was imported; row 2: discount: the discount cannot exceed 100 %')).toBeVisible();
  const importErrors = page.getByTestId('import-error');
  await expect(importErrors).toHaveCount(1);
  await expect(importErrors.first()).toContainText('2');
  await expect(importErrors.first()).toContainText('discount');
  await expect(importErrors.first()).toContainText('the discount cannot exceed 100 %');
  await snap(page, 'inv-12-import-error');
  await page.getByLabel('CSV').fill(csv('Support,2,80,12,'));
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('1 invoices imported.')).toBeVisible();
  await snap(page, 'inv-12b-import-done');

  // The imported EUR invoice is pending; delete it after the confirmation.
  await page.goto('/invoice');
  await page.getByRole('row').filter({ hasText: 'EUR' }).click();
  await expect(page.getByTestId('invoice-total-base')).toBeVisible();
  // 500 + 140.80 = 640.80 EUR, VAT 51.90 → 692.70 EUR; × 0.95 = 658.07 CHF.
  expect(shownAmount(await page.getByTestId('invoice-total').innerText())).toBe('692.70');
  expect(shownAmount(await page.getByTestId('invoice-total-base').innerText())).toBe('658.07');
  await snap(page, 'inv-13-detail-eur');
  await page.getByRole('button', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete invoice' });
  await expect(deleteDialog.getByText(/Are you sure you would like to delete invoice BILAN\d{6}/)).toBeVisible();
  await expect(deleteDialog).toHaveCSS('opacity', '1');
  await snap(page, 'inv-14-delete-confirm');
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await page.waitForURL(/\/invoice$/);
  await expect(page.getByRole('row').filter({ hasText: 'EUR' })).toHaveCount(0);
  await snap(page, 'inv-15-list-after-delete');
  expect(errors).toEqual([]);
});
