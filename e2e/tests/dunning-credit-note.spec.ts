/**
 * Credit notes in Chromium (issue 15 §2, decision 027): an overdue invoice of 2 lines (1621.50),
 * a partial credit note of 3 hours from the invoice detail (324.30 with the VAT reduction), shown
 * on the detail and the debtors page, its PDF; then the rest paid → paid, the receivable 0.
 * The dunning run itself is dunning.spec.ts; the whole sales cycle sales-cycle.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('overdue invoice → partial credit note → rest paid', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Gutschrift ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const balanceOf = async (number: string) =>
    ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;

  // 10 h × 100.00 + 500.00 = 1500.00 + 8.1 % = 1621.50, due 2025-10-31: overdue.
  const address = { street: 'Bahnhofstrasse', houseNumber: '7', zip: '8001', city: 'Zürich', country: { id: 1 } };
  const invoice = await customerInvoice(
    api,
    { name: 'Kunde Gutschrift AG', address },
    { vat: '0.081', dateInvoice: '2025-10-01', dateDue: '2025-10-31', items: [{ name: 'Beratung', amount: '10', price: '100' }, { name: 'Lizenz', amount: '1', price: '500' }] },
  );
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });

  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Credit note' }).click();
  const dialog = page.getByRole('dialog', { name: /Credit note for/ });
  await dialog.getByLabel('Credit note date').fill('15.11.2025');
  await dialog.getByLabel('Reason').fill('3 Stunden zu viel verrechnet');
  // More than invoiced is refused on the line.
  await dialog.getByLabel('Quantity to credit of Beratung').fill('11');
  await dialog.getByRole('button', { name: 'Create credit note' }).click();
  await expect(dialog.getByText(/more than the 10 invoiced/)).toBeVisible();
  await snap(page, 'credit-01-refused-more-than-invoiced');
  await dialog.getByLabel('Quantity to credit of Beratung').fill('3');
  await snap(page, 'credit-02-dialog');
  await dialog.getByRole('button', { name: 'Create credit note' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // 300.00 + 24.30 VAT = 324.30 credited; 1297.20 open.
  const notes = page.getByRole('table', { name: 'Credit notes' });
  await expect(notes.getByText(/^GS-\d{6}$/)).toBeVisible();
  await expect(notes).toContainText('324,30');
  await expect(page.getByTestId('invoice-open')).toHaveText(/1.297,20|1'297,20|1 297,20|1297,20/);
  expect(await balanceOf('1100')).toBe('1297.20');
  expect(await balanceOf('2200')).toBe('-97.20');
  await snap(page, 'credit-03-detail-with-credit-note');

  await page.goto('/invoice/debtors');
  await expect(page.getByRole('row').filter({ hasText: 'Kunde Gutschrift AG' })).toContainText(/credit note GS-\d{6}/);
  await snap(page, 'credit-04-debtors');

  // The rest paid: the invoice is paid and leaves the open items.
  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  const pay = page.getByRole('dialog', { name: 'Mark paid' });
  await expect(pay.getByLabel('Amount received (CHF)')).toHaveValue('1297,20');
  await pay.getByLabel('Payment date').fill('20.11.2025');
  await pay.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  expect(await balanceOf('1100')).toBe('0.00');
  await snap(page, 'credit-05-paid');
});
