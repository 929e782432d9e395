/**
 * What a Swiss bookkeeper expects of bills (issue #5 audit): input VAT on 1170 or 1171 by what was
 * bought, a VAT rate per bill, staff expenses on their own liability, the supplier's expense account
 * learned from its last approved bill, creditors that agree with 2000, `/payable/pay` outside a
 * payment batch, and the lock date refusing every bill posting (409 naming the date, nothing changed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { memberClient } from '../invoicing/support.js';
import { payablesWorkplace, QR_REF, type PayablesWorkplace } from './setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const newBill = (w: PayablesWorkplace, over: Record<string, unknown> = {}) =>
  w.api.post('/api/payable/insert', {
    data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, referenceNumber: QR_REF, date: '2025-03-10', amount: '1081.00', ...over },
  });

async function approved(w: PayablesWorkplace, over: Record<string, unknown> = {}) {
  const created = await newBill(w, over);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const answer = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function lines(w: PayablesWorkplace, entryId: number) {
  const entry = await w.api.post('/api/accounting/entry/detail', { id: entryId });
  return entry.body.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction]);
}

async function balance(w: PayablesWorkplace, number: string, date = '2099-12-31') {
  const response = await w.api.post('/api/accounting/balance/get', { date });
  return (response.body.accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;
}

async function state(w: PayablesWorkplace) {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ entries: number; lines: number; bills: string }>(
      `SELECT (SELECT count(*)::int FROM journal_entry) AS entries, (SELECT count(*)::int FROM journal_line) AS lines,
              (SELECT string_agg(id || ':' || status || ':' || coalesce(transaction_group_id::text, '-') || ':' || coalesce(payment_entry_id::text, '-'), ',' ORDER BY id) FROM payable) AS bills`,
    ),
  );
  return row!;
}

describe('input VAT, VAT rate, staff expenses, learned expense account', () => {
  it('books input VAT on 1170 for material and services (class 4), on 1171 for investments (class 1) and other operating expenses (5–8)', async () => {
    const w = await payablesWorkplace(server);
    const cases: [string, string][] = [
      ['4000', '1170'],
      ['4400', '1170'],
      ['1520', '1171'],
      ['6500', '1171'],
      ['5800', '1171'],
    ];
    for (const [expense, vat] of cases) {
      const bill = await approved(w, { expenseAccount: { id: await w.account(expense) }, vatAmount: '81.00' });
      expect(await lines(w, bill.bookingEntry.id), expense).toEqual([
        [expense, '1000.00', 1],
        [vat, '81.00', 1],
        ['2000', '1081.00', -1],
      ]);
    }
  });

  it('derives the VAT from a VAT rate (8.1, 2.6, 3.8, 0 %) or keeps the entered amount, and refuses other rates', async () => {
    const w = await payablesWorkplace(server);
    const derived = await newBill(w, { vatRate: '0.081' });
    expect(derived.body).toMatchObject({ amount: '1081.00', vatRate: '0.081', vatAmount: '81.00' });
    expect((await newBill(w, { vatRate: '0.026', amount: '102.60' })).body).toMatchObject({ vatRate: '0.026', vatAmount: '2.60' });
    expect((await newBill(w, { vatRate: '0.038', amount: '103.80' })).body).toMatchObject({ vatRate: '0.038', vatAmount: '3.80' });
    expect((await newBill(w, { vatRate: '0', amount: '50.00' })).body).toMatchObject({ vatRate: '0', vatAmount: '0.00' });
    // Entered VAT (e.g. as printed on the bill) wins over the derived one.
    expect((await newBill(w, { vatRate: '0.081', vatAmount: '80.95' })).body).toMatchObject({ vatRate: '0.081', vatAmount: '80.95' });
    // Without a rate: the entered amount, or none.
    expect((await newBill(w, {})).body).toMatchObject({ vatRate: null, vatAmount: '0.00' });

    // Changing the amount derives the VAT again.
    const updated = await w.api.post('/api/payable/update', { uuid: derived.body.uuid, data: { amount: '2162.00' } });
    expect(updated.body).toMatchObject({ amount: '2162.00', vatRate: '0.081', vatAmount: '162.00' });
    const booked = await w.api.post('/api/payable/update', { uuid: derived.body.uuid, data: { status: 2 } });
    expect(await lines(w, booked.body.bookingEntry.id)).toEqual([
      ['4000', '2000.00', 1],
      ['1170', '162.00', 1],
      ['2000', '2162.00', -1],
    ]);

    for (const [over, field] of [
      [{ vatRate: '0.05' }, 'data.vatRate'],
      [{ vatRate: '8.1' }, 'data.vatRate'],
      [{ vatRate: '0', vatAmount: '1.00' }, 'data.vatAmount'],
    ] as const) {
      const response = await newBill(w, over);
      expect(response.status, JSON.stringify(over)).toBe(400);
      expect(Object.keys(response.body.fields)).toContain(field);
    }
  });

  it('credits a staff expense to 2250 (owed to staff), not to trade payables 2000', async () => {
    const w = await payablesWorkplace(server);
    const expense = await w.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '64.80', vatRate: '0.081', description: 'Zugbillett' } });
    const answer = await w.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } });
    expect(answer.body).toMatchObject({ liabilityAccount: { number: '2250' } });
    expect(await lines(w, answer.body.bookingEntry.id)).toEqual([
      ['6500', '59.94', 1],
      ['1171', '4.86', 1],
      ['2250', '64.80', -1],
    ]);
    expect(await balance(w, '2000')).toBe('0.00');
    expect(await balance(w, '2250')).toBe('-64.80');
  });

  it("learns the supplier's expense account from its last approved bill, not from drafts or cancelled bills", async () => {
    const w = await payablesWorkplace(server);
    const office = await w.account('6500');
    await approved(w, { expenseAccount: { id: office }, date: '2025-03-01' });
    // A later draft and a later cancelled bill with other accounts teach nothing.
    await newBill(w, { expenseAccount: { id: await w.account('6000') }, date: '2025-03-20' });
    const cancelled = await approved(w, { expenseAccount: { id: await w.account('6200') }, date: '2025-03-21' });
    await w.api.post('/api/payable/update', { uuid: cancelled.uuid, data: { status: 5, statusDate: '2025-03-22' } });

    const next = await approved(w, { date: '2025-04-01' });
    expect(next.expenseAccount).toMatchObject({ number: '6500' });
    expect((await lines(w, next.bookingEntry.id))[0]).toEqual(['6500', '1081.00', 1]);

    // The account actually booked is kept on the bill, so the next one learns from it in turn.
    const following = await approved(w, { date: '2025-05-01' });
    expect(following.expenseAccount).toMatchObject({ number: '6500' });
  });
});

describe('GET /api/payable/creditors', () => {
  it('counts only booked open supplier bills, so the total equals the balance of 2000', async () => {
    const w = await payablesWorkplace(server);
    const open = await approved(w, { amount: '500.00', dueDate: '2025-04-09' });
    const grouped = await approved(w, { amount: '300.00' });
    await w.api.post('/api/transaction-group/insert', { payable: { uuids: [grouped.uuid] } });
    const paid = await approved(w, { amount: '70.00' });
    await w.api.post('/api/payable/pay', { uuid: paid.uuid, account: { id: await w.account('1020') }, date: '2025-03-15' });
    await newBill(w, { amount: '999.00' }); // pending draft: not booked
    const expense = await w.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '45.00', description: 'Taxi' } });
    await w.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } }); // on 2250
    const eur = await approved(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });

    const creditors = await w.api.get('/api/payable/creditors');
    expect(creditors.status).toBe(200);
    expect(creditors.body.data).toEqual([
      { company: { uuid: w.supplier.uuid, name: 'Muster Lieferant AG' }, currency: 'CHF', openAmount: '800.00', openAmountBase: '800.00', bills: 2, overdue: 2, nextDueDate: '2025-03-10' },
      { company: { uuid: w.supplier.uuid, name: 'Muster Lieferant AG' }, currency: 'EUR', openAmount: '100.00', openAmountBase: '95.00', bills: 1, overdue: 1, nextDueDate: '2025-03-10' },
    ]);
    expect(creditors.body.total).toBe('895.00');
    expect(creditors.body.payablesAccount).toMatchObject({ number: '2000', balance: '895.00' });
    expect(await balance(w, '2000')).toBe('-895.00');
    expect([open.status, eur.status]).toEqual([2, 2]);
  });
});

describe('POST /api/payable/pay', () => {
  it('pays an approved bill from a chosen account at a date; the same token again changes nothing', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approved(w, { vatAmount: '81.00' });
    const bank = await w.account('1020');
    const body = { uuid: bill.uuid, token: 'lsv-2025-03-31-1', account: { id: bank }, date: '2025-03-31' };
    const paid = await w.api.post('/api/payable/pay', body);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 4, statusName: 'paid', transactionGroup: null, paymentEntry: { id: expect.any(Number) } });
    const entry = await w.api.post('/api/accounting/entry/detail', { id: paid.body.paymentEntry.id });
    expect(entry.body.dateLedger).toBe('2025-03-31');
    expect(await lines(w, paid.body.paymentEntry.id)).toEqual([
      ['2000', '1081.00', 1],
      ['1020', '1081.00', -1],
    ]);
    expect(await balance(w, '2000')).toBe('0.00');

    // A retry with the same token (the answer was lost) answers the same bill and posts nothing.
    const before = await state(w);
    const retry = await w.api.post('/api/payable/pay', body);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(paid.body);
    expect(await state(w)).toEqual(before);
    // Another token, or none: the bill is no longer payable.
    expect((await w.api.post('/api/payable/pay', { ...body, token: 'another' })).status).toBe(409);
    expect((await w.api.post('/api/payable/pay', { ...body, token: undefined })).status).toBe(409);
    expect(await state(w)).toEqual(before);
  });

  it('pays a staff expense without any IBAN in cash: debit 2250 / credit 1000', async () => {
    const w = await payablesWorkplace(server);
    const expense = await w.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '45.90', description: 'Taxi' } });
    expect(expense.body).toMatchObject({ company: null, companyFinance: null });
    await w.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } });
    const paid = await w.api.post('/api/payable/pay', { uuid: expense.body.uuid, account: { id: await w.account('1000') }, date: '2025-03-13' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await lines(w, paid.body.paymentEntry.id)).toEqual([
      ['2250', '45.90', 1],
      ['1000', '45.90', -1],
    ]);
    expect(await balance(w, '2250')).toBe('0.00');
    expect(await balance(w, '1000')).toBe('-45.90');
  });

  it('pays an EUR bill for the CHF that left the account, the difference on 6942/6952; refuses amountBase on a CHF bill', async () => {
    const w = await payablesWorkplace(server);
    const bank = await w.account('1020');
    // 100 EUR at 0.95 = 95.00 CHF booked on 2000.
    const eur = await approved(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    const paid = await w.api.post('/api/payable/pay', { uuid: eur.uuid, account: { id: bank }, date: '2025-03-31', amountBase: '96.10' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await lines(w, paid.body.paymentEntry.id)).toEqual([
      ['2000', '95.00', 1],
      ['1020', '96.10', -1],
      ['6942', '1.10', 1],
    ]);
    expect(await balance(w, '2000')).toBe('0.00');
    const cheaper = await approved(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    const gained = await w.api.post('/api/payable/pay', { uuid: cheaper.uuid, account: { id: bank }, date: '2025-03-31', amountBase: '93.70' });
    expect(await lines(w, gained.body.paymentEntry.id)).toEqual([
      ['2000', '95.00', 1],
      ['1020', '93.70', -1],
      ['6952', '1.30', -1],
    ]);

    const chf = await approved(w);
    const before = await state(w);
    const refused = await w.api.post('/api/payable/pay', { uuid: chf.uuid, account: { id: bank }, date: '2025-03-31', amountBase: '1080.00' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ amountBase: 'the document is in CHF, the currency of the books: it is settled for its amount 1081.00' });
    expect(await state(w)).toEqual(before);
  });

  it('pays an EUR bill in two parts, each with its exchange difference; the last clears the liability to the cent', async () => {
    const w = await payablesWorkplace(server);
    const bank = await w.account('1020');
    // 100 EUR at 0.95 = 95.00 CHF; 0.50 EUR converts to 0.48 and 99.50 EUR to 94.53: a cent more than is left.
    const eur = await approved(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    const first = await w.api.post('/api/payable/pay', { uuid: eur.uuid, account: { id: bank }, date: '2025-03-30', amount: '0.50', amountBase: '0.48' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 2, openAmount: '99.50' });
    expect(await balance(w, '2000')).toBe('-94.52');
    const last = await w.api.post('/api/payable/pay', { uuid: eur.uuid, account: { id: bank }, date: '2025-03-31', amount: '99.50', amountBase: '95.00' });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body).toMatchObject({ status: 4, openAmount: '0.00' });
    expect(await lines(w, last.body.paymentEntry.id)).toEqual([
      ['2000', '94.52', 1],
      ['1020', '95.00', -1],
      ['6942', '0.48', 1],
    ]);
    expect(await balance(w, '2000')).toBe('0.00');
    const other = await approved(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    const before = await state(w);
    const fee = await w.api.post('/api/payable/pay', { uuid: other.uuid, account: { id: bank }, date: '2025-03-31', amount: '50.00', fee: '1.00' });
    expect(fee.status).toBe(400);
    expect(Object.keys(fee.body.fields)).toEqual(['fee']);
    expect(await state(w)).toEqual(before);
  });

  it('answers 409 for a bill that is not approved, 400 naming the account, 404, 401 and 403 — and writes nothing', async () => {
    const w = await payablesWorkplace(server);
    const other = await payablesWorkplace(server);
    const bank = await w.account('1020');
    const pending = (await newBill(w)).body;
    const grouped = await approved(w);
    await w.api.post('/api/transaction-group/insert', { payable: { uuids: [grouped.uuid] } });
    const cancelled = await approved(w);
    await w.api.post('/api/payable/update', { uuid: cancelled.uuid, data: { status: 5 } });
    const ok = await approved(w);
    const before = await state(w);
    const pay = (client: Client, uuid: string, account = bank) => client.post('/api/payable/pay', { uuid, account: { id: account }, date: '2025-03-31' });

    const notApproved = await pay(w.api, pending.uuid);
    expect(notApproved.status).toBe(409);
    expect(notApproved.body.error).toMatch(/pending: approve it first/);
    expect((await pay(w.api, grouped.uuid)).body.error).toMatch(/paid through transaction group/);
    expect((await pay(w.api, cancelled.uuid)).status).toBe(409);
    for (const account of [99999, await w.account('4000'), await w.account('2000')]) {
      const response = await pay(w.api, ok.uuid, account);
      expect(response.status, String(account)).toBe(400);
      expect(Object.keys(response.body.fields)).toEqual(['account.id']);
    }
    // Account and date are optional since issue 14 §3 (default bank, today): only bad values are refused.
    for (const body of [{ uuid: ok.uuid, account: { id: bank }, date: '2025-02-30' }, { uuid: 'x', account: { id: bank }, date: '2025-03-31' }]) {
      expect((await w.api.post('/api/payable/pay', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await pay(w.api, '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d')).status).toBe(404);
    expect((await pay(other.api, ok.uuid, await other.account('1020'))).status).toBe(404);
    expect((await pay(new Client(server.baseUrl), ok.uuid)).status).toBe(401);
    expect((await pay(await memberClient(server, w, 'viewer'), ok.uuid)).status).toBe(403);
    expect(await state(w)).toEqual(before);
  });
});

describe('the lock date', () => {
  /** A workplace with bills booked before its books are locked up to 2025-06-30. */
  async function lockedWorkplace() {
    const w = await payablesWorkplace(server);
    const toApprove = (await newBill(w, { date: '2025-06-15' })).body;
    const toCancel = await approved(w, { date: '2025-06-10' });
    const toPay = await approved(w, { date: '2025-06-10' });
    const inGroup = await approved(w, { date: '2025-06-10' });
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [inGroup.uuid] }, executionDate: '2025-06-20' });
    await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 });
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-06-30')`, [w.instanceId]));
    return { w, toApprove, toCancel, toPay, groupId: group.body.id as number };
  }

  const locked = (response: { status: number; body: any }, date: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(409);
    expect(response.body.error).toBe(`the date ${date} is on or before the lock date 2025-06-30`);
  };

  it('refuses approving, cancelling and paying (by group and by /payable/pay) a bill in the locked period, and changes nothing', async () => {
    const { w, toApprove, toCancel, toPay, groupId } = await lockedWorkplace();
    const before = await state(w);
    const detail = async (uuid: string) => (await w.api.post('/api/payable/detail', { uuid })).body;
    const snapshot = { approve: await detail(toApprove.uuid), cancel: await detail(toCancel.uuid), pay: await detail(toPay.uuid), group: (await w.api.post('/api/transaction-group/detail', { id: groupId })).body };

    locked(await w.api.post('/api/payable/update', { uuid: toApprove.uuid, data: { status: 2 } }), '2025-06-15');
    locked(await w.api.post('/api/payable/update', { uuid: toCancel.uuid, data: { status: 5, statusDate: '2025-06-20' } }), '2025-06-20');
    locked(await w.api.post('/api/payable/update', { uuid: toCancel.uuid, data: { status: 1, statusDate: '2025-06-30' } }), '2025-06-30');
    locked(await w.api.post('/api/transaction-group/status/change', { id: groupId, status: 2, date: '2025-06-25' }), '2025-06-25');
    // Without a date the group pays at its execution date, 2025-06-20: locked as well.
    locked(await w.api.post('/api/transaction-group/status/change', { id: groupId, status: 2 }), '2025-06-20');
    locked(await w.api.post('/api/payable/pay', { uuid: toPay.uuid, account: { id: await w.account('1020') }, date: '2025-06-28' }), '2025-06-28');

    expect(await state(w)).toEqual(before);
    expect(await detail(toApprove.uuid)).toEqual(snapshot.approve);
    expect(await detail(toCancel.uuid)).toEqual(snapshot.cancel);
    expect(await detail(toPay.uuid)).toEqual(snapshot.pay);
    expect((await w.api.post('/api/transaction-group/detail', { id: groupId })).body).toEqual(snapshot.group);

    // After the lock date the same operations go through.
    expect((await w.api.post('/api/payable/update', { uuid: toCancel.uuid, data: { status: 5, statusDate: '2025-07-01' } })).status).toBe(200);
    expect((await w.api.post('/api/payable/pay', { uuid: toPay.uuid, account: { id: await w.account('1020') }, date: '2025-07-01' })).status).toBe(200);
    expect((await w.api.post('/api/transaction-group/status/change', { id: groupId, status: 2, date: '2025-07-01' })).status).toBe(200);
  });
});
