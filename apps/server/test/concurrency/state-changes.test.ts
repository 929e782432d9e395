/**
 * Issue 11 §1: every state change is race-free. 20 parallel identical requests over real HTTP give
 * exactly one posting; the others answer 409 `already_done` (or 200 with the same result where that
 * is the natural answer), never 5xx; the trial balance and the control accounts agree with the
 * documents afterwards. The parallel suites run on PostgreSQL only (PGlite has one connection and
 * serializes every transaction, so it proves nothing); the sequential repeat runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../../src/http/errors.js';
import { engine, startTestServer, type ApiResponse, type TestServer } from '../helpers.js';
import { camt054, pain002 } from '../banking/xsd.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { payablesWorkplace, type PayablesWorkplace } from '../payables/setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const N = 20;
const OWN_IBAN = 'CH9300762011623852957';

type Workplace = InvoicingWorkplace | PayablesWorkplace;

/** `N` copies of the same request, sent at once. */
const burst = (send: () => Promise<ApiResponse>) => Promise.all(Array.from({ length: N }, send));

/**
 * The answers of a burst: no 5xx, exactly `succeeded` 200s (1 unless the repeats answer 200 too),
 * every other one 409 `already_done` with a message naming the document.
 */
function expectOnce(responses: ApiResponse[], succeeded = 1, already?: RegExp) {
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s >= 500), JSON.stringify(responses.filter((r) => r.status >= 500).map((r) => r.body))).toEqual([]);
  expect(statuses.filter((s) => s === 200)).toHaveLength(succeeded);
  const refused = responses.filter((r) => r.status !== 200);
  expect(refused.map((r) => [r.status, r.body.code])).toEqual(refused.map(() => [409, 'already_done']));
  if (already) for (const r of refused) expect(r.body.error).toMatch(already);
}

const importFile = (w: Workplace, xml: string) => w.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });

/** Journal entries posted for a document (`source_ref` = its uuid, or its id for bank lines). */
async function entriesOf(w: Workplace, sourceRef: string | number): Promise<{ source: string; description: string }[]> {
  return server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ source: string; description: string }>('SELECT source, description FROM journal_entry WHERE source_ref = $1 ORDER BY id', [String(sourceRef)]),
  );
}

async function entryCount(w: Workplace): Promise<number> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}

/** The books' integrity checks (entries balance, month balances, trial balance) pass; balances by account number. */
async function books(w: Workplace): Promise<(number: string) => string> {
  const check = await w.api.get('/api/accounting/balance/check');
  expect(check.status).toBe(200);
  expect(check.body.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
  const balance = await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' });
  expect(balance.status).toBe(200);
  return (number) => balance.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}

/** A pending invoice of 269.55 (invoiceData) on the QR-IBAN profile (ledger 1020). */
async function pendingInvoice(w: InvoicingWorkplace) {
  const created = await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as { uuid: string; paymentReference: string };
}

async function sentInvoice(w: InvoicingWorkplace) {
  const invoice = await pendingInvoice(w);
  const sent = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-03-01' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { uuid: string; refNumber: string; paymentReference: string };
}

const invoiceStatus = async (w: InvoicingWorkplace, uuid: string) => (await w.api.post('/api/invoice/detail', { id: uuid })).body.status as number;

/** An approved bill of 250.00 from the supplier (IBAN profile), booked on payables 2000. */
async function approvedBill(w: PayablesWorkplace, amount = '250.00') {
  const created = await w.api.post('/api/payable/insert', {
    data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.ibanProfile }, date: '2025-11-03', amount },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return approved.body as { uuid: string; id: number };
}

const billStatus = async (w: PayablesWorkplace, uuid: string) => (await w.api.post('/api/payable/detail', { uuid })).body.status as number;

/** A pending transaction group of two approved bills (100.00 and 150.00). */
async function groupOfTwo(w: PayablesWorkplace) {
  const bills = [await approvedBill(w, '100.00'), await approvedBill(w, '150.00')];
  const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: bills.map((b) => b.uuid) }, executionDate: '2025-11-25' });
  expect(group.status, JSON.stringify(group.body)).toBe(200);
  return { id: group.body.id as number, uuid: group.body.uuid as string, bills };
}

