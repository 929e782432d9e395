import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCreditorReference, isValidQrReference, parseSwicoS1, swicoDueDate, swicoVatAmount, validateQrBill } from '@bilan/domain';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { QR_IBAN, decodeQrFromPdf, invoiceData, invoicingWorkplace, memberClient, pdfPages, type InvoicingWorkplace } from './support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
let other: InvoicingWorkplace;
let viewer: Client;

beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
  other = await invoicingWorkplace(server);
  viewer = await memberClient(server, wp, 'viewer');
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown, client: Client = wp.api) => client.post(`/api${path}`, body);
const count = async (instanceId: string) => {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ invoices: number; items: number; entries: number }>(
      `SELECT (SELECT count(*)::int FROM invoice) AS invoices, (SELECT count(*)::int FROM invoice_item) AS items,
              (SELECT count(*)::int FROM journal_entry) AS entries`,
    ),
  );
  return row!;
};
async function balance(date: string, number: string, w: InvoicingWorkplace = wp): Promise<string> {
  const response = await w.api.post('/api/accounting/balance/get', { date });
  return response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}
async function pdf(body: unknown, token = wp.token): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const response = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') };
}

describe('POST /api/invoice/insert', () => {
  it('creates a pending invoice with a QR reference, exact totals and the BILAN number', async () => {
    const response = await post('/invoice/insert', { data: invoiceData(wp) });
    expect(response.status).toBe(200);
    const invoice = response.body;
    expect(invoice).toMatchObject({
      status: 1,
      statusName: 'pending',
      refNumber: `BILAN${String(invoice.id).padStart(6, '0')}`,
      company: { uuid: wp.customer, name: 'Simon Muster AG' },
      vat: '0.081',
      currency: 'CHF',
      totals: { net: '249.33', vat: '20.20', gross: '269.53', rounding: '0.02', total: '269.55' },
    });
    expect(invoice.items.map((i: { total: string }) => i.total)).toEqual(['216.00', '33.33']);
    expect(invoice.paymentReference).toMatch(/^\d{27}$/);
    expect(isValidQrReference(invoice.paymentReference)).toBe(true);
  });

  it('gives an ISO 11649 creditor reference with an IBAN profile', async () => {
    const response = await post('/invoice/insert', { data: invoiceData(wp, wp.ibanProfile) });
    expect(response.status).toBe(200);
    expect(response.body.paymentReference).toMatch(/^RF\d{2}BILAN\d{6}$/);
    expect(isValidCreditorReference(response.body.paymentReference)).toBe(true);
  });

  it('refuses bad input with 400 naming the field and writes nothing', async () => {
    const before = await count(wp.instanceId);
    const cases: [unknown, string][] = [
      [{ ...invoiceData(wp), items: [{ name: '', amount: '1', price: '1' }] }, 'data.items.0.name'],
      [{ ...invoiceData(wp), items: [{ name: 'x', amount: '1.5x', price: '1' }] }, 'data.items.0.amount'],
      [{ ...invoiceData(wp), items: [{ name: 'x', amount: '1', price: '-1' }] }, 'data.items.0.price'],
      [{ ...invoiceData(wp), items: [{ name: 'x', amount: '1', price: '10', discount: '120' }] }, 'data.items.0.discount'],
      [{ ...invoiceData(wp), items: [{ name: 'x', amount: '1', price: '10', discountAbs: '11' }] }, 'data.items.0.discountAbs'],
      [{ ...invoiceData(wp), vat: '0.05' }, 'data.vat'],
      [{ ...invoiceData(wp), dateInvoice: '2025-02-30' }, 'data.dateInvoice'],
      [{ ...invoiceData(wp), address: { id: 99999 } }, 'data.address.id'],
      [{ ...invoiceData(wp), company: { uuid: other.customer } }, 'data.company.uuid'],
      [{ ...invoiceData(wp), paymentProfile: { id: other.qrProfile + 1000 } }, 'data.paymentProfile.id'],
      [{ ...invoiceData(wp), extra: 1 }, 'data.extra'],
    ];
    for (const [data, field] of cases) {
      const response = await post('/invoice/insert', { data });
      expect(response.status, field).toBe(400);
      expect(Object.keys(response.body.fields), field).toContain(field);
    }
    // The rules beyond the schema (here: another instance's company) carry the module's code.
    expect((await post('/invoice/insert', { data: { ...invoiceData(wp), company: { uuid: other.customer } } })).body.code).toBe('invoice_invalid');
    expect(await count(wp.instanceId)).toEqual(before);
  });

  it('answers 401 without a token and 403 for a viewer', async () => {
    expect((await post('/invoice/insert', { data: invoiceData(wp) }, new Client(server.baseUrl))).status).toBe(401);
    expect((await post('/invoice/insert', { data: invoiceData(wp) }, viewer)).status).toBe(403);
    expect((await post('/invoice/list-w-amounts', {}, viewer)).status).toBe(200);
  });
});

