/**
 * POST /api/banking/integrations/transactions: camt.054 paying a transaction group's bills, re-import
 * without double booking, camt.053 from another parser's test data, pain.002 status reports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace, QR_REF, type PayablesWorkplace } from '../payables/setup.js';
import { isoFixture, pain002, xsdErrors } from './xsd.js';
import { createPaymentProfile } from '../../src/modules/companies/companies.service.js';
import { ownCompanyUuid } from '../../src/modules/instances/instances.service.js';

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

const OWN_IBAN = 'CH9300762011623852957';

async function groupOf(w: PayablesWorkplace, amounts: string[]) {
  const uuids = [];
  for (const amount of amounts) {
    const created = await w.api.post('/api/payable/insert', {
      data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, date: '2025-11-03', amount, referenceNumber: QR_REF },
    });
    await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
    uuids.push(created.body.uuid);
  }
  const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids }, executionDate: '2025-11-25' });
  expect(group.status).toBe(200);
  return group.body;
}

/** A camt.054.001.08 debit notification for our account, one entry per [end-to-end id, amount, bank ref]. */
function camt054(messageId: string, debits: [string, string, string][]): string {
  const entries = debits
    .map(
      ([e2e, amount, ref]) => `<Ntry><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2025-11-25</Dt></BookgDt><ValDt><Dt>2025-11-25</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd>
<RltdPties><Cdtr><Pty><Nm>Muster Lieferant AG</Nm></Pty></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2025-11-25T18:00:00</CreDtTm></GrpHdr>
<Ntfctn><Id>${messageId}-1</Id><CreDtTm>2025-11-25T18:00:00</CreDtTm><Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
${entries}
</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

const importFile = (w: PayablesWorkplace, xml: string, query = '') =>
  w.api.request('POST', `/api/banking/integrations/transactions${query}`, xml, { 'content-type': 'application/xml' });

async function balances(w: PayablesWorkplace) {
  const balance = await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' });
  const of = (n: string) => balance.body.accounts.find((a: any) => a.number === n)?.balance ?? '0.00';
  return { bank: of('1020'), payables: of('2000') };
}

async function bankRows(w: PayablesWorkplace) {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ n: string; files: string; entries: string }>(
      'SELECT (SELECT count(*) FROM bank_transaction) AS n, (SELECT count(*) FROM bank_file) AS files, (SELECT count(*) FROM journal_entry) AS entries',
    ),
  );
  return row!;
}

describe('camt.054 import', () => {
  it('books the payments of a group once, however often the file comes', async () => {
    const group = await groupOf(wp, ['1081.00', '540.50']);
    // By amount: the end-to-end id and the amount must name the same bill (the group lists its bills in its own order).
    const [a, b] = ['1081.00', '540.50'].map((amount) => group.Payable.find((p: any) => p.amount === amount));
    const xml = camt054('NTF-1', [
      [a.uuid.replace(/-/g, ''), '1081.00', 'BANKREF-1'],
      [b.uuid.replace(/-/g, ''), '540.50', 'BANKREF-2'],
      ['SOMETHINGELSE', '12.00', 'BANKREF-3'],
    ]);
    expect(await xsdErrors(xml, 'camt.054.001.08.xsd')).toEqual([]);

    const imported = await importFile(wp, xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body, JSON.stringify(imported.body.transactions)).toMatchObject({ kind: 'camt.054', duplicateFile: false, imported: 3, duplicates: 0, matched: 2 });
    const detail = await wp.api.post('/api/transaction-group/detail', { id: group.id });
    expect(detail.body).toMatchObject({ status: 2, bankStatus: 2, paidDate: '2025-11-25' });
    expect(detail.body.Payable.map((p: any) => p.status)).toEqual([4, 4]);
    expect(await balances(wp)).toEqual({ bank: '-1621.50', payables: '0.00' });

    const again = await importFile(wp, xml);
    expect(again.body).toMatchObject({ duplicateFile: true, imported: 0, duplicates: 3 });
    // Same bank references in another file: the unique key refuses them one by one.
    const renamed = await importFile(wp, camt054('NTF-2', [[a.uuid.replace(/-/g, ''), '1081.00', 'BANKREF-1']]));
    expect(renamed.body).toMatchObject({ duplicateFile: false, imported: 0, duplicates: 1 });
    expect(await balances(wp)).toEqual({ bank: '-1621.50', payables: '0.00' });
    expect((await bankRows(wp)).n).toBe('3');
  });

  it('imports nothing when one entry of the file is bad (one transaction per file)', async () => {
    const before = await bankRows(wp);
    const bad = camt054('NTF-BAD', [
      ['X1', '10.00', 'BAD-1'],
      ['X2', '10.00', 'BAD-2'],
    ]).replace('<BookgDt><Dt>2025-11-25</Dt></BookgDt><ValDt><Dt>2025-11-25</Dt></ValDt><AcctSvcrRef>BAD-2', '<BookgDt><Dt>2025-13-45</Dt></BookgDt><ValDt><Dt>2025-11-25</Dt></ValDt><AcctSvcrRef>BAD-2');
    const response = await importFile(wp, bad);
    expect(response.status).toBe(400);
    expect(await bankRows(wp)).toEqual(before);
  });

  it('refuses the genkgo camt.053 v8 on another account naming both IBANs, then for its balances, and unknown accounts', async () => {
    const xml = isoFixture('camt/genkgo_camt053.v8.xml');
    expect((await importFile(wp, xml)).body.fields).toHaveProperty('file');
    const bank = await wp.account('1020');
    const before = await bankRows(wp);
    const wrong = await importFile(wp, xml, `?account=${bank}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.file).toContain('NL26VAYB8060476890');
    expect(wrong.body.fields.file).toContain(OWN_IBAN);
    expect(await bankRows(wp)).toEqual(before);
    // The statement's IBAN is a payment profile of the own company on 1020: now it belongs there.
    await server.db.withInstance(wp.instanceId, async (tx) => {
      const own = await ownCompanyUuid(tx, wp.instanceId);
      await createPaymentProfile(tx, wp.instanceId, { companyUuid: own!, accountId: bank, typeId: 1, iban: 'NL26VAYB8060476890', bic: null });
    });
    // Now on the right account, but genkgo's test statement does not add up (opening 18.15 EUR + 8.85 ≠ closing DBIT 27.00 SEK): refused with the figures.
    const imported = await importFile(wp, xml, `?account=${bank}`);
    expect(imported.status).toBe(400);
    expect(imported.body.fields.file).toMatch(/does not add up: opening balance 18\.15 \+ booked entries 8\.85 = 27\.00, but its closing balance is -27\.00/);
    expect(await bankRows(wp)).toEqual(before);
  });

  it('answers 400 on file for other content, 401 and 403', async () => {
    for (const body of ['<x/>', 'not xml', '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>']) {
      const response = await importFile(wp, body);
      expect(response.status).toBe(400);
      expect(response.body.fields).toHaveProperty('file');
      expect(response.body.code).toBe('bank_file_invalid');
    }
    const xml = camt054('NTF-X', [['X', '1.00', 'R']]);
    expect((await new Client(server.baseUrl).request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' })).status).toBe(401);
    expect((await importFile(viewer, xml)).status).toBe(403);
  });
});

