/**
 * /api/invoice/import (issue #4 §3, audit §1): every field of every row validated with the domain
 * schemas, every problem reported against its row and field, all or nothing, no database texts;
 * the customer by uuid, UID or name. Real server, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoicingWorkplace, type InvoicingWorkplace } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const counts = async (w: InvoicingWorkplace) => {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ invoices: number; items: number }>('SELECT (SELECT count(*)::int FROM invoice) AS invoices, (SELECT count(*)::int FROM invoice_item) AS items'),
  );
  return row!;
};

/** A customer made through the companies API (name, optional UID, a Swiss address). */
async function customer(w: InvoicingWorkplace, name: string, uid?: string): Promise<string> {
  const response = await w.api.post('/api/company/insert', {
    data: { name, ...(uid ? { uid } : {}), address: { street: 'Seestrasse', houseNumber: '5', zip: '8800', city: 'Thalwil', country: { id: 1 } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.uuid;
}

const line = (over: Record<string, unknown> = {}) => ({ invoice: 'A', company: 'Simon Muster AG', dateInvoice: '2025-04-01', name: 'Design', amount: '1', price: '100', ...over });

describe('POST /api/invoice/import', () => {
  let w: InvoicingWorkplace;
  beforeAll(async () => {
    w = await invoicingWorkplace(server);
    await customer(w, 'Kunde Muster GmbH', 'CHE-116.281.710');
    await customer(w, 'Twin AG');
    await customer(w, 'twin ag ');
  });

  it('reports every bad field of every row, writes nothing and never answers a database text', async () => {
    const response = await w.api.post('/api/invoice/import', {
      data: [
        line({ discount: 'ten' }),
        line({ discountAbs: '1.234' }),
        line({ discount: '120' }),
        line({ invoice: 'B', company: 'Nobody Ltd' }),
        line({ amount: '123456789012345' }),
        line({ discount: '10', discountAbs: '5' }),
        line({ price: '10', discountAbs: '11' }),
        line({ name: '', amount: 5 }),
        line({ invoice: 'C', company: 'Twin AG' }),
        line({ invoice: 'D', currency: 'USD', fxRate: '0' }),
        line({ invoice: 'E', account: '1020' }),
        line({ invoice: 'F', account: '9999' }),
        line({ invoice: 'G', currency: 'EUR' }),
        line({ invoice: 'H', dateInvoice: '2025-04-01', dateDue: '2025-03-01' }),
        line({ vat: '0.05', invoice: 'I' }),
        line({ unknownColumn: 'x', invoice: 'J' }),
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.rows).toEqual([
      { row: 1, field: 'discount', message: 'amount must be a decimal number with at most 4 decimals' },
      { row: 2, field: 'discountAbs', message: 'amount must be a decimal number with at most 2 decimals' },
      { row: 3, field: 'discount', message: 'the discount cannot exceed 100 %' },
      { row: 4, field: 'company', message: 'no customer with this name' },
      { row: 5, field: 'amount', message: 'amount must be between -999999999999.99 and 999999999999.99' },
      { row: 6, field: 'discountAbs', message: 'give either a percent or an absolute discount, not both' },
      { row: 7, field: 'discountAbs', message: 'the discount cannot exceed the line amount' },
      { row: 8, field: 'name', message: 'This field must be given' },
      { row: 8, field: 'amount', message: 'expected type string' },
      { row: 9, field: 'company', message: '2 customers have this name: give the UID or the uuid' },
      { row: 10, field: 'currency', message: 'invoices are in CHF or EUR, the currencies of the Swiss QR-bill (not USD)' },
      { row: 10, field: 'fxRate', message: 'the exchange rate must be a number greater than 0 (and below 1 000 000)' },
      { row: 11, field: 'account', message: 'choose one of your revenue ledger accounts (class 3)' },
      { row: 12, field: 'account', message: 'no ledger account 9999' },
      { row: 13, field: 'fxRate', message: 'give the exchange rate of the invoice: CHF per 1 EUR' },
      { row: 14, field: 'dateDue', message: 'the due date cannot be before the invoice date' },
      { row: 15, field: 'vat', message: 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0' },
      { row: 16, field: 'unknownColumn', message: 'this key cannot be included' },
    ]);
    expect(response.body.fields).toMatchObject({ 'data.0.discount': expect.any(String), 'data.15.unknownColumn': 'this key cannot be included' });
    expect(response.body.error).toMatch(/^18 problems, nothing was imported; row 1: discount: /);
    expect(response.body.code).toBe('import_invalid');
    expect(JSON.stringify(response.body)).not.toMatch(/violates|constraint|numeric field overflow|invalid input syntax/);
    expect(await counts(w)).toEqual({ invoices: 0, items: 0 });
  });

  it('two lines of one invoice with one bad: the good line is not imported either', async () => {
    const response = await w.api.post('/api/invoice/import', { data: [line(), line({ name: 'Hosting', discountAbs: 'x' })] });
    expect(response.status).toBe(400);
    expect(response.body.rows).toEqual([{ row: 2, field: 'discountAbs', message: 'amount must be a decimal number with at most 2 decimals' }]);
    expect(await counts(w)).toEqual({ invoices: 0, items: 0 });
  });

  it('rows of one invoice must agree on its header', async () => {
    const response = await w.api.post('/api/invoice/import', {
      data: [line(), line({ dateInvoice: '2025-04-02' }), line({ company: 'Kunde Muster GmbH' })],
    });
    expect(response.body.rows).toEqual([
      { row: 2, field: 'dateInvoice', message: 'differs from row 1 of invoice A' },
      { row: 3, field: 'company', message: 'invoice A has another customer on row 1' },
    ]);
  });

  it('finds the customer by name (any case), UID or uuid and imports all rows with their accounts', async () => {
    const [services] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '3400'", [w.instanceId]),
    );
    const response = await w.api.post('/api/invoice/import', {
      data: [
        line({ company: ' simon muster ag ', name: 'Design', amount: '10', price: '150', account: '3400' }),
        line({ company: 'Simon Muster AG', name: 'Hosting', amount: '1', price: '99.90', discount: '10' }),
        line({ invoice: 'B', company: 'CHE-116.281.710 MWST', name: 'Support', amount: '2', price: '80', discountAbs: '10.00' }),
        line({ invoice: 'C', company: undefined, companyUuid: w.customer, currency: 'EUR', fxRate: '0.95', name: 'Export', amount: '1', price: '200' }),
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.created).toBe(3);
    // A: 1500 + 89.91 = 1589.91, VAT 128.78 → 1718.69 → 1718.70; B: 150, VAT 12.15 → 162.15; C: 200 EUR + 16.20.
    expect(response.body.invoices.map((i: { total: string }) => i.total)).toEqual(['1718.70', '162.15', '216.20']);
    const a = (await w.api.post('/api/invoice/detail', { id: response.body.invoices[0].uuid })).body;
    expect(a).toMatchObject({ company: { name: 'Simon Muster AG' }, dateDue: '2025-05-01', paymentTermDays: 30 });
    expect(a.items.map((i: { name: string; account: { id: number } | null }) => [i.name, i.account?.id ?? null])).toEqual([
      ['Design', services!.id],
      ['Hosting', null],
    ]);
    const b = (await w.api.post('/api/invoice/detail', { id: response.body.invoices[1].uuid })).body;
    expect(b.company.name).toBe('Kunde Muster GmbH');
    const c = (await w.api.post('/api/invoice/detail', { id: response.body.invoices[2].uuid })).body;
    expect(c).toMatchObject({ currency: 'EUR', fxRate: '0.95', totalBase: '205.39' });
    expect(await counts(w)).toEqual({ invoices: 3, items: 4 });
  });

  it('takes a VAT rate per row, so one invoice mixes rates as the form does (issue 15 §6)', async () => {
    const response = await w.api.post('/api/invoice/import', {
      data: [
        line({ invoice: 'M', name: 'Consulting', amount: '2', price: '500', vat: '0.081' }),
        line({ invoice: 'M', name: 'Book', amount: '3', price: '40', vat: '0.026' }),
        line({ invoice: 'M', name: 'Hotel night', amount: '1', price: '180', vat: '0.038' }),
        line({ invoice: 'M', name: 'Postage', amount: '1', price: '5' }),
      ],
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const detail = (await w.api.post('/api/invoice/detail', { id: response.body.invoices[0].uuid })).body;
    expect(detail.items.map((i: { name: string; vat: string | null }) => [i.name, i.vat])).toEqual([
      ['Consulting', '0.081'],
      ['Book', '0.026'],
      ['Hotel night', '0.038'],
      ['Postage', null],
    ]);
    // 1005 at 8.1 % (the invoice's rate, from its first row) = 81.41, 120 at 2.6 % = 3.12, 180 at 3.8 % = 6.84.
    expect(detail.vat).toBe('0.081');
    expect(detail.totals.vatLines.map((l: { rate: string; base: string; vat: string }) => [l.rate, l.base, l.vat])).toEqual([
      ['0.081', '1005.00', '81.41'],
      ['0.038', '180.00', '6.84'],
      ['0.026', '120.00', '3.12'],
    ]);
    // 1305.00 + 91.37 = 1396.37, rounded to 0.05.
    expect(response.body.invoices[0].total).toBe('1396.35');
  });

  it('refuses a body that is no list of rows', async () => {
    expect((await w.api.post('/api/invoice/import', { data: [] })).body.fields).toEqual({ data: 'array expected' });
    expect((await w.api.post('/api/invoice/import', { data: ['x'] })).status).toBe(400);
  });
});
