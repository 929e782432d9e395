/**
 * VAT settings for the net tax rate method and the send dialog's VAT period hint in Chromium
 * (issue 13, decision 020 addendum): an approved rate with the rate approved up to 2023, and an
 * invoice sent on a ledger date outside its invoice date's VAT period is flagged before posting.
 */
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('net tax rate settings keep the rate approved up to 2023; sending into another VAT period is flagged', async ({ page }) => {
  await signUpAndOnboard(page, { name: `VAT net ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/accounting/vat');
  await expect(page.getByRole('heading', { name: 'Set up the VAT registration' })).toBeVisible();
  await page.getByLabel('VAT number').fill('CHE-116.281.710 MWST');
  await page.getByLabel('Registered since').fill('01.01.2020');
  await page.keyboard.press('Escape');
  await page.getByText('Net tax rate', { exact: true }).click();
  await page.getByLabel('Rate 1 (%)').fill('6.5');
  await page.getByLabel('Up to 2023 (%)').fill('6.2');
  await snap(page, 'vat-net-settings-01-form');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('VAT settings saved.')).toBeVisible();
  await expect(page.getByText('6.5 % (up to 2023: 6.2 %)')).toBeVisible();

  // An invoice of 29.06.2024 (H1 2024: the net method reports half-yearly), sent on 02.07.2024 (H2).
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const invoice = await customerInvoice(
    api,
    { name: 'Kunde Halbjahr AG', address: { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: { id: 1 } } },
    { vat: '0.081', dateInvoice: '2024-06-29', dateDue: '2024-07-29', items: [{ name: 'Beratung', amount: '1', price: '100.00' }] },
  );
  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Send invoice' });
  await expect(dialog.getByRole('textbox', { name: 'Ledger date' })).toHaveValue('29.06.2024');
  await expect(dialog.getByText(/declared in/)).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Ledger date' }).fill('02.07.2024');
  await dialog.getByText('Posts the receivable').click();
  await expect(dialog.getByText('The invoice date 29.06.2024 is in the VAT period H1 2024; posted on 02.07.2024 the invoice is declared in H2 2024.', { exact: false })).toBeVisible();
  await snap(page, 'vat-net-settings-02-send-hint');
});
