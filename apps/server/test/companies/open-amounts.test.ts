/**
 * The company list's open receivable and payable columns (`openAmounts`) and the ap-ar links to
 * each document (issue #4 §1 "ap-ar … with totals"), with real invoices and bills, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let w: InvoicingWorkplace;
let supplier: string;
beforeAll(async () => {
  server = await startTestServer();
  w = await invoicingWorkplace(server);
  // Customer Simon Muster AG: two sent invoices (269.55 each), one pending (not open), one paid (not open).
  for (const next of [2, 2, 1, 3]) {
    const created = await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    if (next >= 2) await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' });
    if (next === 3) await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 3, ledgerDate: '2025-03-10' });
  }
  // Supplier Lieferant GmbH: bills of 100.00 CHF (reference RF18539007547034) and 10.00 EUR at 0.955 (9.55 CHF), one cancelled.
  supplier = (await w.api.post('/api/company/insert', { data: { name: 'Lieferant GmbH' } })).body.uuid;
  const bill = (data: Record<string, unknown>) => w.api.post('/api/payable/insert', { data: { company: { uuid: supplier }, date: '2025-04-02', ...data } });
  expect((await bill({ amount: '100.00', referenceNumber: 'RF18539007547034' })).status).toBe(200);
  expect((await bill({ amount: '10.00', currency: 'EUR', exchangeRate: '0.955' })).status).toBe(200);
  const cancelled = await bill({ amount: '70.00' });
  await w.api.post('/api/payable/update', { uuid: cancelled.body.uuid, data: { status: 5 } });
  // The customer is also a supplier of one open bill.
  expect((await w.api.post('/api/payable/insert', { data: { company: { uuid: w.customer }, date: '2025-04-05', amount: '12.35' } })).status).toBe(200);
});
afterAll(async () => server?.close());

describe('company list with openAmounts', () => {
  it('adds each company its open receivable and payable, as the ap-ar page sums them', async () => {
    const res = await w.api.post('/api/company/list', { openAmounts: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byName = Object.fromEntries(res.body.data.map((c: { name: string; open: unknown }) => [c.name, c.open]));
    expect(byName['Simon Muster AG']).toEqual({ receivable: '539.10', payable: '12.35' });
    expect(byName['Lieferant GmbH']).toEqual({ receivable: '0.00', payable: '109.55' });
    const own = res.body.data.find((c: { isOwn: boolean }) => c.isOwn);
    expect(own.open).toEqual({ receivable: '0.00', payable: '0.00' });

    for (const company of res.body.data as { uuid: string; open: { receivable: string; payable: string } }[]) {
      const apAr = await w.api.post('/api/company/ap-ar', { uuid: company.uuid });
      expect(company.open).toEqual({ receivable: apAr.body.totals.receivable, payable: apAr.body.totals.payable });
    }

    const get = await w.api.get('/api/company/list?openAmounts=true&text=lieferant');
    expect(get.body.data.map((c: { name: string; open: unknown }) => [c.name, c.open])).toEqual([['Lieferant GmbH', { receivable: '0.00', payable: '109.55' }]]);
  });

  it('leaves them out unless asked', async () => {
    const plain = await w.api.get('/api/company/list');
    expect(plain.body.data.every((c: object) => !('open' in c))).toBe(true);
    expect((await w.api.post('/api/company/list', { openAmounts: 'yes' })).status).toBe(400);
  });
});

describe('company ap-ar links', () => {
  it('links every invoice to its detail and every bill to the open bills searched for it', async () => {
    const customer = (await w.api.post('/api/company/ap-ar', { uuid: w.customer })).body;
    expect(customer.receivables).toHaveLength(2);
    for (const item of customer.receivables) expect(item.link).toBe(`/invoice/${item.uuid}/detail`);
    expect(customer.totals).toEqual({ receivable: '539.10', payable: '12.35', net: '526.75' });
    const links = (await w.api.post('/api/company/ap-ar', { uuid: supplier })).body.payables.map((item: { reference: string; link: string }) => [item.reference, item.link]);
    expect(links).toEqual([
      ['RF18539007547034', '/bill?filterStatus=true&text=RF18539007547034'],
      [expect.stringMatching(/^Bill \d+$/), '/bill?filterStatus=true&text=Lieferant+GmbH'],
    ]);
  });

  it('each bill link finds its bills: the bills list searched with the link\'s filters', async () => {
    const search = async (text: string) => {
      const res = await w.api.post('/api/payable/list', { filters: { filterStatus: true, text } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((bill: { amount: string; referenceNumber: string | null }) => [bill.amount, bill.referenceNumber]);
    };
    expect(await search('RF18539007547034')).toEqual([['100.00', 'RF18539007547034']]);
    expect((await search('Lieferant GmbH')).sort()).toEqual([['10.00', null], ['100.00', 'RF18539007547034']]);
    // '%' is no wildcard: like any punctuation it separates words (decision 033, addendum).
    expect((await search('lieferant%')).sort()).toEqual((await search('lieferant')).sort());
    expect(await search('lieferant%xyz')).toEqual([]);
    const all = await w.api.post('/api/payable/list', { filters: { text: 'Simon' } });
    expect(all.body.data.map((bill: { amount: string }) => bill.amount)).toEqual(['12.35']);
  });
});

describe('company list open amounts after part payments, credit notes and an invoice in EUR', () => {
  it('sums each open invoice as the ap-ar page does (the list reads them without the invoices themselves)', async () => {
    const before = (await w.api.post('/api/company/ap-ar', { uuid: w.customer })).body.totals.receivable;
    const sent = async (data: Record<string, unknown>) => {
      const created = await w.api.post('/api/invoice/insert', { data });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect((await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' })).status).toBe(200);
      return created.body as { uuid: string; items: { id: number }[] };
    };
    const chf = await sent(invoiceData(w));
    const paid = await w.api.post('/api/invoice/payment/insert', { uuid: chf.uuid, amount: '100.00', date: '2025-03-05' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const credited = await w.api.post('/api/invoice/credit-note/insert', { uuid: chf.uuid, lines: [{ itemId: chf.items[0]!.id, amount: '20.00' }], date: '2025-03-06', token: 'open-amounts' });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    const eur = await sent({ ...invoiceData(w), currency: 'EUR', fxRate: '0.9312' });
    expect((await w.api.post('/api/invoice/payment/insert', { uuid: eur.uuid, amount: '50.00', date: '2025-03-07' })).status).toBe(200);

    const apAr = (await w.api.post('/api/company/ap-ar', { uuid: w.customer })).body.totals;
    expect(apAr.receivable).not.toBe(before);
    const list = await w.api.post('/api/company/list', { openAmounts: true, filters: { text: 'Simon Muster' } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((c: { open: unknown }) => c.open)).toEqual([{ receivable: apAr.receivable, payable: apAr.payable }]);
  });
});
