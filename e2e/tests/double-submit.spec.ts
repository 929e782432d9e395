/**
 * Issue 11 §1 in Chromium: a double click books once. 'Mark paid' on an invoice (a payment of the
 * open amount, decision 021) and the buttons
 * behind 'Pay selected' on the bills (create the transaction group, mark it sent, mark it paid) are
 * double-clicked; the browser sends each request once, and the API shows one payment entry each.
 */
import { expect, test, type Page } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard } from './support';

/** Counts the POSTs the page sends to `path` from now on. */
function countPosts(page: Page, path: string): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) count += 1;
  });
  return () => count;
}

test('double clicks on Mark paid and Pay selected post one payment each', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Double ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, get } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const accountId = async (number: string) => (await api('/api/accounting/account/list', { filters: { text: number } })).data.find((a: any) => a.number === number).id as number;
  const balanceOf = async (number: string) =>
    ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;
  /** Journal entries whose description contains `text`. */
  const entries = async (text: string) => (await api('/api/accounting/entry/list', { filters: { text }, page: 1, pageSize: 100 })).data as { description: string }[];
  // 'Mark paid' records a payment (decision 021).
  const payments = countPosts(page, '/api/invoice/payment/insert');
  const groupInserts = countPosts(page, '/api/transaction-group/insert');
  const groupChanges = countPosts(page, '/api/transaction-group/status/change');

  // A sent invoice of 1081.00 to a customer, paid to the own IBAN on 1020.
  const address = { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Seldwyla', country: { id: 1 } };
  const invoice = await customerInvoice(
    api,
    { name: 'Simon Muster AG', address },
    { vat: '0.081', dateInvoice: '2025-10-01', items: [{ name: 'Beratung', amount: '1', price: '1000' }] },
  );
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });

  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  await page.getByRole('dialog', { name: 'Mark paid' }).getByRole('button', { name: 'Mark paid' }).dblclick();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  expect(payments()).toBe(1);
  expect((await entries(`Payment ${invoice.refNumber}`)).map((e) => e.description)).toEqual([`Payment ${invoice.refNumber} Simon Muster AG`]);
  expect(await balanceOf('1100')).toBe('0.00');
  expect(await balanceOf('1020')).toBe('1081.00');

  // An approved bill of 540.50 to a supplier's IBAN, paid through a transaction group.
  const supplier = await api('/api/company/insert', { data: { name: 'Papeterie Muster AG', address: { ...address, city: 'Zürich' } } });
  const supplierProfile = await api('/api/payment-profile/insert', { data: { company: { uuid: supplier.uuid }, account: { id: await accountId('2000') }, type: 1, iban: 'CH5800791123000889012' } });
  const bill = await api('/api/payable/insert', {
    data: { company: { uuid: supplier.uuid }, companyFinance: { id: supplierProfile.id }, date: '2025-10-05', amount: '540.50', description: 'Büromaterial' },
  });
  await api('/api/payable/update', { uuid: bill.uuid, data: { status: 2 } });

  await page.goto('/bill');
  await page.getByRole('checkbox', { name: /Select bill/ }).check();
  await page.getByRole('button', { name: 'Pay selected (1)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create transaction group' }).dblclick();
  await page.waitForURL('**/transaction-group/*/detail');
  expect(groupInserts()).toBe(1);
  await page.getByRole('button', { name: 'Mark as sent to the bank' }).dblclick();
  await expect(page.getByText('Initiated')).toBeVisible();
  await page.getByRole('button', { name: 'Mark as paid' }).dblclick();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  expect(groupChanges()).toBe(2);
  expect((await (await get('/api/transaction-group/list')).json()).data).toHaveLength(1);
  expect((await entries(`Payment of bill ${bill.id}`)).map((e) => e.description)).toEqual([`Payment of bill ${bill.id} Papeterie Muster AG`]);
  expect(await balanceOf('2000')).toBe('0.00');
});