/** Imports a camt.054 with one debit nothing matches; its bank transaction id. */
async function unmatchedBankLine(w: Workplace, direction: 'CRDT' | 'DBIT', amount: string, bankRef: string): Promise<number> {
  const imported = await importFile(w, camt054(`NTF-${bankRef}`, OWN_IBAN, [{ direction, amount, bankRef, name: 'Nobody Known SA' }]));
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  expect(imported.body.transactions).toMatchObject([{ matched: false }]);
  return imported.body.transactions[0].id as number;
}

describe('a repeated state change answers 409 already_done (both engines)', () => {
  it('invoice status, /payable/pay, transaction-group status and bank-line booking, called twice', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const again = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 2 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_done', error: `invoice ${invoice.refNumber} is already sent`, fields: { status: 'already sent' } });
    const paid = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-03-20' });
    expect(paid.status).toBe(200);
    const paidAgain = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-03-20' });
    expect(paidAgain.status).toBe(409);
    expect(paidAgain.body.code).toBe('already_done');
    expect(paidAgain.body.error).toMatch(/is already paid$/);
    // A transition the rules forbid is its own 409 (status_not_allowed), not "already done".
    const denied = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4 });
    expect(denied.status).toBe(409);
    expect(denied.body.code).toBe('status_not_allowed');
    expect(await entriesOf(w, invoice.uuid)).toHaveLength(2);

    const p = await payablesWorkplace(server);
    const bank = await p.account('1020');
    const bill = await approvedBill(p);
    const pay = () => p.api.post('/api/payable/pay', { uuid: bill.uuid, account: { id: bank }, date: '2025-11-10' });
    expect((await pay()).status).toBe(200);
    const payAgain = await pay();
    expect(payAgain.status).toBe(409);
    expect(payAgain.body).toMatchObject({ code: 'already_done', error: `bill ${bill.id} is already paid` });
    expect((await entriesOf(p, bill.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);

    const group = await groupOfTwo(p);
    expect((await p.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 })).status).toBe(200);
    const initiatedAgain = await p.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 });
    expect(initiatedAgain.status).toBe(409);
    expect(initiatedAgain.body).toMatchObject({ code: 'already_done', error: `transaction group ${group.id} is already initiated` });

    const line = await unmatchedBankLine(p, 'DBIT', '33.30', 'SEQ-1');
    const bankCharges = await p.account('6940');
    const book = () => p.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: line }, counterAccount: { id: bankCharges } });
    expect((await book()).status).toBe(200);
    const bookAgain = await book();
    expect(bookAgain.status).toBe(409);
    expect(bookAgain.body).toMatchObject({ code: 'already_done', error: `bank transaction ${line} is already booked` });
    expect(await entriesOf(p, line)).toHaveLength(1);
  });
});

