/** /api/payable/*: bills and expenses, their lifecycle and bookings, creditors, the outflows CSV. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { payableCounts, payablesWorkplace, QR_REF, type PayablesWorkplace } from './setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
let other: PayablesWorkplace;
let viewer: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
  other = await payablesWorkplace(server);
  viewer = await payablesWorkplace(server, { role: 'viewer' });
});
afterAll(async () => server?.close());

const bill = (over: Record<string, unknown> = {}) => ({
  data: {
    company: { uuid: wp.supplier.uuid },
    companyFinance: { id: wp.supplier.qrProfile },
    date: '2025-03-10',
    dueDate: '2025-04-09',
    amount: '1081.00',
    vatAmount: '81.00',
    referenceNumber: QR_REF,
    description: 'Büromaterial März',
    ...over,
  },
});

describe('payable insert, detail, list, update, approve, cancel, delete', () => {
  it('runs a bill through its lifecycle with bookings', async () => {
    const office = await wp.account('6500');
    const created = await wp.api.post('/api/payable/insert', bill({ expenseAccount: { id: office } }));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      isExpense: false,
      status: 1,
      statusName: 'pending',
      amount: '1081.00',
      vatAmount: '81.00',
      currency: 'CHF',
      company: { uuid: wp.supplier.uuid, name: 'Muster Lieferant AG' },
      companyFinance: { id: wp.supplier.qrProfile, iban: 'CH4431999123000889012' },
      referenceNumber: QR_REF,
      transactionGroup: null,
      bookingEntry: null,
    });
    const { uuid, id } = created.body;
    // The detail adds the payments and the next payment's one-time token (issue 14 §3).
    expect((await wp.api.post('/api/payable/detail', { id })).body).toEqual({ ...created.body, payments: [], payToken: 'pay-1' });
    expect((await wp.api.post('/api/payable/detail', { uuid })).body).toEqual({ ...created.body, payments: [], payToken: 'pay-1' });

    const updated = await wp.api.post('/api/payable/update', { uuid, data: { amount: '1621.50', vatAmount: '121.50' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ amount: '1621.50', vatAmount: '121.50', description: 'Büromaterial März' });

    const approved = await wp.api.post('/api/payable/update', { uuid, data: { status: 2 } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 2, statusName: 'approved', bookingEntry: { id: expect.any(Number) } });
    const entry = await wp.api.post('/api/accounting/entry/detail', { id: approved.body.bookingEntry.id });
    expect(entry.body.dateLedger).toBe('2025-03-10');
    expect(entry.body.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction])).toEqual([
      ['6500', '1500.00', 1],
      // 6500 is an operating expense (class 6): input VAT on 1171, not on 1170 (material, class 4).
      ['1171', '121.50', 1],
      ['2000', '1621.50', -1],
    ]);

    const changed = await wp.api.post('/api/payable/update', { uuid, data: { amount: '1.00' } });
    expect([changed.status, changed.body.code]).toEqual([409, 'payable_not_pending']);
    const deleted = await wp.api.post('/api/payable/delete', { uuid });
    expect([deleted.status, deleted.body.code]).toEqual([409, 'payable_not_pending']);

    const cancelled = await wp.api.post('/api/payable/update', { uuid, data: { status: 5, statusDate: '2025-03-31' } });
    expect(cancelled.body).toMatchObject({ status: 5, bookingEntry: null });
    const balance = await wp.api.post('/api/accounting/balance/get', { date: '2025-12-31' });
    expect(balance.body.accounts.find((a: any) => a.number === '2000').balance).toBe('0.00');
    const reapproved = await wp.api.post('/api/payable/update', { uuid, data: { status: 2 } });
    expect([reapproved.status, reapproved.body.code]).toEqual([409, 'status_transition']);

    const draft = await wp.api.post('/api/payable/insert', bill());
    expect((await wp.api.post('/api/payable/delete', { uuid: draft.body.uuid })).body).toEqual({ ok: true });
    const gone = await wp.api.post('/api/payable/detail', { uuid: draft.body.uuid });
    expect([gone.status, gone.body.code]).toEqual([404, 'payable_not_found']);
  });

  it('creates an expense without supplier, and defaults the expense account', async () => {
    const expense = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '45.90', description: 'Taxi' } });
    expect(expense.status).toBe(200);
    expect(expense.body).toMatchObject({ isExpense: true, type: 1, company: null, vatAmount: '0.00' });
    const approved = await wp.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } });
    const entry = await wp.api.post('/api/accounting/entry/detail', { id: approved.body.bookingEntry.id });
    expect(entry.body.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction])).toEqual([
      ['6500', '45.90', 1],
      // A staff expense is owed to staff (2250), not a trade payable (2000).
      ['2250', '45.90', -1],
    ]);
  });

  it('lists with filters', async () => {
    const may1 = await wp.api.post('/api/payable/insert', bill({ date: '2025-05-01', dueDate: null, companyFinance: { id: wp.supplier.ibanProfile }, referenceNumber: null }));
    expect(may1.status, JSON.stringify(may1.body)).toBe(200);
    const all = await wp.api.post('/api/payable/list', {});
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    const open = await wp.api.post('/api/payable/list', { filters: { filterStatus: true } });
    expect(open.body.data.every((p: any) => [1, 2, 3].includes(p.status))).toBe(true);
    expect(open.body.total).toBeLessThan(all.body.total);
    const may = await wp.api.post('/api/payable/list', { filters: { dateFrom: '2025-05-01', dateTo: '2025-05-31', company: { uuid: wp.supplier.uuid } } });
    expect(may.body.data.map((p: any) => p.date)).toEqual(['2025-05-01']);
    expect((await wp.api.post('/api/payable/list', { filters: { status: 5 } })).body.data.every((p: any) => p.status === 5)).toBe(true);
    expect((await wp.api.post('/api/payable/list', { filters: { isExpense: true } })).body.total).toBe(1);
    expect((await wp.api.get('/api/payable/list')).body.total).toBe(all.body.total);
  });

  it.each([
    [{ amount: '0' }, 'data.amount'],
    [{ amount: '1.234' }, 'data.amount'],
    [{ date: '2025-02-30' }, 'data.date'],
    [{ referenceNumber: null }, 'data.referenceNumber'],
    [{ companyFinance: { id: 1 }, referenceNumber: 'RF18539007547034' }, 'data.companyFinance.id'],
    [{ company: null }, 'data.company.uuid'],
    [{ company: { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d' } }, 'data.company.uuid'],
    [{ vatAmount: '2000.00' }, 'data.vatAmount'],
    [{ currency: 'EUR' }, 'data.exchangeRate'],
    [{ dueDate: '2025-01-01' }, 'data.dueDate'],
    [{ colour: 'red' }, 'data.colour'],
  ])('insert answers 400 naming the field (%#) and writes nothing', async (over, field) => {
    const body = bill(over);
    const before = await payableCounts(server, wp.instanceId);
    const response = await wp.api.post('/api/payable/insert', body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toContain(field);
    expect(await payableCounts(server, wp.instanceId)).toEqual(before);
  });

  it('insert-multiple is all or nothing', async () => {
    const before = await payableCounts(server, wp.instanceId);
    const bad = await wp.api.post('/api/payable/insert-multiple', { data: [bill().data, bill({ referenceNumber: '123' }).data] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['data.1.referenceNumber']);
    expect(await payableCounts(server, wp.instanceId)).toEqual(before);
    const good = await wp.api.post('/api/payable/insert-multiple', { data: [bill().data, bill({ companyFinance: { id: wp.supplier.ibanProfile }, referenceNumber: 'RF18539007547034' }).data] });
    expect(good.status).toBe(200);
    expect(good.body.data).toHaveLength(2);
  });

  it('answers 401, 403 for a viewer and 404 across instances', async () => {
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.post('/api/payable/list', {})).status).toBe(401);
    expect((await anonymous.post('/api/payable/insert', bill())).status).toBe(401);
    expect((await viewer.api.post('/api/payable/list', {})).status).toBe(200);
    expect((await viewer.api.post('/api/payable/insert', bill())).status).toBe(403);
    const mine = await wp.api.post('/api/payable/insert', bill());
    expect((await other.api.post('/api/payable/detail', { id: mine.body.id + 1000 })).status).toBe(404);
    expect((await other.api.post('/api/payable/detail', { uuid: mine.body.uuid })).status).toBe(404);
    expect((await other.api.post('/api/payable/delete', { uuid: mine.body.uuid })).status).toBe(404);
    expect((await other.api.post('/api/payable/update', { uuid: mine.body.uuid, data: { status: 2 } })).status).toBe(404);
    // A bill of this instance cannot point at another instance's supplier.
    expect((await other.api.post('/api/payable/insert', bill())).status).toBe(400);
  });

  it('lists creditors with open amounts and streams the outflows CSV', async () => {
    // Only booked bills count (pending drafts of this supplier do not): one approved bill.
    const booked = await wp.api.post('/api/payable/insert', bill({ date: '2025-06-01', dueDate: null }));
    await wp.api.post('/api/payable/update', { uuid: booked.body.uuid, data: { status: 2 } });
    const creditors = await wp.api.get('/api/payable/creditors');
    expect(creditors.status).toBe(200);
    expect(creditors.body.data.find((c: any) => c.company?.uuid === wp.supplier.uuid)).toMatchObject({ currency: 'CHF', bills: 1, openAmount: '1081.00' });

    const csv = await wp.api.request('GET', '/api/payable/list', undefined, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="ExportOutflows.csv"');
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('id,date,amount,company,isExpense,status,transactionGroupStatus');
    expect(lines).toContain(`1,2025-03-10,1621.50,Muster Lieferant AG,false,cancelled,-`);
    expect(lines.some((line) => /^\d+,2025-03-12,45.90,-,true,approved,-$/.test(line))).toBe(true);
    const list = await wp.api.get('/api/payable/list');
    expect(lines).toHaveLength(list.body.total + 1);
    expect((await wp.api.get('/api/payable/list?format=csv')).body).toBe(csv.body);
  });
});