describe('pain.002 import', () => {
  it('sets the bank status, reopens a rejected bill and reverses its payment', async () => {
    const group = await groupOf(wp, ['100.00', '200.00']);
    const a = group.Payable.find((p: any) => p.amount === '100.00');
    const b = group.Payable.find((p: any) => p.amount === '200.00');
    const e2e = (uuid: string) => uuid.replace(/-/g, '');
    await wp.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 });
    await wp.api.post('/api/transaction-group/status/change', { id: group.id, status: 2, date: '2025-11-26' });
    const before = await balances(wp);

    const report = pain002({ version: '10', original: e2e(group.uuid), group: 'PART', txs: [[e2e(a.uuid), 'ACCP'], [e2e(b.uuid), 'RJCT', 'AC01']] });
    const imported = await importFile(wp, report);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ kind: 'pain.002', accepted: 1, rejected: 1, transactionGroup: { id: group.id, bankStatus: 5 }, reopened: [{ id: b.id, reason: 'AC01 IBAN wrong' }] });
    expect((await wp.api.post('/api/payable/detail', { uuid: b.uuid })).body).toMatchObject({ status: 2, transactionGroup: null, bankTxStatus: 'rejected', bankReason: 'AC01 IBAN wrong', paymentEntry: null });
    expect((await wp.api.post('/api/payable/detail', { uuid: a.uuid })).body).toMatchObject({ status: 4, bankTxStatus: 'accepted' });
    const after = await balances(wp);
    // The refused 200.00 is back on payables and in the bank.
    expect(Number(after.bank) - Number(before.bank)).toBeCloseTo(200, 2);
    expect(Number(after.payables) - Number(before.payables)).toBeCloseTo(-200, 2);
    expect((await importFile(wp, report)).body).toMatchObject({ duplicateFile: true, rejected: 0 });
  });

  it('a fully rejected pain.001.001.03 report denies the group; unknown groups answer 400', async () => {
    const group = await groupOf(wp, ['50.00']);
    const report = pain002({ version: '03', original: group.uuid.replace(/-/g, ''), group: 'RJCT', txs: [] });
    const imported = await importFile(wp, report);
    expect(imported.body).toMatchObject({ rejected: 1, transactionGroup: { status: 3, bankStatus: 4 } });
    const unknown = await importFile(other, report);
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toHaveProperty('file');
  });
});

