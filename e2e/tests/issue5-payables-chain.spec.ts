/**
 * Issue #5 §6, the whole chain in Chromium: a QR-bill PDF made by the invoicing code of ANOTHER
 * workplace is dropped into the inbox → the prefilled bill is confirmed (supplier and QR-IBAN
 * profile created in the same call) → a second bill for that supplier is entered and edited while
 * pending → both approved → grouped → pain.001 downloaded → a camt.054 generated from the
 * pain.001's end-to-end ids and amounts is imported → both bills paid, the bill page shows booking
 * and payment postings, the bank balance shows in the trial balance. Screenshots of every payables
 * page: bills (filtered), bill detail, edit, inbox, mail, creditors, transaction groups, group
 * detail, reconciliation, reports.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiFor, camt054For, supplierQrBillPdf } from './payables-support';
import { signUpAndOnboard, snap, swissToday } from './support';

const OWN_BANK_IBAN = 'CH9300762011623852957';
const SECOND_QR_REFERENCE = '210000000003139471430009017';

async function selectOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

test('QR-bill from another workplace → bill → approved → grouped → pain.001 → camt.054 → paid and booked', async ({ page, browser }) => {
  test.setTimeout(360_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const suffix = Date.now().toString(36);
  const buyer = `Chain Buyer ${suffix}`;
  const supplier = `Chain Supplier ${suffix}`;
  const supplierCompany = `${supplier} AG`;
  await signUpAndOnboard(page, { name: buyer, currency: 'CHF' });
  const { pdf, reference } = await supplierQrBillPdf(browser, buyer, supplier);
  const today = swissToday();

  // 1. The supplier's PDF into the inbox; the QR-bill prefills the draft; one call saves it all.
  await page.goto('/inbox');
  await page.getByLabel('Choose files').setInputFiles({ name: 'rechnung-november.pdf', mimeType: 'application/pdf', buffer: pdf });
  await page.getByRole('link', { name: 'rechnung-november.pdf' }).click();
  await expect(page.getByLabel('QR-bill read')).toContainText('New supplier', { timeout: 30_000 });
  await expect(page.getByLabel('Amount')).toHaveValue('269,55');
  await page.getByLabel('Description').fill('Beratung November');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');
  await expect(page.getByRole('row').filter({ hasText: 'Beratung November' })).toContainText(supplierCompany);

  // 2. A second bill of the same supplier, typed in; then corrected while pending (Edit).
  await page.goto('/bill/add');
  await selectOption(page, 'Supplier', supplierCompany);
  await selectOption(page, 'Pay to (IBAN / QR-IBAN)', 'CH44 3199 9123 0008 8901 2 (QR)');
  await page.getByLabel('Amount').fill('540.50');
  await page.getByLabel('of which VAT').fill('40.50');
  await page.getByLabel('Reference (QR or RF…)').fill(SECOND_QR_REFERENCE);
  await page.getByLabel('Description').fill('Wartung');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');
  await page.getByRole('row').filter({ hasText: 'Wartung' }).getByRole('link', { name: /^Bill \d+$/ }).click();
  await page.waitForURL('**/bill/*/detail');
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.waitForURL('**/bill/*/edit');
  await expect(page.getByLabel('Amount')).toHaveValue('540,50');
  await page.getByLabel('Description').fill('Wartung Server Q4');
  await snap(page, 'chain-01-bill-edit');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.waitForURL('**/bill/*/detail');
  await expect(page.getByText('Wartung Server Q4')).toBeVisible();
  await expect(page.getByText('Nothing booked yet')).toBeVisible();

  // 3. The QR-bill's bill: its page shows the voucher; approved there, it shows its booking.
  await page.goto('/bill');
  await page.getByRole('row').filter({ hasText: 'Beratung November' }).getByRole('link', { name: /^Bill \d+$/ }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Bill \\d+ · ${supplierCompany}$`) })).toBeVisible();
  await expect(page.getByText('CH44 3199 9123 0008 8901 2 (QR-IBAN)')).toBeVisible();
  await expect(page.getByText(reference.replace(/^(\d{2})(\d{5})(\d{5})(\d{5})(\d{5})(\d{5})$/, '$1 $2 $3 $4 $5 $6'))).toBeVisible();
  await expect(page.getByLabel('Voucher')).toContainText('rechnung-november.pdf');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible();
  const postings = page.getByRole('table', { name: 'Postings' });
  await expect(postings.getByRole('link', { name: /^EN\d+$/ })).toHaveCount(1);
  await expect(postings).toContainText('2000');
  await snap(page, 'chain-02-bill-detail-approved');

  // 4. Bills list: filters (supplier, date range) and the pager; approve the second, group both.
  await page.goto('/bill');
  await selectOption(page, 'Supplier', supplierCompany);
  await expect(page.getByText('1–2 of 2')).toBeVisible();
  await page.getByLabel('To').fill('01.01.2000');
  await page.getByLabel('To').press('Enter');
  await expect(page.getByText('0–0 of 0')).toBeVisible();
  await page.getByLabel('To').fill('');
  await page.getByLabel('To').press('Enter');
  await expect(page.getByText('1–2 of 2')).toBeVisible();
  await snap(page, 'chain-03-bills-filtered');
  await page.getByRole('row').filter({ hasText: 'Wartung Server Q4' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  for (const box of await page.getByRole('checkbox', { name: /Select bill/ }).all()) await box.check();
  await snap(page, 'chain-04-bills-approved');
  await page.getByRole('button', { name: 'Pay selected (2)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create transaction group' }).click();

  // 5. pain.001 for the group, sent to the bank; the bank's camt.054 pays both.
  await page.waitForURL('**/transaction-group/*/detail');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download pain.001' }).click();
  const xml = readFileSync((await (await download).path())!, 'utf8');
  expect(xml).toContain('<NbOfTxs>2</NbOfTxs>');
  expect(xml).toContain('<CtrlSum>810.05</CtrlSum>');
  expect(xml).toContain(`<Ref>${reference}</Ref>`);
  await page.getByRole('button', { name: 'Mark as sent to the bank' }).click();
  await expect(page.getByText('Initiated')).toBeVisible();
  const camt = camt054For(xml, OWN_BANK_IBAN, today, `CHAIN-${suffix}`);
  expect(camt.payments.map((p) => p.amount).sort()).toEqual(['269.55', '540.50']);
  await page.locator('input[type=file]').setInputFiles({ name: 'camt054.xml', mimeType: 'application/xml', buffer: Buffer.from(camt.xml) });
  await expect(page.getByText('2 bank transactions imported, 2 matched, 0 imported before.')).toBeVisible();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await snap(page, 'chain-05-group-detail-paid');

  // 6. Both bills paid; the bill page shows booking and payment and the whole history.
  await page.goto('/bill');
  await expect(page.getByRole('row').filter({ hasText: supplierCompany }).filter({ hasText: 'Paid' })).toHaveCount(2);
  await snap(page, 'chain-06-bills-paid');
  await page.getByRole('row').filter({ hasText: 'Beratung November' }).getByRole('link', { name: /^Bill \d+$/ }).click();
  await expect(page.getByRole('table', { name: 'Postings' }).getByRole('link', { name: /^EN\d+$/ })).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Postings' })).toContainText('Payment');
  const history = page.getByLabel('Status history');
  for (const step of ['Pending', 'Approved', 'In transaction group', 'Paid']) await expect(history).toContainText(step);
  await snap(page, 'chain-07-bill-detail-paid');
  await page.getByRole('table', { name: 'Postings' }).getByRole('link', { name: /^EN\d+$/ }).last().click();
  await page.waitForURL('**/accounting/entry/*/detail');
  await expect(page.getByText('1000').first()).toBeVisible();

  // 7. The bank balance in the trial balance: 269.55 + 540.50 paid out.
  await page.goto('/accounting/trial-balance');
  await expect(page.getByRole('row').filter({ hasText: '1000' }).first()).toContainText(/\(810[.,]05\)/);
  await snap(page, 'chain-08-trial-balance');

  // 8. Every other payables page once.
  await page.goto('/inbox');
  await expect(page.getByRole('link', { name: 'rechnung-november.pdf' })).toBeVisible();
  await snap(page, 'chain-09-inbox');
  await page.goto('/inbox/mail');
  await expect(page.getByRole('heading', { name: 'Mail', exact: true })).toBeVisible();
  await snap(page, 'chain-10-mail');
  await page.goto('/bill/creditors');
  await expect(page.getByText('No open bills.')).toBeVisible();
  await snap(page, 'chain-11-creditors');
  await page.goto('/transaction-group');
  await expect(page.getByRole('link', { name: /^TG\d+$/ })).toBeVisible();
  await snap(page, 'chain-12-transaction-groups');
  const { post } = await apiFor(page);
  const accounts = await (await post('/api/accounting/account/list', { filters: { text: '1000' } })).json();
  const bankId = accounts.data.find((a: { number: string }) => a.number === '1000').id;
  await page.goto(`/accounting/account/${bankId}/reconciliation`);
  await expect(page.getByText(/No statement closing on or before/)).toBeVisible();
  await snap(page, 'chain-13-reconciliation');
  await page.goto('/report');
  await expect(page.getByRole('heading', { name: 'Outflows Report Page' })).toBeVisible();
  await snap(page, 'chain-14-reports');
  expect(errors).toEqual([]);
});