describe.skipIf(engine !== 'postgres')(`${N} parallel identical requests post once (PostgreSQL)`, () => {
  it('a deadlock PostgreSQL reports maps to 409 retry, not 500', async () => {
    const w = await payablesWorkplace(server);
    const [bank, payables] = [await w.account('1020'), await w.account('2000')];
    let locked = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    // Two transactions take the same two rows in opposite orders: PostgreSQL aborts one (40P01).
    const lockBoth = (first: number, second: number) =>
      server.db.withInstance(w.instanceId, async (tx) => {
        await tx.query('SELECT 1 FROM ledger_account WHERE instance_id = $1 AND id = $2 FOR UPDATE', [w.instanceId, first]);
        if (++locked === 2) release();
        await bothHoldOne;
        await tx.query('SELECT 1 FROM ledger_account WHERE instance_id = $1 AND id = $2 FOR UPDATE', [w.instanceId, second]);
      });
    const results = await Promise.allSettled([lockBoth(bank, payables), lockBoth(payables, bank)]);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.reason).toMatchObject({ code: '40P01' });
    expect(fromDatabaseError(failed[0]!.reason)).toMatchObject({ statusCode: 409, extra: { code: 'retry' } });
    expect(fromDatabaseError({ code: '40001', message: 'could not serialize access' })).toMatchObject({ statusCode: 409, extra: { code: 'retry' } });
  });

  it('invoice pending → sent, sent → paid', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await pendingInvoice(w);
    expectOnce(await burst(() => w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-03-01' })), 1, /^invoice BILAN\d+ is already sent$/);
    expect(await entriesOf(w, invoice.uuid)).toHaveLength(1);
    expect((await books(w))('1100')).toBe('269.55');

    expectOnce(await burst(() => w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-03-20' })), 1, /is already paid$/);
    expect(await entriesOf(w, invoice.uuid)).toHaveLength(2);
    expect(await invoiceStatus(w, invoice.uuid)).toBe(3);
    const balance = await books(w);
    expect([balance('1100'), balance('1020')]).toEqual(['0.00', '269.55']);
  });

  it('invoice sent → denied', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    expectOnce(await burst(() => w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4, ledgerDate: '2025-03-05' })), 1, /is already denied$/);
    expect(await entriesOf(w, invoice.uuid)).toHaveLength(2);
    expect(await invoiceStatus(w, invoice.uuid)).toBe(4);
    expect((await books(w))('1100')).toBe('0.00');
  });

  it('/payable/pay without a token (409 already_done) and with one token (200, the same bill)', async () => {
    const w = await payablesWorkplace(server);
    const bank = await w.account('1020');
    const bill = await approvedBill(w);
    expectOnce(await burst(() => w.api.post('/api/payable/pay', { uuid: bill.uuid, account: { id: bank }, date: '2025-11-10' })), 1, /^bill \d+ is already paid$/);
    expect((await entriesOf(w, bill.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);
    expect(await billStatus(w, bill.uuid)).toBe(4);

    const tokened = await approvedBill(w, '80.00');
    const answers = await burst(() => w.api.post('/api/payable/pay', { uuid: tokened.uuid, token: 'pay-once', account: { id: bank }, date: '2025-11-10' }));
    expectOnce(answers, N);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect((await entriesOf(w, tokened.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);
    const balance = await books(w);
    expect([balance('2000'), balance('1020')]).toEqual(['0.00', '-330.00']);
  });

  it('transaction group → initiated, → paid (/transaction-group/pay)', async () => {
    const w = await payablesWorkplace(server);
    const group = await groupOfTwo(w);
    expectOnce(await burst(() => w.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 })), 1, /is already initiated$/);
    expectOnce(await burst(() => w.api.post('/api/transaction-group/status/change', { id: group.id, status: 2, date: '2025-11-25' })), 1, /is already paid$/);
    for (const bill of group.bills) {
      expect((await entriesOf(w, bill.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);
      expect(await billStatus(w, bill.uuid)).toBe(4);
    }
    expect((await w.api.post('/api/transaction-group/detail', { id: group.id })).body.status).toBe(2);
    const balance = await books(w);
    expect([balance('2000'), balance('1020')]).toEqual(['0.00', '-250.00']);
  });

  it('bank line booked against an account, matched to a bill, matched to an invoice', async () => {
    const w = await invoicingWorkplace(server);
    const bank = await w.account('1020');
    const bankCharges = await w.account('6940');
    const line = await unmatchedBankLine(w, 'DBIT', '12.50', 'PAR-BOOK');
    expectOnce(
      await burst(() => w.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: line }, counterAccount: { id: bankCharges } })),
      1,
      /^bank transaction \d+ is already booked$/,
    );
    expect(await entriesOf(w, line)).toHaveLength(1);

    const bill = await w.api.post('/api/payable/insert', { data: { company: { uuid: w.customer }, date: '2025-11-03', amount: '250.00' } });
    expect((await w.api.post('/api/payable/update', { uuid: bill.body.uuid, data: { status: 2 } })).status).toBe(200);
    const out = await unmatchedBankLine(w, 'DBIT', '250.00', 'PAR-BILL');
    expectOnce(await burst(() => w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: out }, payable: { uuid: bill.body.uuid } })), 1, /is already matched to bill/);
    expect((await entriesOf(w, bill.body.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);

    const invoice = await sentInvoice(w);
    const credit = await unmatchedBankLine(w, 'CRDT', '269.55', 'PAR-INV');
    expectOnce(await burst(() => w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: credit }, invoice: { uuid: invoice.uuid } })), 1, /is already matched to an invoice/);
    expect(await entriesOf(w, invoice.uuid)).toHaveLength(2);
    expect(await invoiceStatus(w, invoice.uuid)).toBe(3);

    const balance = await books(w);
    // −12.50 charges − 250.00 bill + 269.55 invoice.
    expect([balance('1020'), balance('1100'), balance('2000'), balance('6940')]).toEqual(['7.05', '0.00', '0.00', '12.50']);
  });

  it('the same camt.054 imported 20 times: one file, its bank lines and postings once (200, duplicateFile for the rest)', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const bill = await w.api.post('/api/payable/insert', { data: { company: { uuid: w.customer }, date: '2025-11-03', amount: '75.00' } });
    expect((await w.api.post('/api/payable/update', { uuid: bill.body.uuid, data: { status: 2 } })).status).toBe(200);
    const before = await entryCount(w);
    const xml = camt054('NTF-PARALLEL', OWN_IBAN, [
      { direction: 'CRDT', amount: '269.55', bankRef: 'PAR-IN-1', reference: invoice.paymentReference, name: 'Simon Muster AG' },
      { direction: 'DBIT', amount: '75.00', bankRef: 'PAR-OUT-1', name: 'Simon Muster AG' },
    ]);
    const answers = await burst(() => importFile(w, xml));
    expectOnce(answers, N);
    const first = answers.filter((a) => !a.body.duplicateFile);
    expect(first).toHaveLength(1);
    expect(first[0]!.body).toMatchObject({ imported: 2, matched: 2 });
    expect(answers.filter((a) => a.body.duplicateFile).every((a) => a.body.imported === 0 && a.body.duplicates === 2)).toBe(true);
    expect((await entryCount(w)) - before).toBe(2);
    const [rows] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ files: number; lines: number }>('SELECT (SELECT count(*)::int FROM bank_file) AS files, (SELECT count(*)::int FROM bank_transaction) AS lines'),
    );
    expect(rows).toEqual({ files: 1, lines: 2 });
    expect(await invoiceStatus(w, invoice.uuid)).toBe(3);
    const balance = await books(w);
    expect([balance('1100'), balance('2000'), balance('1020')]).toEqual(['0.00', '0.00', '194.55']);
  });

  it('the same pain.002 imported 20 times: one file, the rejected payment reversed once', async () => {
    const w = await payablesWorkplace(server);
    const group = await groupOfTwo(w);
    expect((await w.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 })).status).toBe(200);
    expect((await w.api.post('/api/transaction-group/status/change', { id: group.id, status: 2, date: '2025-11-25' })).status).toBe(200);
    const [accepted, rejected] = group.bills;
    const e2e = (uuid: string) => uuid.replace(/-/g, '');
    const report = pain002({ version: '10', original: e2e(group.uuid), group: 'PART', txs: [[e2e(accepted!.uuid), 'ACCP'], [e2e(rejected!.uuid), 'RJCT', 'AC01']], messageId: 'STS-PAR' });
    const answers = await burst(() => importFile(w, report));
    expectOnce(answers, N);
    expect(answers.filter((a) => !a.body.duplicateFile).map((a) => a.body.reopened)).toEqual([[{ id: rejected!.id, reason: 'AC01 IBAN wrong' }]]);
    // bill, payment, reversal of the payment (reverseEntry refers to the entry it reverses).
    expect((await entriesOf(w, rejected!.uuid)).map((e) => e.source)).toEqual(['bill', 'payment']);
    const [reversals] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ n: number }>("SELECT count(*)::int AS n FROM journal_entry WHERE description LIKE 'Bill % rejected by the bank%'"),
    );
    expect(reversals!.n).toBe(1);
    expect(await billStatus(w, rejected!.uuid)).toBe(2);
    expect(await billStatus(w, accepted!.uuid)).toBe(4);
    const balance = await books(w);
    // The rejected 150.00 is owed again; only the accepted 100.00 left the bank.
    expect([balance('2000'), balance('1020')]).toEqual(['-150.00', '-100.00']);
  });
});
