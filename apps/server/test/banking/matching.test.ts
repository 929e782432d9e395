/**
 * Statement matching of money out (issue #5 §4) and the reconciliation endpoints: debits matched to
 * bills by amount + creditor IBAN or name, ambiguous or locked matches left unmatched with a reason
 * (the rest of the file imports), manual matching to a chosen bill, booking to a chosen account, and
 * who may read and book (401, 403 for a viewer, 404 across instances with real ids).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { IBAN, payablesWorkplace, supplier, type PayablesWorkplace } from '../payables/setup.js';
import { memberClient } from '../invoicing/support.js';
import { camt054, xsdErrors } from './xsd.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const OWN_IBAN = 'CH9300762011623852957';

const importFile = (w: PayablesWorkplace, xml: string) =>
  w.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });

async function approvedBill(w: PayablesWorkplace, over: Record<string, unknown> = {}, company = w.supplier) {
  const created = await w.api.post('/api/payable/insert', {
    data: { company: { uuid: company.uuid }, companyFinance: { id: company.ibanProfile }, date: '2025-11-03', amount: '250.00', ...over },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return approved.body as { uuid: string; id: number; status: number };
}

async function counts(w: PayablesWorkplace) {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ entries: number; transactions: number }>('SELECT (SELECT count(*)::int FROM journal_entry) AS entries, (SELECT count(*)::int FROM bank_transaction) AS transactions'),
  );
  return row!;
}

async function bankTransaction(w: PayablesWorkplace, bankRef: string) {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ id: number; matched_payable_id: number | null; entry_id: number | null; unmatched_reason: string | null; counterparty_iban: string | null }>(
      "SELECT id, matched_payable_id, entry_id, unmatched_reason, counterparty_iban FROM bank_transaction WHERE split_part(dedup_key, '#', 1) = $1",
      [bankRef],
    ),
  );
  return row!;
}

async function entryLines(w: PayablesWorkplace, id: number) {
  const entry = await w.api.post('/api/accounting/entry/detail', { id });
  return { date: entry.body.dateLedger as string, lines: entry.body.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction]) };
}

describe('money out matched to bills', () => {
  it('pays an approved bill by amount and creditor IBAN, and a bill of an initiated group by amount and creditor name', async () => {
    const w = await payablesWorkplace(server);
    const direct = await approvedBill(w, { amount: '250.00' });
    const other = await supplier(server, w.instanceId, 'Papeterie Zürich GmbH');
    const inGroup = await approvedBill(w, { amount: '99.90' }, other);
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [inGroup.uuid] }, executionDate: '2025-11-20' });
    expect((await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 })).status).toBe(200);
    const xml = camt054('NTF-OUT-1', OWN_IBAN, [
      // The bank names the creditor differently, but its IBAN is the bill's payment profile.
      { direction: 'DBIT', amount: '250.00', bankRef: 'OUT-1', name: 'LSV MUSTER', iban: IBAN },
      // No end-to-end id echoed, no IBAN: the name as banks write it ("PAPETERIE ZUERICH").
      { direction: 'DBIT', amount: '99.90', bankRef: 'OUT-2', name: 'PAPETERIE ZUERICH' },
      // Same amount, unknown creditor: stays unmatched without a reason.
      { direction: 'DBIT', amount: '250.00', bankRef: 'OUT-3', name: 'Someone Else SA' },
    ]);
    expect(await xsdErrors(xml, 'camt.054.001.08.xsd')).toEqual([]);
    const imported = await importFile(w, xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, matched: 2 });
    expect(imported.body.transactions.map((t: any) => [t.payable?.id ?? null, t.reason])).toEqual([
      [direct.id, null],
      [inGroup.id, null],
      [null, null],
    ]);

    const paidDirect = (await w.api.post('/api/payable/detail', { uuid: direct.uuid })).body;
    expect(paidDirect).toMatchObject({ status: 4, transactionGroup: null });
    expect(await entryLines(w, paidDirect.paymentEntry.id)).toEqual({ date: '2025-11-25', lines: [['2000', '250.00', 1], ['1020', '250.00', -1]] });
    expect((await bankTransaction(w, 'OUT-1')).counterparty_iban).toBe(IBAN);
    expect((await w.api.post('/api/payable/detail', { uuid: inGroup.uuid })).body).toMatchObject({ status: 4 });
    expect((await w.api.post('/api/transaction-group/detail', { id: group.body.id })).body).toMatchObject({ status: 2, bankStatus: 2, paidDate: '2025-11-25' });
  });

  it('leaves several candidates unmatched with the reason, and a locked booking date unmatched while the rest imports', async () => {
    const w = await payablesWorkplace(server);
    const a = await approvedBill(w, { amount: '70.00' });
    const b = await approvedBill(w, { amount: '70.00' });
    const late = await approvedBill(w, { amount: '33.30' });
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-11-30')`, [w.instanceId]));
    const before = await counts(w);
    const xml = camt054('NTF-OUT-2', OWN_IBAN, [
      { direction: 'DBIT', amount: '70.00', bankRef: 'AMB-1', name: 'Muster Lieferant' },
      { direction: 'DBIT', amount: '33.30', bankRef: 'LOCK-1', name: 'Muster Lieferant AG', date: '2025-11-28' },
      { direction: 'DBIT', amount: '5.00', bankRef: 'FEE-1', date: '2025-12-02' },
    ]);
    const imported = await importFile(w, xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, matched: 0 });
    const [ambiguous, locked] = imported.body.transactions;
    expect(ambiguous.reason).toBe(`2 open bills (${a.id}, ${b.id}) match amount and creditor: match by hand`);
    expect(locked.reason).toMatch(new RegExp(`^bill ${late.id}: .*2025-11-28.*lock date 2025-11-30`));
    expect(await counts(w)).toEqual({ entries: before.entries, transactions: before.transactions + 3 });
    expect((await w.api.post('/api/payable/detail', { uuid: late.uuid })).body.status).toBe(2);

    // The reason is shown with the transaction, and the same-amount bills are offered.
    const bank = await w.account('1020');
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${bank}`);
    expect(view.status).toBe(200);
    const byId = Object.fromEntries(view.body.unmatched.map((t: any) => [t.amount, t]));
    expect(byId['70.00'].suggestions.map((s: any) => [s.kind, s.uuid])).toEqual([
      ['bill', a.uuid],
      ['bill', b.uuid],
    ]);
    expect(byId['33.30']).toMatchObject({ reason: expect.stringContaining('lock date'), suggestions: [{ kind: 'bill', uuid: late.uuid, amount: '33.30', currency: 'CHF' }] });
    expect(byId['5.00']).toMatchObject({ reason: null, suggestions: [] });
  });
});

describe('EUR bills debited in CHF: the realized exchange difference (docs/decisions/012)', () => {
  const eurBill = (w: PayablesWorkplace, amount: string) => approvedBill(w, { amount, currency: 'EUR', exchangeRate: '0.95', referenceNumber: null });

  it('books the CHF the bank debited for a group payment found by end-to-end id, the loss on 6942; a gain on 6952 by hand', async () => {
    const w = await payablesWorkplace(server);
    // 500 EUR booked at 0.95 = 475.00 CHF.
    const bill = await eurBill(w, '500.00');
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [bill.uuid] }, executionDate: '2025-11-20' });
    expect((await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 })).status).toBe(200);
    // Upper case as some banks echo it: the end-to-end id names the bill whatever its case.
    const endToEndId = bill.uuid.replaceAll('-', '').toUpperCase();
    const xml = camt054('NTF-FX-OUT-1', OWN_IBAN, [{ direction: 'DBIT', amount: '478.35', bankRef: 'FX-OUT-1', endToEndId }]);
    expect(await xsdErrors(xml, 'camt.054.001.08.xsd')).toEqual([]);
    const imported = await importFile(w, xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 1, matched: 1 });
    const paid = (await w.api.post('/api/payable/detail', { uuid: bill.uuid })).body;
    expect(paid.status).toBe(4);
    expect((await entryLines(w, paid.paymentEntry.id)).lines).toEqual([
      ['2000', '475.00', 1],
      ['1020', '478.35', -1],
      ['6942', '3.35', 1],
    ]);
    expect((await w.api.post('/api/transaction-group/detail', { id: group.body.id })).body).toMatchObject({ status: 2 });

    // No end-to-end id, a CHF amount: offered within 5 % of the booked 475.00, matched by hand.
    const second = await eurBill(w, '500.00');
    await importFile(w, camt054('NTF-FX-OUT-2', OWN_IBAN, [{ direction: 'DBIT', amount: '470.20', bankRef: 'FX-OUT-2' }]));
    const tx = await bankTransaction(w, 'FX-OUT-2');
    expect(tx.matched_payable_id).toBeNull();
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${await w.account('1020')}`);
    expect(view.body.unmatched[0].suggestions.map((s: any) => [s.uuid, s.amount, s.currency])).toEqual([[second.uuid, '500.00', 'EUR']]);
    const matched = await w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: second.uuid } });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    const secondPaid = (await w.api.post('/api/payable/detail', { uuid: second.uuid })).body;
    expect((await entryLines(w, secondPaid.paymentEntry.id)).lines).toEqual([
      ['2000', '475.00', 1],
      ['1020', '470.20', -1],
      ['6952', '4.80', -1],
    ]);
  });

  it('leaves a CHF debit more than 5 % off the booked amount unmatched with the reason; by hand up to 25 %, beyond 409; nothing booked on refusal', async () => {
    const w = await payablesWorkplace(server);
    const bill = await eurBill(w, '500.00');
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [bill.uuid] } });
    await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 });
    const before = await counts(w);
    const e2e = bill.uuid.replaceAll('-', '');
    const imported = await importFile(
      w,
      camt054('NTF-FX-OUT-3', OWN_IBAN, [
        { direction: 'DBIT', amount: '950.00', bankRef: 'FX-OUT-3', endToEndId: e2e },
        { direction: 'DBIT', amount: '520.00', bankRef: 'FX-OUT-4', endToEndId: e2e },
      ]),
    );
    expect(imported.body).toMatchObject({ imported: 2, matched: 0 });
    expect(imported.body.transactions.map((t: any) => t.reason)).toEqual([
      `bill ${bill.id} (500.00 EUR) is booked at 475.00, the debit is 950.00 CHF: more than 5 % apart; match by hand or book against an account`,
      `bill ${bill.id} (500.00 EUR) is booked at 475.00, the debit is 520.00 CHF: more than 5 % apart; match by hand or book against an account`,
    ]);
    expect(await counts(w)).toEqual({ entries: before.entries, transactions: before.transactions + 2 });
    expect((await w.api.post('/api/payable/detail', { uuid: bill.uuid })).body.status).toBe(3);

    const match = async (bankRef: string) =>
      w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: (await bankTransaction(w, bankRef)).id }, payable: { uuid: bill.uuid } });
    const implausible = await match('FX-OUT-3');
    expect(implausible.status).toBe(409);
    expect(implausible.body.code).toBe('amount_mismatch');
    expect(implausible.body.error).toMatch(/more than 25 % away from its booked amount/);
    expect(await counts(w)).toEqual({ entries: before.entries, transactions: before.transactions + 2 });
    // 9.5 % off: a person may decide it is the exchange difference.
    expect((await match('FX-OUT-4')).status).toBe(200);
    const paid = (await w.api.post('/api/payable/detail', { uuid: bill.uuid })).body;
    expect((await entryLines(w, paid.paymentEntry.id)).lines).toEqual([
      ['2000', '475.00', 1],
      ['1020', '520.00', -1],
      ['6942', '45.00', 1],
    ]);
  });
});

describe('POST /api/banking/integrations/reconcile/match', () => {
  it('books a debit as the chosen bill\'s payment, exactly as an automatic match', async () => {
    const w = await payablesWorkplace(server);
    const a = await approvedBill(w, { amount: '70.00' });
    const b = await approvedBill(w, { amount: '70.00' });
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [b.uuid] } });
    // No creditor name or IBAN: nothing to match automatically (bill a would be the only candidate).
    await importFile(w, camt054('NTF-M-1', OWN_IBAN, [{ direction: 'DBIT', amount: '70.00', bankRef: 'M-1' }]));
    const tx = await bankTransaction(w, 'M-1');
    expect(tx.matched_payable_id).toBeNull();

    const matched = await w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: b.uuid } });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    expect(matched.body.unmatched).toEqual([]);
    const paid = (await w.api.post('/api/payable/detail', { uuid: b.uuid })).body;
    expect(paid).toMatchObject({ status: 4 });
    expect(await entryLines(w, paid.paymentEntry.id)).toEqual({ date: '2025-11-25', lines: [['2000', '70.00', 1], ['1020', '70.00', -1]] });
    expect(await bankTransaction(w, 'M-1')).toMatchObject({ matched_payable_id: b.id, entry_id: paid.paymentEntry.id, unmatched_reason: null });
    // Its only bill is paid: so is the group.
    expect((await w.api.post('/api/transaction-group/detail', { id: group.body.id })).body).toMatchObject({ status: 2, paidDate: '2025-11-25' });

    // Already matched: 409, and nothing more is booked.
    const before = await counts(w);
    const again = await w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: a.uuid } });
    expect(again.status).toBe(409);
    expect(await counts(w)).toEqual(before);
    expect((await w.api.post('/api/payable/detail', { uuid: a.uuid })).body.status).toBe(2);
  });

  it('answers 400 naming the field, 404 for unknown ids, 409 for another amount or a bill not open, and writes nothing', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approvedBill(w, { amount: '80.00' });
    const pending = await w.api.post('/api/payable/insert', { data: { company: { uuid: w.supplier.uuid }, date: '2025-11-03', amount: '12.00' } });
    await importFile(
      w,
      camt054('NTF-E-1', OWN_IBAN, [
        { direction: 'DBIT', amount: '12.00', bankRef: 'E-OUT' },
        { direction: 'CRDT', amount: '80.00', bankRef: 'E-IN' },
      ]),
    );
    const out = await bankTransaction(w, 'E-OUT');
    const incoming = await bankTransaction(w, 'E-IN');
    const before = await counts(w);
    const match = (body: unknown) => w.api.post('/api/banking/integrations/reconcile/match', body);
    for (const [body, field, code] of [
      [{ bankTransaction: { id: out.id } }, 'payable.uuid', 'match_target'],
      [{ bankTransaction: { id: out.id }, payable: { uuid: bill.uuid }, invoice: { uuid: bill.uuid } }, 'invoice.uuid', 'match_target'],
      [{ bankTransaction: { id: incoming.id }, payable: { uuid: bill.uuid } }, 'payable.uuid', 'wrong_direction'],
      [{ bankTransaction: { id: out.id }, invoice: { uuid: bill.uuid } }, 'invoice.uuid', 'wrong_direction'],
      [{ bankTransaction: { id: out.id }, payable: { uuid: 'nope' } }, 'payable.uuid', null],
      [{ bankTransaction: { id: 0 }, payable: { uuid: bill.uuid } }, 'bankTransaction.id', null],
    ] as const) {
      const response = await match(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.fields)).toContain(field);
      // Banking's own refusals carry its code; the schema's (null here) are the validator's.
      if (code) expect(response.body.code, JSON.stringify(body)).toBe(code);
    }
    expect((await match({ bankTransaction: { id: 99999 }, payable: { uuid: bill.uuid } })).body).toMatchObject({ code: 'bank_transaction_not_found', error: 'Bank transaction 99999 not found' });
    expect((await match({ bankTransaction: { id: out.id }, payable: { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d' } })).status).toBe(404);
    const otherAmount = await match({ bankTransaction: { id: out.id }, payable: { uuid: bill.uuid } });
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.code).toBe('amount_mismatch');
    expect(otherAmount.body.error).toMatch(/12\.00 CHF.*80\.00 CHF/);
    const notOpen = await match({ bankTransaction: { id: out.id }, payable: { uuid: pending.body.uuid } });
    expect(notOpen.status).toBe(409);
    expect(notOpen.body.error).toMatch(/pending/);
    // No invoices module data: the invoice is unknown.
    expect((await match({ bankTransaction: { id: incoming.id }, invoice: { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d' } })).status).toBe(404);
    expect(await counts(w)).toEqual(before);
    expect((await bankTransaction(w, 'E-OUT')).matched_payable_id).toBeNull();
  });
});

describe('reconciliation access', () => {
  it('lets a viewer read but not book or match; 401 without a token; 404 for real ids of another instance', async () => {
    const w = await payablesWorkplace(server);
    const other = await payablesWorkplace(server);
    const bill = await approvedBill(w, { amount: '44.00' });
    await importFile(w, camt054('NTF-A-1', OWN_IBAN, [{ direction: 'DBIT', amount: '44.00', bankRef: 'A-1' }]));
    const tx = await bankTransaction(w, 'A-1');
    const bank = await w.account('1020');
    const viewer = await memberClient(server, w, 'viewer');

    const read = await viewer.get(`/api/banking/integrations/reconcile?account=${bank}`);
    expect(read.status).toBe(200);
    expect(read.body.unmatched.map((t: any) => t.id)).toEqual([tx.id]);
    const revenue = await w.account('3400');
    const before = await counts(w);
    expect((await viewer.post('/api/banking/integrations/reconcile', { account: { id: bank } })).status).toBe(403);
    expect((await viewer.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: tx.id }, counterAccount: { id: revenue } })).status).toBe(403);
    expect((await viewer.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: bill.uuid } })).status).toBe(403);
    expect(await counts(w)).toEqual(before);

    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.get(`/api/banking/integrations/reconcile?account=${bank}`)).status).toBe(401);
    expect((await anonymous.post('/api/banking/integrations/reconcile', { account: { id: bank } })).status).toBe(401);
    expect((await anonymous.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: bill.uuid } })).status).toBe(401);

    // An account only this instance has (ids are per instance: make one the other does not have).
    const created = await w.api.post('/api/accounting/account/insert', { data: { number: '1029', name: 'Bank 3', currency: 'CHF' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const ownOnly = created.body.id as number;
    const otherAccounts = await other.api.post('/api/accounting/account/list', {});
    expect(otherAccounts.body.data.map((a: any) => a.id)).not.toContain(ownOnly);
    expect((await other.api.get(`/api/banking/integrations/reconcile?account=${ownOnly}`)).status).toBe(404);
    expect((await other.api.post('/api/banking/integrations/reconcile', { account: { id: ownOnly } })).status).toBe(404);
    // The other instance has no bank transactions: this one's real id is not found there.
    const otherBank = await other.account('1020');
    const otherRevenue = await other.account('3400');
    expect((await other.api.post('/api/banking/integrations/reconcile', { account: { id: otherBank }, bankTransaction: { id: tx.id }, counterAccount: { id: otherRevenue } })).status).toBe(404);
    expect((await other.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: tx.id }, payable: { uuid: bill.uuid } })).status).toBe(404);
    expect(await counts(w)).toEqual(before);
    expect((await bankTransaction(w, 'A-1')).entry_id).toBeNull();
  });
});

describe('POST /api/banking/integrations/reconcile booking', () => {
  it('books an unmatched debit against a chosen account at its booking date', async () => {
    const w = await payablesWorkplace(server);
    await importFile(w, camt054('NTF-B-1', OWN_IBAN, [{ direction: 'DBIT', amount: '5.00', bankRef: 'FEE-B', date: '2025-11-27' }]));
    const tx = await bankTransaction(w, 'FEE-B');
    const bank = await w.account('1020');
    const fees = await w.account('6940');
    const booked = await w.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: tx.id }, counterAccount: { id: fees } });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body).toMatchObject({ ledgerBalance: '-5.00', unmatched: [] });
    const row = await bankTransaction(w, 'FEE-B');
    expect(await entryLines(w, row.entry_id!)).toEqual({ date: '2025-11-27', lines: [['1020', '5.00', -1], ['6940', '5.00', 1]] });
  });
});