describe('pain.002 block and group statuses', () => {
  const e2e = (uuid: string) => uuid.replace(/-/g, '');

  /** A group of three bills, two to be executed on the 25th and one on the 30th, and its pain.001 block ids by date. */
  async function twoDateGroup(w: PayablesWorkplace) {
    const uuids = [];
    for (const amount of ['10.00', '20.00', '30.00']) {
      const created = await w.api.post('/api/payable/insert', {
        data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, date: '2025-11-03', amount, referenceNumber: QR_REF },
      });
      await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
      uuids.push(created.body.uuid as string);
    }
    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids, executionDates: ['2025-11-25', '2025-11-25', '2025-11-30'] } });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    const file = await w.api.post('/api/transaction-group/pain001', { id: group.body.id });
    expect(await xsdErrors(file.body)).toEqual([]);
    const blockIds = [...(file.body as string).matchAll(/<PmtInfId>([^<]+)<\/PmtInfId>\s*<PmtMtd>TRF<\/PmtMtd>[\s\S]*?<ReqdExctnDt>\s*<Dt>([^<]+)<\/Dt>/g)].map((m) => [m[2], m[1]]);
    const byAmount = Object.fromEntries(group.body.Payable.map((p: any) => [p.amount, p]));
    return { group: group.body, blockOf: Object.fromEntries(blockIds) as Record<string, string>, byAmount };
  }

  it.each(['03', '10'])('pain.002.001.%s: a rejected block without transaction lines rejects every bill of that block with its reason', async (version) => {
    const w = await payablesWorkplace(server);
    const { group, blockOf, byAmount } = await twoDateGroup(w);
    expect(Object.keys(blockOf).sort()).toEqual(['2025-11-25', '2025-11-30']);
    const report = pain002({
      version,
      original: e2e(group.uuid),
      group: 'PART',
      blocks: [
        { id: blockOf['2025-11-25']!, status: 'RJCT', reason: 'AM04' },
        { id: blockOf['2025-11-30']!, status: 'ACCP' },
      ],
    });
    const imported = await importFile(w, report);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ accepted: 1, rejected: 2, transactionGroup: { id: group.id, status: 4, bankStatus: 5 } });
    expect(imported.body.reopened.map((r: any) => r.reason)).toEqual(['AM04 Block refused', 'AM04 Block refused']);
    for (const amount of ['10.00', '20.00']) {
      expect((await w.api.post('/api/payable/detail', { uuid: byAmount[amount].uuid })).body).toMatchObject({
        status: 2,
        transactionGroup: null,
        executionDate: null,
        bankTxStatus: 'rejected',
        bankReason: 'AM04 Block refused',
      });
    }
    expect((await w.api.post('/api/payable/detail', { uuid: byAmount['30.00'].uuid })).body).toMatchObject({ status: 3, bankTxStatus: 'accepted' });
  });

  it.each(['03', '10'])('pain.002.001.%s: a group already marked paid whose bills are all rejected is denied, its bills reopen and the payments are reversed', async (version) => {
    const w = await payablesWorkplace(server);
    const { group, byAmount } = await twoDateGroup(w);
    const paidOn = '2025-12-01';
    const bankBefore = (await balances(w)).bank;
    await w.api.post('/api/transaction-group/status/change', { id: group.id, status: 4 });
    const paid = await w.api.post('/api/transaction-group/status/change', { id: group.id, status: 2, date: paidOn });
    expect(paid.body).toMatchObject({ status: 2, paidDate: paidOn });
    expect((await balances(w)).payables).toBe('0.00');

    // The whole file refused at group level, reason on the group, no block or transaction lines.
    const report = pain002({ version, original: e2e(group.uuid), group: 'RJCT', groupReason: 'DU01', blocks: [], messageId: `STS-PAID-${version}` });
    const imported = await importFile(w, report);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ rejected: 3, accepted: 0, transactionGroup: { status: 3, bankStatus: 4 } });
    const detail = (await w.api.post('/api/transaction-group/detail', { id: group.id })).body;
    expect(detail).toMatchObject({ status: 3, statusName: 'denied', paidDate: null, count: 0 });
    for (const bill of Object.values(byAmount) as any[]) {
      expect((await w.api.post('/api/payable/detail', { uuid: bill.uuid })).body).toMatchObject({ status: 2, paymentEntry: null, bankTxStatus: 'rejected', bankReason: 'DU01 File refused' });
    }
    // The books never show the refused payments: reversed at the payment date, so even that day's balance is untouched.
    expect(await balances(w)).toEqual({ bank: bankBefore, payables: '-60.00' });
    const atPaymentDate = await w.api.post('/api/accounting/balance/get', { date: paidOn });
    expect(atPaymentDate.body.accounts.find((a: any) => a.number === '2000').balance).toBe('-60.00');
    const [reversals] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ n: number }>("SELECT count(*)::int AS n FROM journal_entry WHERE description LIKE '%rejected by the bank (DU01 File refused)%' AND date_ledger = $1", [paidOn]),
    );
    expect(reversals!.n).toBe(3);
  });
});

