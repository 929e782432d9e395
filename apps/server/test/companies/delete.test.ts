/**
 * POST /api/company/delete while documents keep the company (issue #4 §1): invoices, bills and the
 * postings of both, each named with its count in the 409. Real invoices and bills through their
 * APIs, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function refusal(w: InvoicingWorkplace, uuid: string): Promise<string> {
  const res = await w.api.post('/api/company/delete', { id: uuid });
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect((await w.api.post('/api/company/detail', { id: uuid })).status).toBe(200);
  return res.body.error as string;
}

async function invoice(w: InvoicingWorkplace, company = w.customer, address = w.address) {
  const created = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), company: { uuid: company }, address: { id: address } } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.uuid as string;
}

const status = async (w: InvoicingWorkplace, uuid: string, to: number, ledgerDate = '2025-03-01') => {
  const res = await w.api.post('/api/invoice/status/change', { uuid, status: to, ledgerDate });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

async function supplier(w: InvoicingWorkplace, name: string): Promise<string> {
  const res = await w.api.post('/api/company/insert', { data: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.uuid;
}

async function bill(w: InvoicingWorkplace, company: string): Promise<string> {
  const res = await w.api.post('/api/payable/insert', { data: { company: { uuid: company }, date: '2025-04-02', amount: '100.00' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.uuid;
}

const billStatus = async (w: InvoicingWorkplace, uuid: string, to: number) => {
  const res = await w.api.post('/api/payable/update', { uuid, data: { status: to, statusDate: '2025-04-03' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('POST /api/company/delete with documents', () => {
  it('names the invoices, and the postings they made once sent, paid or denied', async () => {
    const w = await invoicingWorkplace(server);
    const first = await invoice(w);
    expect(await refusal(w, w.customer)).toBe('Simon Muster AG has 1 invoice; it cannot be deleted');

    await status(w, first, 2);
    expect(await refusal(w, w.customer)).toBe('Simon Muster AG has 1 invoice and 1 posting; it cannot be deleted');
    await status(w, first, 3, '2025-03-20');
    const second = await invoice(w);
    await status(w, second, 2);
    await status(w, second, 4, '2025-03-21');
    // first: sent + paid; second: sent + its reversal (denied).
    expect(await refusal(w, w.customer)).toBe('Simon Muster AG has 2 invoices and 4 postings; it cannot be deleted');

    // Another customer's documents of the same instance count for that customer only.
    const other = await supplier(w, 'Andere Kundin AG');
    const otherAddress = await w.api.post('/api/address/insert', { data: { company: { uuid: other }, street: 'Weg', zip: '3000', city: 'Bern', country: { id: 1 } } });
    await status(w, await invoice(w, other, otherAddress.body.id), 2);
    expect(await refusal(w, other)).toBe('Andere Kundin AG has 1 invoice and 1 posting; it cannot be deleted');
    expect(await refusal(w, w.customer)).toBe('Simon Muster AG has 2 invoices and 4 postings; it cannot be deleted');
  });

  it('names the bills, and the booking, its reversal and the payment postings', async () => {
    const w = await invoicingWorkplace(server);
    const uuid = await supplier(w, 'Lieferant GmbH');
    const pending = await bill(w, uuid);
    expect(await refusal(w, uuid)).toBe('Lieferant GmbH has 1 bill; it cannot be deleted');

    await billStatus(w, pending, 2); // approved: booked
    expect(await refusal(w, uuid)).toBe('Lieferant GmbH has 1 bill and 1 posting; it cannot be deleted');
    await billStatus(w, pending, 1); // back to pending: the booking is reversed, both stay in the books
    expect(await refusal(w, uuid)).toBe('Lieferant GmbH has 1 bill and 2 postings; it cannot be deleted');
    await bill(w, uuid);
    expect(await refusal(w, uuid)).toBe('Lieferant GmbH has 2 bills and 2 postings; it cannot be deleted');
  });

  it('names all three for a company that is customer and supplier', async () => {
    const w = await invoicingWorkplace(server);
    await status(w, await invoice(w), 2);
    await invoice(w);
    const booked = await bill(w, w.customer);
    await billStatus(w, booked, 2);
    expect(await refusal(w, w.customer)).toBe('Simon Muster AG has 2 invoices, 1 bill and 2 postings; it cannot be deleted');
  });

  it('deletes a company with only addresses, payment profiles and properties', async () => {
    const w = await invoicingWorkplace(server);
    const uuid = await supplier(w, 'Leer AG');
    await w.api.post('/api/address/insert', { data: { company: { uuid }, street: 'Weg', zip: '3000', city: 'Bern', country: { id: 1 } } });
    const profile = await w.api.post('/api/payment-profile/insert', { data: { company: { uuid }, account: { id: await w.account('2000') }, type: 1, iban: 'CH9300762011623852957' } });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    await w.api.post('/api/additional-property/insert', { data: { company: { uuid }, type: 1, name: 'Note', value: 'x' } });
    expect((await w.api.post('/api/company/delete', { id: uuid })).body).toEqual({ ok: true });
    expect((await w.api.post('/api/company/detail', { id: uuid })).status).toBe(404);
  });
});
