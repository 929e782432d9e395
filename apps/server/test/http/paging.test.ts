/**
 * Lists paged in SQL (issue 18 §2, db/paging.ts): a walk by `nextCursor` gives every row once in
 * the list's order, the same rows as the page numbers; an account's running balance does not depend
 * on where a page starts; counts stop at COUNT_CAP; a foreign or broken cursor is a 400 on `cursor`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP, countedPage, countUpTo, decodeCursor, encodeCursor } from '../../src/db/paging.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { follow, walk } from './paging-support.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from '../accounting/ledger.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { payablesWorkplace, type PayablesWorkplace } from '../payables/setup.js';

let server: TestServer;
let wp: LedgerWorkplace;
let bank: number;
let revenue: number;
let expense: number;

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
  [bank, revenue, expense] = await Promise.all([wp.account('1020'), wp.account('3200'), wp.account('4000')]);
  // 13 entries over three months, several on one day, in and out of the bank account.
  const days = ['2024-01-05', '2024-01-05', '2024-01-05', '2024-01-20', '2024-02-01', '2024-02-01', '2024-02-14', '2024-02-29', '2024-03-01', '2024-03-01', '2024-03-01', '2024-03-02', '2024-03-31'];
  for (const [i, day] of days.entries()) {
    const body = i % 3 === 2 ? simpleEntry(day, expense, bank, `${i + 1}.25`, `Purchase ${i}`) : simpleEntry(day, bank, revenue, `${(i + 1) * 10}.10`, `Sale ${i}`);
    const posted = await wp.api.post('/api/accounting/entry/insert', body);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
  }
});
afterAll(async () => server?.close());

describe('journal entry list', () => {
  it.each(['asc', 'desc'] as const)('walks by cursor through every entry once, in %s order, as the page numbers do', async (order) => {
    const all = await wp.api.post('/api/accounting/entry/list', { order, pageSize: 500 });
    expect(all.body).toMatchObject({ total: 13, totalCapped: false, nextCursor: null });
    const { rows, pages } = await walk(wp.api, '/api/accounting/entry/list', { order }, 4);
    expect(pages).toBe(4);
    expect(rows.map((e) => e.id)).toEqual(all.body.data.map((e: { id: number }) => e.id));
    const third = await wp.api.post('/api/accounting/entry/list', { order, page: 3, pageSize: 4 });
    expect(third.body.data.map((e: { id: number }) => e.id)).toEqual(rows.slice(8, 12).map((e) => e.id));
    const dates = rows.map((e) => e.dateLedger);
    expect(dates).toEqual([...dates].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
  });

  it('keeps filters along the cursor', async () => {
    const { rows } = await walk(wp.api, '/api/accounting/entry/list', { filters: { dateFrom: '2024-02-01', dateTo: '2024-02-29' } }, 2);
    expect(rows.map((e) => e.dateLedger)).toEqual(['2024-02-01', '2024-02-01', '2024-02-14', '2024-02-29']);
  });

  it.each([['garbage'], [encodeCursor(['2024-01-01'])], [encodeCursor(['2024-01-01', 'x'])], [encodeCursor(['01.01.2024', 1])], ['x'.repeat(2001)]])(
    'refuses a cursor that is not one of its own: 400 on cursor (%#)',
    async (cursor) => {
      const answer = await wp.api.post('/api/accounting/entry/list', { cursor });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
    },
  );
});

describe("an account's ledger", () => {
  it('gives each posting the same balance whatever page it is read on', async () => {
    const whole = await wp.api.post('/api/accounting/entry/account/list', { filters: { accountId: bank }, pageSize: 500 });
    expect(whole.body.total).toBe(13);
    expect(whole.body.data.at(-1).balance).toBe(whole.body.closingBalance);
    for (const pageSize of [1, 2, 5]) {
      const { rows } = await walk(wp.api, '/api/accounting/entry/account/list', { filters: { accountId: bank } }, pageSize);
      expect(rows).toEqual(whole.body.data);
    }
    const page = await wp.api.post('/api/accounting/entry/account/list', { filters: { accountId: bank }, page: 3, pageSize: 4 });
    expect(page.body.data).toEqual(whole.body.data.slice(8, 12));
  });

  it('keeps the running balance of every posting when a date range or a text hides some', async () => {
    const whole = (await wp.api.post('/api/accounting/entry/account/list', { filters: { accountId: bank }, pageSize: 500 })).body.data;
    const balanceOf = new Map(whole.map((p: { id: number; balance: string }) => [p.id, p.balance]));
    const march = await walk(wp.api, '/api/accounting/entry/account/list', { filters: { accountId: bank, dateFrom: '2024-03-01' } }, 2);
    expect(march.rows.map((p) => p.entry.dateLedger)).toEqual(['2024-03-01', '2024-03-01', '2024-03-01', '2024-03-02', '2024-03-31']);
    const purchases = await walk(wp.api, '/api/accounting/entry/account/list', { filters: { accountId: bank, text: 'purchase' } }, 1);
    expect(purchases.rows).toHaveLength(4);
    for (const posting of [...march.rows, ...purchases.rows]) expect(posting.balance).toBe(balanceOf.get(posting.id));
  });
});

describe('GET lists of the spec', () => {
  let invoicing: InvoicingWorkplace;
  let payables: PayablesWorkplace;
  beforeAll(async () => {
    [invoicing, payables] = await Promise.all([invoicingWorkplace(server), payablesWorkplace(server)]);
    for (let i = 1; i <= 5; i++) {
      const inserted = await invoicing.api.post('/api/invoice/insert', { data: { ...invoiceData(invoicing), dateInvoice: `2025-0${i}-10`, dateDue: `2025-0${i}-28`, description: `Invoice ${i}` } });
      expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
      const bill = await payables.api.post('/api/payable/insert', { data: { isExpense: true, date: `2025-0${i}-02`, amount: `${i}0.50`, description: `Taxi ${i}` } });
      expect(bill.status, JSON.stringify(bill.body)).toBe(200);
    }
  });

  it('GET /api/invoice/list answers a page and links the next', async () => {
    const first = await invoicing.api.get('/api/invoice/list?pageSize=2');
    expect(first.body).toMatchObject({ total: 5, totalCapped: false });
    expect(first.body.data.map((i: { description: string }) => i.description)).toEqual(['Invoice 5', 'Invoice 4']);
    expect(first.headers.get('link')).toMatch(/^<\/api\/invoice\/list\?pageSize=2&cursor=[\w-]+>; rel="next"$/);
    const rows = await follow(invoicing.api, '/api/invoice/list?pageSize=2');
    expect(rows.map((i) => i.description)).toEqual(['Invoice 5', 'Invoice 4', 'Invoice 3', 'Invoice 2', 'Invoice 1']);
    expect((await invoicing.api.get('/api/invoice/list')).headers.get('link')).toBeNull();
    expect((await invoicing.api.get('/api/invoice/list?pageSize=501')).status).toBe(400);
    const foreign = await invoicing.api.get(`/api/invoice/list?cursor=${encodeCursor([1, '2025-01-01'])}`);
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.fields)).toEqual(['cursor']);
  });

  it('POST /api/address/list pages every address of the workplace by company and id', async () => {
    for (const name of ['Alpha AG', 'Beta AG', 'Gamma AG']) {
      const company = await invoicing.api.post('/api/company/insert', { data: { name, address: { street: 'Weg', houseNumber: '1', zip: '8000', city: 'Zürich', country: { id: 1 } } } });
      expect(company.status, JSON.stringify(company.body)).toBe(200);
    }
    const all = await invoicing.api.post('/api/address/list', { pageSize: 500 });
    expect(all.body.total).toBeGreaterThanOrEqual(5);
    const { rows } = await walk(invoicing.api, '/api/address/list', {}, 2);
    expect(rows.map((a) => a.id)).toEqual(all.body.data.map((a: { id: number }) => a.id));
  });

  it('GET /api/payable/list answers a page and links the next; the CSV keeps every bill', async () => {
    const rows = await follow(payables.api, '/api/payable/list?pageSize=2');
    expect(rows.map((p) => p.date)).toEqual(['2025-05-02', '2025-04-02', '2025-03-02', '2025-02-02', '2025-01-02']);
    const csv = await payables.api.get('/api/payable/list?format=csv');
    expect(csv.body.trim().split('\n')).toHaveLength(6);
  });
});

describe('countUpTo', () => {
  it.each([
    [0, { total: 0, totalCapped: false }],
    [COUNT_CAP, { total: COUNT_CAP, totalCapped: false }],
    [COUNT_CAP + 1, { total: COUNT_CAP, totalCapped: true }],
    [COUNT_CAP * 5, { total: COUNT_CAP, totalCapped: true }],
  ])('counts %i rows as %o', async (rows, expected) => {
    const counted = await server.db.withInstance(wp.instanceId, (tx) => countUpTo(tx, 'SELECT 1 FROM generate_series(1, $1::int)', [rows]));
    expect(counted).toEqual(expected);
  });

  it.each([
    [0, 1, { total: 0, totalCapped: false }],
    [7, 1, { total: 7, totalCapped: false }],
    [COUNT_CAP + 1, 1, { total: COUNT_CAP, totalCapped: true }],
    // Past the last page no row carries the count: it is asked apart.
    [7, 3, { total: 7, totalCapped: false }],
  ])('counts %i rows in the statement of page %i as %o (countedPage)', async (rows, pageNumber, expected) => {
    const { counted } = await server.db.withInstance(wp.instanceId, (tx) =>
      countedPage(tx, 'SELECT 1 FROM generate_series(1, $1::int)', [rows], { pageSize: 5, page: pageNumber }, (column) => {
        expect(column).not.toBeNull();
        return tx.query<{ g: number; counted_up_to?: number }>(`SELECT g, ${column} FROM generate_series(1, $1::int) g ORDER BY g LIMIT 6 OFFSET ${(pageNumber - 1) * 5}`, [rows]);
      }),
    );
    expect(counted).toEqual(expected);
  });

  it("leaves a cursor's carried count to the cursor: no column, no query", async () => {
    const cursor = encodeCursor(['2024-02-29', 7], { total: 40, totalCapped: false });
    const { counted } = await server.db.withInstance(wp.instanceId, (tx) =>
      countedPage(tx, 'SELECT 1 FROM no_such_table', [], { pageSize: 5, cursor }, async (column) => {
        expect(column).toBeNull();
        return [];
      }),
    );
    expect(counted).toEqual({ total: 40, totalCapped: false });
  });

  it('counts the first page of each list in its own statement, also past the last page and with a text', async () => {
    const invoicing = await invoicingWorkplace(server);
    for (const [i, description] of ['Beratung', 'Schulung', 'Wartung'].entries()) {
      const inserted = await invoicing.api.post('/api/invoice/insert', { data: { ...invoiceData(invoicing), dateInvoice: `2025-0${i + 1}-10`, description } });
      expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    }
    const invoices = async (body: object) => (await invoicing.api.post('/api/invoice/list-w-amounts', body)).body;
    expect(await invoices({ pageSize: 2 })).toMatchObject({ total: 3, totalCapped: false, nextCursor: expect.any(String) });
    expect(await invoices({ pageSize: 2, page: 5 })).toMatchObject({ data: [], total: 3, nextCursor: null });
    expect(await invoices({ filters: { text: 'schulung' }, pageSize: 2 })).toMatchObject({ total: 1, nextCursor: null });
    const payables = await payablesWorkplace(server);
    for (let i = 1; i <= 3; i++) expect((await payables.api.post('/api/payable/insert', { data: { isExpense: true, date: `2025-0${i}-02`, amount: '10.00', description: `Taxi ${i}` } })).status).toBe(200);
    expect((await payables.api.post('/api/payable/list', { pageSize: 2 })).body).toMatchObject({ total: 3, nextCursor: expect.any(String) });
    expect((await payables.api.post('/api/payable/list', { pageSize: 2, page: 3 })).body).toMatchObject({ data: [], total: 3 });
    expect((await wp.api.post('/api/accounting/entry/list', { pageSize: 4, page: 9 })).body).toMatchObject({ data: [], total: 13, nextCursor: null });
    expect((await wp.api.post('/api/accounting/entry/list', { filters: { text: 'purchase' }, pageSize: 2 })).body).toMatchObject({ total: 4 });
    const ledger = (body: object) => wp.api.post('/api/accounting/entry/account/list', { filters: { accountId: bank }, ...body });
    expect((await ledger({ pageSize: 4, page: 9 })).body).toMatchObject({ data: [], total: 13 });
    expect((await ledger({ filters: { accountId: bank, text: 'purchase' }, pageSize: 2 })).body).toMatchObject({ total: 4 });
  });

  it('decodes its own cursors and refuses other shapes', () => {
    expect(decodeCursor(encodeCursor(['2024-02-29', 7, 12]), ['date', 'int', 'int'])).toEqual(['2024-02-29', 7, 12]);
    expect(decodeCursor(encodeCursor(['2024-02-29', 7], { total: 40, totalCapped: false }), ['date', 'int'])).toEqual(['2024-02-29', 7]);
    expect(() => decodeCursor(encodeCursor(['2024-02-29', 7.5]), ['date', 'int'])).toThrow("cursor is not one of this list's cursors");
    const uuid = '0b9e4c1a-5d2f-4c8e-9a7b-3f6d2e1c0a9b';
    expect(decodeCursor(encodeCursor([uuid, 3]), ['uuid', 'int'])).toEqual([uuid, 3]);
    expect(() => decodeCursor(encodeCursor(['not-a-uuid', 3]), ['uuid', 'int'])).toThrow("cursor is not one of this list's cursors");
    expect(() => decodeCursor(encodeCursor(['2024-13-45T99:99:99Z', uuid]), ['timestamp', 'uuid'])).toThrow("cursor is not one of this list's cursors");
  });

  it("answers a cursor's carried count without counting, and refuses a carried count that is not one", async () => {
    const count = (cursor: string) =>
      server.db.withInstance(wp.instanceId, (tx) =>
        countUpTo(tx, 'SELECT 1 FROM generate_series(1, $1::int)', [3], { pageSize: 50, cursor }),
      );
    expect(await count(encodeCursor(['2024-02-29', 7]))).toEqual({ total: 3, totalCapped: false });
    expect(await count(encodeCursor(['2024-02-29', 7], { total: COUNT_CAP, totalCapped: true }))).toEqual({ total: COUNT_CAP, totalCapped: true });
    for (const carried of [{ n: -1, c: false }, { n: COUNT_CAP + 1, c: true }, { n: 2, c: 'no' }, { n: 1.5, c: false }]) {
      const cursor = Buffer.from(JSON.stringify(['2024-02-29', 7, carried])).toString('base64url');
      await expect(count(cursor)).rejects.toThrow("cursor is not one of this list's cursors");
    }
  });

  it('keeps the first page\'s total along a walk, though an entry is added meanwhile', async () => {
    const first = await wp.api.post('/api/accounting/entry/list', { pageSize: 5 });
    expect(first.body.total).toBe(13);
    const added = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2024-04-02', bank, revenue, '1.00', 'Added during a walk'));
    expect(added.status).toBe(200);
    const second = await wp.api.post('/api/accounting/entry/list', { pageSize: 5, cursor: first.body.nextCursor });
    expect(second.body.total).toBe(13);
    expect((await wp.api.post('/api/accounting/entry/list', { pageSize: 5 })).body.total).toBe(14);
    expect((await wp.api.post('/api/accounting/entry/delete', { id: added.body.id })).status).toBe(200);
  });
});
