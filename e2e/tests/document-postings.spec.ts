/**
 * Document postings belong to their document (issue 11 §2) in Chromium: the entry a sent invoice
 * posted names the invoice and links to it, with no edit or delete; a manual entry of the same
 * workplace keeps both.
 */
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('the entry of a sent invoice links to the invoice instead of edit and delete; a manual entry stays editable', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Postings ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, headers } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const accountId = async (number: string) => (await api('/api/accounting/account/list', { filters: { text: number } })).data.find((a: any) => a.number === number).id as number;

  const invoice = await customerInvoice(
    api,
    { name: 'Simon Muster AG', address: { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Zürich', country: { id: 1 } } },
    { vat: '0.081', dateInvoice: '2025-10-01', items: [{ name: 'Workshop', amount: '1', price: '100' }] },
  );
  const sent = await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });
  const sentEntry = sent.entries.find((e: { kind: string }) => e.kind === 'sent').id as number;

  await page.goto(`/accounting/entry/${sentEntry}/detail`);
  await expect(page.getByText(`Posted by invoice ${sent.refNumber}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await snap(page, 'document-postings-01-invoice-entry');
  await page.getByRole('link', { name: 'open the invoice' }).click();
  await page.waitForURL(`**/invoice/${invoice.uuid}/detail`);

  // The API refuses the change the page no longer offers.
  const refused = await page.request.post('/api/accounting/entry/delete', { headers, data: { id: sentEntry } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ code: 'document_posting', document: { type: 'invoice', uuid: invoice.uuid } });

  const manual = await api('/api/accounting/entry/insert', {
    data: {
      dateLedger: '2025-10-02',
      description: 'Cash deposit',
      entryAccounts: [
        { account: { id: await accountId('1020') }, amount: '50.00', direction: 1 },
        { account: { id: await accountId('1000') }, amount: '50.00', direction: -1 },
      ],
    },
  });
  await page.goto(`/accounting/entry/${manual.id}/detail`);
  await expect(page.getByText('Cash deposit')).toBeVisible();
  await expect(page.getByText(/Posted by/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  await snap(page, 'document-postings-02-manual-entry');
});