describe('detail, update, items, delete', () => {
  it('reads by uuid or id, 404 across instances', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    expect((await post('/invoice/detail', { id: created.uuid })).body.id).toBe(created.id);
    expect((await post('/invoice/detail', { id: created.id })).body.uuid).toBe(created.uuid);
    const foreign = await post('/invoice/detail', { id: created.uuid }, other.api);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'invoice_not_found']);
    expect((await post('/invoice/update', { id: created.uuid, data: { description: 'x' } }, other.api)).status).toBe(404);
    expect((await post('/invoice/delete', { uuid: created.uuid }, other.api)).status).toBe(404);
    expect((await post('/invoice/detail', {}, new Client(server.baseUrl))).status).toBe(401);
  });

  it('updates a pending invoice and its lines', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    const updated = await post('/invoice/update', { id: created.uuid, data: { vat: '0.026', description: 'Books' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ vat: '0.026', description: 'Books', totals: { net: '249.33', vat: '6.48', total: '255.80' } });
    const added = await post('/invoice/item/insert', { data: { invoice: { uuid: created.uuid }, name: 'Extra', amount: '3', price: '10', discountAbs: '5' } });
    expect(added.status).toBe(200);
    const extra = added.body.items.find((i: { name: string }) => i.name === 'Extra');
    expect(extra.total).toBe('25.00');
    const changed = await post('/invoice/item/update', { id: extra.id, data: { name: 'Extra', amount: '1', price: '10' } });
    expect(changed.body.items.find((i: { id: number }) => i.id === extra.id).total).toBe('10.00');
    expect((await post('/invoice/item/update', { id: extra.id, data: { name: '', amount: '1', price: '10' } })).body.fields).toHaveProperty('data.name');
    expect((await post('/invoice/item/update', { id: extra.id, data: { name: 'x', amount: '1', price: '1' } }, other.api)).status).toBe(404);
    const removed = await post('/invoice/item/delete', { id: extra.id });
    expect(removed.body.items).toHaveLength(2);
    const gone = await post('/invoice/item/delete', { id: extra.id });
    expect([gone.status, gone.body.code]).toEqual([404, 'invoice_item_not_found']);
    expect((await post('/invoice/item/delete', { id: 1 }, viewer)).status).toBe(403);
  });

  it("takes and answers spec §3's item names label, quantity and rate beside name, amount and price", async () => {
    const data = { ...invoiceData(wp), items: [{ label: 'Audit', quantity: '2', rate: '450' }, { name: 'Travel', amount: '1', price: '80' }] };
    const created = await post('/invoice/insert', { data });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.items.map((i: Record<string, string>) => [i.name, i.label, i.amount, i.quantity, i.price, i.rate, i.total])).toEqual([
      ['Audit', 'Audit', '2', '2', '450', '450', '900.00'],
      ['Travel', 'Travel', '1', '1', '80', '80', '80.00'],
    ]);
    const added = await post('/invoice/item/insert', { data: { invoice: { uuid: created.body.uuid }, label: 'Report', quantity: '1', rate: '120', name: 'Report' } });
    expect(added.body.items.map((i: { label: string }) => i.label)).toContain('Report');
    const both = await post('/invoice/item/insert', { data: { invoice: { uuid: created.body.uuid }, label: 'A', name: 'B', quantity: '1', rate: '1' } });
    expect([both.status, both.body.fields]).toEqual([400, { 'data.label': 'label is another name for name: give one of them' }]);
    const none = await post('/invoice/item/insert', { data: { invoice: { uuid: created.body.uuid }, label: 'A', quantity: '1' } });
    expect([none.status, none.body.fields]).toEqual([400, { 'data.price': 'This field must be given' }]);
    const spec = (await new Client(server.baseUrl).get('/api/docs/json')).body;
    const item = spec.paths['/api/invoice/item/update'].post.requestBody.content['application/json'].schema.properties.data.properties;
    expect(Object.keys(item)).toEqual(expect.arrayContaining(['label', 'quantity', 'rate', 'name', 'amount', 'price']));
  });

  it('deletes only pending invoices', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    expect((await post('/invoice/delete', { uuid: created.uuid }, viewer)).status).toBe(403);
    expect((await post('/invoice/delete', { uuid: created.uuid })).status).toBe(200);
    expect((await post('/invoice/detail', { id: created.uuid })).status).toBe(404);
    const sent = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    await post('/invoice/status/change', { uuid: sent.uuid, status: 2, ledgerDate: '2025-03-01' });
    const refused = await post('/invoice/delete', { uuid: sent.uuid });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/only pending invoices/);
    expect(refused.body.code).toBe('invoice_not_pending');
    expect((await post('/invoice/update', { id: sent.uuid, data: { description: 'x' } })).status).toBe(409);
    expect((await post('/invoice/item/insert', { data: { invoice: { uuid: sent.uuid }, name: 'x', amount: '1', price: '1' } })).status).toBe(409);
  });
});

