/**
 * Part payments and cash discounts in Chromium (issue 14 §3, decision 021): an invoice of 1081.00
 * paid 500.00, then the rest less a 2 % cash discount (Skonto) → paid, with the discount on 3800
 * and the output VAT reduced; a bill paid in part, the payment reversed and the bill open again;
 * debtors and creditors show open amounts.
 */
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('invoice: part payment, then the rest with a cash discount; bill: part payment and its reversal', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Skonto ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const balanceOf = async (number: string) =>
    ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;

  // 1000.00 + 8.1 % VAT = 1081.00, sent on 2025-10-01.
  const address = { street: 'Bahnhofstrasse', houseNumber: '7', zip: '8001', city: 'Zürich', country: { id: 1 } };
  const invoice = await customerInvoice(api, { name: 'Kunde Skonto AG', address }, { vat: '0.081', dateInvoice: '2025-10-01', items: [{ name: 'Beratung', amount: '1', price: '1000' }] });
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });

  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  let dialog = page.getByRole('dialog', { name: 'Mark paid' });
  const received = dialog.getByLabel('Amount received (CHF)');
  await expect(received).toHaveValue('1081,00');
  await received.fill('500.00');
  await expect(dialog.getByText(/Rest of 581,00 CHF/)).toBeVisible();
  await dialog.getByLabel('Payment date').fill('15.10.2025');
  await snap(page, 'partial-01-invoice-part-payment-dialog');
  await dialog.getByRole('button', { name: 'Record part payment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('invoice-open')).toHaveText(/581,00/);
  await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(2);
  expect(await balanceOf('1100')).toBe('581.00');
  await snap(page, 'partial-02-invoice-part-paid');

  // The rest: 559.38 received, 21.62 (2 % of 1081.00) written off as cash discount.
  await page.getByRole('button', { name: 'Mark paid' }).click();
  dialog = page.getByRole('dialog', { name: 'Mark paid' });
  await expect(dialog.getByLabel('Amount received (CHF)')).toHaveValue('581,00');
  await dialog.getByLabel('Amount received (CHF)').fill('559.38');
  await dialog.getByText('Cash discount (3800)').click();
  await snap(page, 'partial-03-invoice-rest-with-discount');
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Payments' }).getByText('cash discount')).toBeVisible();
  expect(await balanceOf('1100')).toBe('0.00');
  // 21.62 = 20.00 net on 3800 + 1.62 output VAT taken back from 2200 (81.00 − 1.62).
  expect(await balanceOf('3800')).toBe('20.00');
  expect(await balanceOf('2200')).toBe('-79.38');
  await snap(page, 'partial-04-invoice-paid-with-discount');

  // A bill of 1081.00 paid 400.00 from the bill's page, then the payment reversed.
  const supplier = await api('/api/company/insert', { data: { name: 'Lieferant Teilzahlung GmbH', address } });
  const bill = await api('/api/payable/insert', { data: { company: { uuid: supplier.uuid }, date: '2025-10-05', amount: '1081.00', vatRate: '0.081', description: 'Wartung Q4' } });
  await api('/api/payable/update', { uuid: bill.uuid, data: { status: 2 } });
  await page.goto(`/bill/${bill.uuid}/detail`);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Pay bill' });
  await expect(dialog.getByLabel('Amount paid (CHF)')).toHaveValue('1081,00');
  await dialog.getByLabel('Amount paid (CHF)').fill('400.00');
  await dialog.getByLabel('Payment date').fill('20.10.2025');
  await snap(page, 'partial-05-bill-part-payment-dialog');
  await dialog.getByRole('button', { name: 'Record part payment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Approved', { exact: true }).first()).toBeVisible();
  const payments = page.getByRole('table', { name: 'Payments' });
  await expect(payments.getByRole('row')).toHaveCount(2);
  expect(await balanceOf('2000')).toBe('-681.00');
  await snap(page, 'partial-06-bill-part-paid');

  await page.goto('/bill/creditors');
  await expect(page.getByText('Lieferant Teilzahlung GmbH')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Lieferant Teilzahlung GmbH' })).toContainText('681,00');
  await snap(page, 'partial-07-creditors-open');

  await page.goto(`/bill/${bill.uuid}/detail`);
  await page.getByRole('table', { name: 'Payments' }).getByRole('button', { name: 'Reverse' }).click();
  await expect(page.getByRole('table', { name: 'Payments' }).getByText(/Reversed/)).toBeVisible();
  expect(await balanceOf('2000')).toBe('-1081.00');
  await snap(page, 'partial-08-bill-payment-reversed');
});