describe('POST /api/banking/integrations/reconcile', () => {
  it('compares the statement balance with the ledger and books an unmatched transaction', async () => {
    const w = await payablesWorkplace(server);
    const bank = await w.account('1020');
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt>
<GrpHdr><MsgId>STMT-1</MsgId><CreDtTm>2025-11-30T20:00:00</CreDtTm></GrpHdr><Stmt><Id>STMT-1-1</Id><CreDtTm>2025-11-30T20:00:00</CreDtTm>
<Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-11-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">250.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-11-30</Dt></Dt></Bal>
<Ntry><Amt Ccy="CHF">250.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2025-11-20</Dt></BookgDt><AcctSvcrRef>IN-1</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    expect(await xsdErrors(xml, 'camt.053.001.04.xsd')).toEqual([]);
    const imported = await importFile(w, xml);
    expect(imported.body).toMatchObject({ kind: 'camt.053', imported: 1, matched: 0 });

    const before = await w.api.post('/api/banking/integrations/reconcile', { account: { id: bank } });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ statement: { balance: '250.00', date: '2025-11-30' }, ledgerBalance: '0.00', difference: '250.00' });
    expect(before.body.unmatched).toHaveLength(1);

    const revenue = await w.account('3400');
    const booked = await w.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: before.body.unmatched[0].id }, counterAccount: { id: revenue } });
    expect(booked.body).toMatchObject({ ledgerBalance: '250.00', difference: '0.00', unmatched: [] });
    const again = await w.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: before.body.unmatched[0].id }, counterAccount: { id: revenue } });
    expect(again.status).toBe(409);
    const noCounterAccount = await w.api.post('/api/banking/integrations/reconcile', { account: { id: bank }, bankTransaction: { id: 1 } });
    expect(noCounterAccount.status).toBe(400);
    expect(noCounterAccount.body.code).toBe('counter_account_required');
    const unknownAccount = await other.api.post('/api/banking/integrations/reconcile', { account: { id: 99999 } });
    expect(unknownAccount.status).toBe(404);
    expect(unknownAccount.body).toMatchObject({ code: 'ledger_account_not_found', error: 'Ledger account 99999 not found' });
    expect((await viewer.api.post('/api/banking/integrations/reconcile', { account: { id: bank } })).status).toBe(403);
  });
});