describe('POST /api/invoice/status/change', () => {
  it('posts sent and paid entries; the receivable goes back to zero', async () => {
    const w = await invoicingWorkplace(server);
    const created = (await w.api.post('/api/invoice/insert', { data: invoiceData(w) })).body;
    const wrong = await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 3, ledgerDate: '2025-03-01' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatch(/cannot go from pending to paid/);

    const sent = await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-01' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 2, ledgerDate: '2025-03-01' });
    expect(sent.body.entries).toEqual([{ id: expect.any(Number), kind: 'sent' }]);
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: sent.body.entries[0].id })).body;
    expect(entry).toMatchObject({ source: 'invoice', dateLedger: '2025-03-01', debitTotal: '269.55' });
    expect(entry.entryAccounts.map((l: { account: { number: string }; amount: string; direction: number }) => [l.account.number, l.amount, l.direction])).toEqual([
      ['1100', '269.55', 1],
      ['3200', '249.35', -1],
      ['2200', '20.20', -1],
    ]);
    expect(await balance('2025-03-31', '1100', w)).toBe('269.55');
    expect((await w.api.get('/api/analytics/counts')).body.Invoice).toBe(1);

    // Due 2025-03-31: 45 days overdue on 2025-05-15.
    const debtors = (await w.api.post('/api/invoice/debtors', { date: '2025-05-15' })).body;
    expect(debtors.data).toEqual([
      {
        company: { uuid: w.customer, name: 'Simon Muster AG' },
        invoices: 1,
        buckets: { notDue: '0.00', d0_30: '0.00', d31_60: '269.55', d61_90: '0.00', d90plus: '0.00' },
        total: '269.55',
        documents: [
          {
            uuid: created.uuid,
            refNumber: created.refNumber,
            dateInvoice: '2025-03-01',
            dateDue: '2025-03-31',
            daysOverdue: 45,
            currency: 'CHF',
            total: '269.55',
            totalBase: '269.55',
            openAmount: '269.55',
            openAmountBase: '269.55',
            creditNotes: [],
          },
        ],
      },
    ]);

    const again = await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 2 });
    expect(again.status).toBe(409);
    const viewerClient = await memberClient(server, w, 'viewer');
    expect((await viewerClient.post('/api/invoice/status/change', { uuid: created.uuid, status: 3 })).status).toBe(403);
    expect((await other.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 3 })).status).toBe(404);
    expect((await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 7 })).body.fields).toHaveProperty('status');

    const paid = await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 3, bankRef: 'CAMT-4711', ledgerDate: '2025-03-20' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 3, bankRef: 'CAMT-4711' });
    expect(await balance('2025-03-31', '1100', w)).toBe('0.00');
    expect(await balance('2025-03-31', '1020', w)).toBe('269.55');
    expect((await w.api.post('/api/invoice/debtors', {})).body.data).toEqual([]);
  });

  it('denied reverses the sent entry; the lock date is respected', async () => {
    const w = await invoicingWorkplace(server);
    const created = (await w.api.post('/api/invoice/insert', { data: invoiceData(w) })).body;
    await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-01' });
    const denied = await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 4, ledgerDate: '2025-03-05' });
    expect(denied.status).toBe(200);
    expect(denied.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['sent', 'denied']);
    for (const number of ['1100', '3200', '2200']) expect(await balance('2025-03-31', number, w)).toBe('0.00');
    expect((await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 3 })).status).toBe(409);

    const locked = (await w.api.post('/api/invoice/insert', { data: invoiceData(w) })).body;
    await server.db.withInstance(w.instanceId, (tx) => tx.query("INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-03-31')", [w.instanceId]));
    const before = await count(w.instanceId);
    const refused = await w.api.post('/api/invoice/status/change', { uuid: locked.uuid, status: 2, ledgerDate: '2025-03-10' });
    expect(refused.status).toBe(409);
    expect(refused.body.fields).toHaveProperty('dateLedger');
    expect(await count(w.instanceId)).toEqual(before);
    expect((await w.api.post('/api/invoice/detail', { id: locked.uuid })).body.status).toBe(1);
  });
});

describe('lists', () => {
  it('filters by status, company, dates and text', async () => {
    const w = await invoicingWorkplace(server);
    const a = (await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), dateInvoice: '2025-01-10', description: 'Alpha' } })).body;
    const b = (await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), dateInvoice: '2025-02-10', description: 'Beta' } })).body;
    await w.api.post('/api/invoice/status/change', { uuid: b.uuid, status: 2, ledgerDate: '2025-02-10' });
    const list = async (filters: unknown) => (await w.api.post('/api/invoice/list-w-amounts', { filters })).body.data.map((i: { uuid: string }) => i.uuid);
    expect(await list({})).toEqual([b.uuid, a.uuid]);
    expect(await list({ status: 2 })).toEqual([b.uuid]);
    expect(await list({ dateFrom: '2025-01-01', dateTo: '2025-01-31' })).toEqual([a.uuid]);
    expect(await list({ text: 'alph' })).toEqual([a.uuid]);
    expect(await list({ text: a.refNumber })).toEqual([a.uuid]);
    expect(await list({ company: { uuid: w.customer } })).toHaveLength(2);
    expect(await list({ company: { uuid: other.customer } })).toEqual([]);
    expect((await w.api.post('/api/invoice/list-w-amounts', { filters: { status: 9 } })).status).toBe(400);
    const all = await w.api.get('/api/invoice/list');
    expect(all.body.total).toBe(2);
    expect(all.body.data[0].totals.total).toBe('269.55');
    expect((await new Client(server.baseUrl).get('/api/invoice/list')).status).toBe(401);
  });
});

describe('POST /api/invoice/import', () => {
  it('imports all rows or nothing with a per-row report', async () => {
    const w = await invoicingWorkplace(server);
    const rows = [
      { invoice: 'A', companyUuid: w.customer, dateInvoice: '2025-04-01', name: 'Design', amount: '10', price: '150' },
      { invoice: 'A', companyUuid: w.customer, dateInvoice: '2025-04-01', name: 'Hosting', amount: '1', price: '99.90', discount: '10' },
      { invoice: 'B', companyUuid: w.customer, dateInvoice: '2025-04-02', name: 'Support', amount: '2', price: '80' },
    ];
    const bad = await w.api.post('/api/invoice/import', {
      data: [...rows, { invoice: 'C', companyUuid: other.customer, dateInvoice: '2025-04-02', name: 'x', amount: '1', price: '1' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.rows).toEqual([{ row: 4, field: 'companyUuid', message: 'no customer with this uuid' }]);
    expect((await count(w.instanceId)).invoices).toBe(0);
    const schemaBad = await w.api.post('/api/invoice/import', { data: [{ ...rows[0], amount: 'ten' }] });
    expect(schemaBad.status).toBe(400);
    expect(schemaBad.body.fields).toHaveProperty('data.0.amount');

    const ok = await w.api.post('/api/invoice/import', { data: rows });
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(2);
    expect(ok.body.invoices.map((i: { total: string }) => i.total)).toEqual(['1718.70', '172.95']);
    expect((await viewer.post('/api/invoice/import', { data: rows })).status).toBe(403);
  });
});

describe('share links', () => {
  it('shows the invoice and PDF without sign-in, reveals nothing else, and can be revoked', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    const shared = await post('/invoice/share', { uuid: created.uuid });
    expect(shared.status).toBe(200);
    const anonymous = new Client(server.baseUrl);
    const view = await anonymous.get(`/api/public/invoice?token=${shared.body.token}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ refNumber: created.refNumber, totals: { total: '269.55' }, debtor: { name: 'Simon Muster AG' } });
    expect(view.body).not.toHaveProperty('uuid');
    expect(view.body).not.toHaveProperty('entries');
    const file = await fetch(`${server.baseUrl}/api/public/invoice/pdf?token=${shared.body.token}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // A forged key for the same uuid, and another instance's revoke, are refused.
    const forged = Buffer.from(JSON.stringify({ uuid: created.uuid, key: 'guess' })).toString('base64url');
    expect((await anonymous.get(`/api/public/invoice?token=${forged}`)).status).toBe(404);
    const malformed = await anonymous.get('/api/public/invoice?token=not-base64-json');
    expect([malformed.status, malformed.body.code]).toEqual([404, 'share_not_found']);
    expect((await post('/invoice/share/revoke', { uuid: created.uuid }, other.api)).status).toBe(404);
    expect((await post('/invoice/share', { uuid: created.uuid }, viewer)).status).toBe(403);
    expect((await post('/invoice/share/revoke', { uuid: created.uuid })).status).toBe(200);
    expect((await anonymous.get(`/api/public/invoice?token=${shared.body.token}`)).status).toBe(404);
  });
});

describe('POST /api/invoice/pdf', () => {
  const expectPayload = (payload: string, invoice: { paymentReference: string; refNumber: string }, account: string, uid?: string) => {
    const lines = payload.split(/\r?\n/);
    expect(lines.slice(0, 3)).toEqual(['SPC', '0200', '1']);
    expect(lines[3]).toBe(account);
    // Creditor (type S): the workplace's own company from onboarding.
    expect(lines[4]).toBe('S');
    expect(lines.slice(6, 11)).toEqual(['Bahnhofstrasse 1', '', '8001', 'Zürich', 'CH']);
    expect(lines.slice(18, 20)).toEqual(['269.55', 'CHF']);
    expect(lines.slice(20, 27)).toEqual(['S', 'Simon Muster AG', 'Musterstrasse', '1', '8000', 'Seldwyla', 'CH']);
    expect(lines[28]).toBe(invoice.paymentReference);
    expect(lines[30]).toBe('EPD');
    // Swico S1 billing information (IG v2.3 Annex D): what the customer's software books from.
    const s1 = parseSwicoS1(lines[31]!)!;
    expect(s1).toEqual({ invoiceNumber: invoice.refNumber, invoiceDate: '2025-03-01', uid, vat: [{ rate: '8.1' }], conditions: [{ discount: '0', days: 30 }] });
    expect(swicoDueDate(s1)).toBe('2025-03-31');
    expect(swicoVatAmount(s1, lines[18])).toBe('20.20');
    expect(lines[29]!.length + lines[31]!.length).toBeLessThanOrEqual(140);
    const data = {
      account: lines[3]!,
      creditor: { name: lines[5]!, street: lines[6] || undefined, buildingNumber: lines[7] || undefined, zip: lines[8]!, city: lines[9]!, country: lines[10]! },
      debtor: { name: lines[21]!, street: lines[22] || undefined, buildingNumber: lines[23] || undefined, zip: lines[24]!, city: lines[25]!, country: lines[26]! },
      amount: lines[18],
      currency: lines[19] as 'CHF',
      reference: lines[28],
      message: lines[29],
      billInformation: lines[31],
    };
    expect(validateQrBill(data)).toEqual({});
    expect(lines[27]).toBe(invoice.paymentReference.startsWith('RF') ? 'SCOR' : 'QRR');
  };

  it('renders an A4 invoice whose QR code carries exactly the invoice data (QR-IBAN, QR reference)', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    for (const lang of ['en', 'de', 'fr', 'it']) {
      const file = await pdf({ lang, uuid: created.uuid });
      expect(file.status).toBe(200);
      expect(file.type).toBe('application/pdf');
      expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfPages(file.bytes)).toBe(1);
      const payload = decodeQrFromPdf(file.bytes);
      expect(payload, lang).not.toBeNull();
      expectPayload(payload!, created, QR_IBAN);
    }
  });

  it('renders the payment part alone with onlyReceipt, and an RF reference with an IBAN; the VAT number goes into Swico /30/', async () => {
    const w = await invoicingWorkplace(server);
    expect((await w.api.post('/api/instance/update', { data: { vatNumber: 'CHE-116.281.710 MWST' } })).status).toBe(200);
    const created = (await w.api.post('/api/invoice/insert', { data: invoiceData(w, w.ibanProfile) })).body;
    const file = await pdf({ lang: 'de', uuid: created.uuid, onlyReceipt: true }, w.token);
    expect(file.status).toBe(200);
    const payload = decodeQrFromPdf(file.bytes);
    expectPayload(payload!, created, 'CH9300762011623852957', 'CHE-116.281.710');
  });

  it('writes each VAT rate with its net amount in Swico /32/ for a mixed invoice, and shortens the message, not the billing information', async () => {
    const items = [
      { name: 'Consulting', amount: '2', price: '150' },
      { name: 'Books', amount: '3', price: '19.90', vat: '0.026' },
    ];
    const created = (await post('/invoice/insert', { data: { ...invoiceData(wp), items, description: 'x'.repeat(200) } })).body;
    const lines = decodeQrFromPdf((await pdf({ lang: 'en', uuid: created.uuid })).bytes)!.split(/\r?\n/);
    const s1 = parseSwicoS1(lines[31]!)!;
    expect(s1.vat).toEqual([
      { rate: '8.1', net: '300' },
      { rate: '2.6', net: '59.7' },
    ]);
    // 24.30 + 1.55, the invoice's VAT.
    expect(swicoVatAmount(s1, lines[18])).toBe(created.totals.vat);
    expect(lines[29]!.length + lines[31]!.length).toBe(140);
    expect(lines[29]).toMatch(new RegExp(`^${created.refNumber} x+$`));
  });

  it('puts the QR-bill on its own page for a long invoice', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ name: `Line ${i + 1}`, amount: '1', price: '10' }));
    const created = (await post('/invoice/insert', { data: { ...invoiceData(wp), items } })).body;
    const file = await pdf({ lang: 'en', uuid: created.uuid });
    expect(pdfPages(file.bytes)).toBeGreaterThan(1);
    expect(decodeQrFromPdf(file.bytes)).toContain('\n432.40\nCHF\n');
  });

  it('400 for bad input, 401, 404 across instances; a viewer may download', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    expect((await pdf({ lang: 'xx', uuid: created.uuid })).status).toBe(400);
    expect((await pdf({ lang: 'en', uuid: created.uuid }, other.token)).status).toBe(404);
    expect((await pdf({ lang: 'en', uuid: created.uuid }, '')).status).toBe(401);
    const viewerPdf = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${viewer.token}` },
      body: JSON.stringify({ lang: 'en', uuid: created.uuid }),
    });
    expect(viewerPdf.status).toBe(200);
  });
});

describe('form options, entry link and QR-bill validation', () => {
  it('offers own profiles and VAT rates, no customers; 401 without a token', async () => {
    const response = await wp.api.get('/api/invoice/form-options');
    expect(response.status).toBe(200);
    // No customers: the form searches company/list, and asks address/list for the chosen one's addresses.
    expect(response.body).not.toHaveProperty('companies');
    const customers = await wp.api.post('/api/company/list', { filters: { text: 'muster' }, pageSize: 20 });
    expect(customers.body.data.map((c: { name: string }) => c.name)).toEqual(['Simon Muster AG']);
    const addresses = await wp.api.post('/api/address/list', { filters: { company: { uuid: customers.body.data[0].uuid } } });
    expect(addresses.body.data.map((a: { id: number }) => a.id)).toEqual([wp.address]);
    expect(response.body.paymentProfiles.map((p: { iban: string; qrIban: boolean }) => [p.iban, p.qrIban])).toEqual([
      ['CH9300762011623852957', false],
      [QR_IBAN, true],
    ]);
    expect(response.body.vatRate).toBe('0.081');
    expect(response.body.vatRates).toEqual(['0.081', '0.026', '0.038', '0']);
    expect((await new Client(server.baseUrl).get('/api/invoice/form-options')).status).toBe(401);
  });

  it('finds the invoice of a posted entry, 404 for other entries and instances', async () => {
    const created = (await post('/invoice/insert', { data: invoiceData(wp) })).body;
    const sent = (await post('/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-02' })).body;
    const entryId = sent.entries[0].id;
    expect((await post('/invoice/by-entry', { id: entryId })).body).toEqual({ uuid: created.uuid, refNumber: created.refNumber });
    const notOurs = await post('/invoice/by-entry', { id: entryId }, other.api);
    expect([notOurs.status, notOurs.body.code]).toEqual([404, 'entry_not_of_invoice']);
    expect((await post('/invoice/by-entry', { id: 0 })).status).toBe(400);
  });

  it('refuses a PDF whose QR-bill data breaks the SPS 2025 character set (400 naming the field)', async () => {
    const [address] = await server.db.withInstance(wp.instanceId, async (tx) => {
      const [company] = await tx.query<{ uuid: string }>("INSERT INTO company (instance_id, name) VALUES ($1, 'Ωmega Systems') RETURNING uuid", [wp.instanceId]);
      return tx.query<{ id: number; company_uuid: string }>(
        `INSERT INTO address (instance_id, id, company_uuid, street, zip, city, country_id)
         VALUES ($1, next_ids($1, 'address'), $2, 'Rue du Lac', '2501', 'Biel', 1) RETURNING id, company_uuid`,
        [wp.instanceId, company!.uuid],
      );
    });
    const created = (await post('/invoice/insert', { data: { ...invoiceData(wp), company: { uuid: address!.company_uuid }, address: { id: address!.id } } })).body;
    const file = await pdf({ lang: 'en', uuid: created.uuid });
    expect(file.status).toBe(400);
    expect(JSON.parse(file.bytes.toString()).fields).toEqual({ 'qrBill.debtor.name': 'contains a character the QR-bill does not allow' });
    expect(JSON.parse(file.bytes.toString()).code).toBe('qr_bill_invalid');
  });
});
