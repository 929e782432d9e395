/**
 * Bank reconciliation against the books (issue 14 §1–§3): a camt.053 whose lines are already booked
 * (by camt.054 and by hand) is matched and books nothing twice; a batch entry with several TxDtls and
 * its charges; a reversal reopening the bill; wrong account, unknown version, DOCTYPE, broken file;
 * manual match / unmatch / ignore / un-ignore, delete of an import; parallel identical matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace, QR_REF, type PayablesWorkplace } from '../payables/setup.js';
import { camt054, xsdErrors } from './xsd.js';
import { postJournalEntry, upsertLedgerAccount } from '../../src/modules/accounting/accounting.service.js';
import { createPaymentProfile } from '../../src/modules/companies/companies.service.js';
import { ownCompanyUuid } from '../../src/modules/instances/instances.service.js';

let server: TestServer;
let wp: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
});
afterAll(async () => server?.close());

const OWN_IBAN = 'CH9300762011623852957';

type Entry = { dir: 'CRDT' | 'DBIT'; amount: string; ref: string; date: string; details?: { amount: string; e2e?: string }[]; charges?: string; reversal?: boolean; e2e?: string };

/** A camt.053 (version `version`) of our account: OPBD `opening`, the entries, CLBD `closing`. */
function camt053(id: string, opening: string, closing: string, entries: Entry[], version = '08', iban = OWN_IBAN): string {
  const bal = (type: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${amount.replace('-', '')}</Amt><CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const body = entries
    .map((e) => {
      const details = (e.details ?? [{ amount: e.amount, e2e: e.e2e }])
        .map((d) => `<TxDtls><Refs><EndToEndId>${d.e2e ?? 'NOTPROVIDED'}</EndToEndId></Refs><Amt Ccy="CHF">${d.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd></TxDtls>`)
        .join('');
      const charges = e.charges ? `<Chrgs><TtlChrgsAndTaxAmt Ccy="CHF">${e.charges}</TtlChrgsAndTaxAmt><Rcrd><Amt Ccy="CHF">${e.charges}</Amt><CdtDbtInd>DBIT</CdtDbtInd></Rcrd></Chrgs>` : '';
      return `<Ntry><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd>${e.reversal ? '<RvslInd>true</RvslInd>' : ''}<Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt><AcctSvcrRef>${e.ref}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.dir === 'CRDT' ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>${charges}
<NtryDtls>${details}</NtryDtls></Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>2025-11-30T20:00:00</CreDtTm></GrpHdr>
<Stmt><Id>${id}-1</Id><CreDtTm>2025-11-30T20:00:00</CreDtTm><Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>CHF</Ccy></Acct>
${bal('OPBD', opening, '2025-11-01')}${bal('CLBD', closing, '2025-11-30')}
${body}
</Stmt></BkToCstmrStmt></Document>`;
}

const importFile = (xml: string, query = '') => wp.api.request('POST', `/api/banking/integrations/transactions${query}`, xml, { 'content-type': 'application/xml' });

async function entryCount() {
  const [row] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ n: string }>('SELECT count(*) AS n FROM journal_entry'));
  return Number(row!.n);
}

describe('camt.053 against the books', () => {
  let bank: number;
  let bills: { uuid: string; id: number }[];
  let statementFile: number;
  let manualLine: number;

  it('matches a statement whose lines camt.054 and a person booked already, books only the charges, and the ledger equals the closing balance', async () => {
    bank = await wp.account('1020');
    const equity = await wp.account('2800');
    const revenue = await wp.account('3200');
    await server.db.withInstance(wp.instanceId, async (tx) => {
      await postJournalEntry(tx, wp.instanceId, null, { dateLedger: '2025-10-31', description: 'Opening', lines: [{ accountId: bank, amount: '1000.00', direction: 1 }, { accountId: equity, amount: '1000.00', direction: -1 }] });
      await postJournalEntry(tx, wp.instanceId, null, { dateLedger: '2025-11-10', description: 'Cash sale paid in by hand', lines: [{ accountId: bank, amount: '150.00', direction: 1 }, { accountId: revenue, amount: '150.00', direction: -1 }] });
    });
    const uuids = [];
    for (const amount of ['300.00', '200.00']) {
      const created = await wp.api.post('/api/payable/insert', { data: { company: { uuid: wp.supplier.uuid }, companyFinance: { id: wp.supplier.qrProfile }, date: '2025-11-03', amount, referenceNumber: QR_REF } });
      await wp.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
      uuids.push(created.body.uuid as string);
    }
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids }, executionDate: '2025-11-25' });
    expect(group.status).toBe(200);
    // In the order created: bills[0] is the 300.00 bill.
    bills = uuids.map((uuid) => ({ uuid, id: group.body.Payable.find((p: any) => p.uuid === uuid).id }));
    const e2e = bills.map((b) => b.uuid.replace(/-/g, ''));
    // The bank notifies each payment (camt.054, its own references): both bills paid and booked.
    const notice = camt054('NTF-R1', OWN_IBAN, [
      { direction: 'DBIT', amount: '300.00', bankRef: 'N-1', endToEndId: e2e[0] },
      { direction: 'DBIT', amount: '200.00', bankRef: 'N-2', endToEndId: e2e[1] },
    ]);
    expect((await importFile(notice)).body).toMatchObject({ kind: 'camt.054', matched: 2 });
    const before = await entryCount();
    // The month's statement: one batch debit of 505.65 (300 + 200 + 5.65 charges) and the 150 credit booked by hand.
    const xml = camt053('STM-R1', '1000.00', '644.35', [
      { dir: 'DBIT', amount: '505.65', ref: 'S-1', date: '2025-11-25', charges: '5.65', details: [{ amount: '300.00', e2e: e2e[0] }, { amount: '200.00', e2e: e2e[1] }] },
      { dir: 'CRDT', amount: '150.00', ref: 'S-2', date: '2025-11-12' },
    ]);
    expect(await xsdErrors(xml, 'camt.053.001.08.xsd')).toEqual([]);
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ kind: 'camt.053', imported: 4, matched: 4, known: 3, booked: 1 });
    expect(imported.body.transactions.map((t: any) => [t.kind, t.amount, t.known])).toEqual([
      ['payment', '300.00', true],
      ['payment', '200.00', true],
      ['charges', '5.65', false],
      ['payment', '150.00', true],
    ]);
    statementFile = imported.body.file.id;
    manualLine = imported.body.transactions[3].id;
    expect(await entryCount()).toBe(before + 1);
    const view = await wp.api.get(`/api/banking/integrations/reconcile?account=${bank}&date=2025-11-30`);
    expect(view.status).toBe(200);
    expect(view.body.unmatched).toEqual([]);
    expect(view.body.summary).toMatchObject({ statementBalance: '644.35', ledgerBalance: '644.35', difference: '0.00', unreconciled: '0.00', reconciled: '-355.65' });
    // What the page lists to unmatch and to delete: the statement's four lines, the camt.054's two.
    expect(view.body.files.map((f: any) => [f.kind, f.messageId, f.lines, f.reconciled])).toEqual([
      ['camt.053', 'STM-R1', 4, 4],
      ['camt.054', 'NTF-R1', 2, 2],
    ]);
    expect(view.body.reconciledLines).toHaveLength(6);
    expect(view.body.reconciledLines.find((l: any) => l.kind === 'charges')).toMatchObject({ amount: '5.65', statement: true, postings: 1 });
    const balance = await wp.api.post('/api/accounting/balance/get', { date: '2025-11-30' });
    expect(balance.body.accounts.find((a: any) => a.number === '6940')?.balance).toBe('5.65');
    // The same statement again books nothing.
    expect((await importFile(xml)).body).toMatchObject({ duplicateFile: true, imported: 0 });
    expect(await entryCount()).toBe(before + 1);
  });

  it('unmatches, ignores, un-ignores and matches by hand, each audited; parallel identical matches reconcile once', async () => {
    const unmatched = await wp.api.post('/api/banking/integrations/reconcile/unmatch', { bankTransaction: { id: manualLine } });
    expect(unmatched.status, JSON.stringify(unmatched.body)).toBe(200);
    expect(unmatched.body.unmatched.map((l: any) => l.id)).toEqual([manualLine]);
    expect(unmatched.body.summary).toMatchObject({ unreconciled: '150.00', difference: '0.00' });
    const posting = unmatched.body.openPostings.find((p: any) => p.amount === '150.00' && p.direction === 1);
    expect(posting).toBeDefined();
    expect((await wp.api.post('/api/banking/integrations/reconcile/ignore', { bankTransaction: { id: manualLine }, reason: '' })).status).toBe(400);
    const ignored = await wp.api.post('/api/banking/integrations/reconcile/ignore', { bankTransaction: { id: manualLine }, reason: 'booked by hand' });
    expect(ignored.body.ignored).toMatchObject([{ id: manualLine, reason: 'booked by hand' }]);
    expect((await wp.api.post('/api/banking/integrations/reconcile/ignore', { bankTransaction: { id: manualLine }, reason: 'again' })).status).toBe(409);
    expect((await wp.api.post('/api/banking/integrations/reconcile/unignore', { bankTransaction: { id: manualLine } })).status).toBe(200);
    const wrongSum = await wp.api.post('/api/banking/integrations/reconcile/postings', { bankTransactions: [{ id: manualLine }], postings: [{ id: posting.lineId }, { id: 999999 }] });
    expect(wrongSum.status).toBe(400);
    expect(wrongSum.body.fields).toHaveProperty('postings');
    const calls = await Promise.all(
      Array.from({ length: 20 }, () => wp.api.post('/api/banking/integrations/reconcile/postings', { bankTransactions: [{ id: manualLine }], postings: [{ id: posting.lineId }] })),
    );
    expect(calls.filter((c) => c.status === 200)).toHaveLength(1);
    expect(calls.filter((c) => c.status !== 200).every((c) => c.status === 409)).toBe(true);
    const [claims] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ n: string; events: string }>(
        `SELECT (SELECT count(*) FROM bank_match_posting WHERE journal_line_id = $1) AS n,
                (SELECT count(*) FROM audit_event WHERE instance_id = $2 AND event LIKE 'bank_line.%') AS events`,
        [posting.lineId, wp.instanceId],
      ),
    );
    expect(claims).toEqual({ n: '1', events: '4' });
    // A statement with reconciled lines is not deleted.
    const refused = await wp.api.post('/api/banking/integrations/file/delete', { id: statementFile });
    expect(refused.status).toBe(409);
  });

  it('a reversal of a bill payment reopens the bill and reverses its payment', async () => {
    const e2e = bills[0]!.uuid.replace(/-/g, '');
    const xml = camt053('STM-R2', '644.35', '944.35', [{ dir: 'CRDT', amount: '300.00', ref: 'S-3', date: '2025-11-28', reversal: true, e2e }]);
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ matched: 1, booked: 1 });
    const bill = await wp.api.post('/api/payable/detail', { uuid: bills[0]!.uuid });
    expect(bill.body.status).toBe(2);
    const view = await wp.api.get(`/api/banking/integrations/reconcile?account=${bank}&date=2025-11-30`);
    expect(view.body.summary).toMatchObject({ statementBalance: '944.35', ledgerBalance: '944.35', difference: '0.00', gap: '0.00' });
  });

  it('refuses a statement of another IBAN, an unknown version, a DOCTYPE, a broken file and balances that do not add up, writing nothing', async () => {
    const before = await entryCount();
    const other = await importFile(camt053('STM-X1', '0', '10.00', [{ dir: 'CRDT', amount: '10.00', ref: 'X-1', date: '2025-11-28' }], '08', 'NL56AGDH9619008421'), `?account=${bank}`);
    expect(other.status).toBe(400);
    expect(other.body.fields.file).toContain('NL56AGDH9619008421');
    expect(other.body.fields.file).toContain(OWN_IBAN);
    const v99 = await importFile(camt053('STM-X2', '0', '10.00', [{ dir: 'CRDT', amount: '10.00', ref: 'X-2', date: '2025-11-28' }], '99'));
    expect(v99.body.fields.file).toBe('This camt.053 file is version .001.99; Bilan reads camt.053 only in versions .001.04 and .001.08');
    const doctype = await importFile(camt053('STM-X3', '0', '10.00', []).replace('<Document', '<!DOCTYPE x [<!ENTITY a "b">]>\n<Document'));
    expect(doctype.body.fields.file).toMatch(/DOCTYPE/);
    const pain = await importFile('<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>');
    expect(pain.body.fields.file).toBe('This is not a camt.053, camt.054 or pain.002 file: found <pain.001> at line 2');
    const broken = await importFile(camt053('STM-X4', '0', '10.00', []).replace('</Stmt>', ''));
    expect(broken.body.fields.file).toMatch(/^This camt\.053 file is broken: it is not well-formed XML/);
    expect(broken.body.fields.file).not.toMatch(/Invalid|found\.:/);
    const sums = await importFile(camt053('STM-X5', '944.35', '1.00', [{ dir: 'CRDT', amount: '10.00', ref: 'X-5', date: '2025-11-28' }]));
    expect(sums.body.fields.file).toMatch(/opening balance 944\.35 \+ booked entries 10\.00 = 954\.35, but its closing balance is 1\.00/);
    expect(await entryCount()).toBe(before);
  });

  it('deletes a statement import none of whose lines is reconciled', async () => {
    const imported = await importFile(camt053('STM-D1', '944.35', '954.35', [{ dir: 'CRDT', amount: '10.00', ref: 'D-1', date: '2025-12-01' }]));
    expect(imported.body).toMatchObject({ imported: 1, matched: 0 });
    const deleted = await wp.api.post('/api/banking/integrations/file/delete', { id: imported.body.file.id });
    expect(deleted.body).toMatchObject({ kind: 'camt.053', lines: 1 });
    expect((await wp.api.post('/api/banking/integrations/file/delete', { id: imported.body.file.id })).status).toBe(404);
  });
});

describe('end-to-end id with another amount', () => {
  it('a 300.00 debit carrying the end-to-end id of a 200.00 bill in a group settles nothing and says why', async () => {
    const uuids: string[] = [];
    for (const amount of ['200.00', '250.00']) {
      const created = await wp.api.post('/api/payable/insert', { data: { company: { uuid: wp.supplier.uuid }, companyFinance: { id: wp.supplier.qrProfile }, date: '2025-12-03', amount, referenceNumber: QR_REF } });
      await wp.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
      uuids.push(created.body.uuid as string);
    }
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids }, executionDate: '2025-12-05' });
    expect(group.status).toBe(200);
    const before = await entryCount();
    const notice = camt054('NTF-E2E-300', OWN_IBAN, [{ direction: 'DBIT', amount: '300.00', bankRef: 'N-E2E-300', endToEndId: uuids[0]!.replace(/-/g, '') }]);
    const imported = await importFile(notice);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ kind: 'camt.054', matched: 0 });
    expect(imported.body.transactions[0].reason).toMatch(/names bill \d+ of 200\.00 CHF, the debit is 300\.00 CHF/);
    expect(await entryCount()).toBe(before);
    const bill = await wp.api.post('/api/payable/detail', { uuid: uuids[0] });
    expect(bill.body.status).toBe(3);
    // The right amount with the same end-to-end id still pays it.
    const right = await importFile(camt054('NTF-E2E-200', OWN_IBAN, [{ direction: 'DBIT', amount: '200.00', bankRef: 'N-E2E-200', endToEndId: uuids[0]!.replace(/-/g, '') }]));
    expect(right.body).toMatchObject({ matched: 1 });
    expect((await wp.api.post('/api/payable/detail', { uuid: uuids[0] })).body.status).toBe(4);
  });
});

describe('batches and foreign currency already in the books', () => {
  it('a debit matches two postings of one day, or two postings of one entry, booking nothing', async () => {
    const bank = await wp.account('1020');
    const expense = await wp.account('6500');
    const post = (date: string, bankAmounts: string[]) =>
      server.db.withInstance(wp.instanceId, (tx) => {
        const total = bankAmounts.reduce((sum, a) => sum + Math.round(Number(a) * 100), 0);
        return postJournalEntry(tx, wp.instanceId, null, {
          dateLedger: date,
          description: `Paid by hand ${bankAmounts.join(' + ')}`,
          lines: [...bankAmounts.map((amount) => ({ accountId: bank, amount, direction: -1 as const })), { accountId: expense, amount: (total / 100).toFixed(2), direction: 1 }],
        });
      });
    // Two entries of one day (one batch debit two days later), and one entry of two bank postings beside a third of the same day.
    await post('2026-01-06', ['120.00']);
    await post('2026-01-06', ['80.00']);
    await post('2026-01-14', ['50.00', '25.00']);
    await post('2026-01-14', ['10.00']);
    const before = await entryCount();
    const xml = camt053('STM-B1', '0.00', '-285.00', [
      { dir: 'DBIT', amount: '200.00', ref: 'B-1', date: '2026-01-08' },
      { dir: 'DBIT', amount: '75.00', ref: 'B-2', date: '2026-01-14' },
      { dir: 'DBIT', amount: '10.00', ref: 'B-3', date: '2026-01-14' },
    ]);
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 3, matched: 3, known: 3, booked: 0 });
    expect(await entryCount()).toBe(before);
    const view = await wp.api.get(`/api/banking/integrations/reconcile?account=${bank}&date=2026-01-31`);
    const lines = view.body.reconciledLines.filter((l: any) => l.statement && l.bookingDate >= '2026-01-01');
    expect(lines.map((l: any) => [l.amount, l.postings]).sort()).toEqual([['10.00', 1], ['200.00', 2], ['75.00', 2]]);
  });

  it('an EUR account compares its lines with the postings in EUR, not their CHF value', async () => {
    const EUR_IBAN = 'CH5604835012345678009';
    const equity = await wp.account('2800');
    const eurBank = await server.db.withInstance(wp.instanceId, async (tx) => {
      const account = await upsertLedgerAccount(tx, wp.instanceId, { number: '1030', name: 'Bank EUR', currency: 'EUR', type: 1, functionType: 1 });
      await createPaymentProfile(tx, wp.instanceId, { companyUuid: (await ownCompanyUuid(tx, wp.instanceId))!, accountId: account.id, typeId: 1, iban: EUR_IBAN, bic: null });
      return account.id;
    });
    await server.db.withInstance(wp.instanceId, (tx) =>
      postJournalEntry(tx, wp.instanceId, null, {
        dateLedger: '2026-02-03',
        description: 'EUR paid in',
        lines: [
          { accountId: eurBank, direction: 1, currency: 'EUR', originalAmount: '500.00', exchangeRate: '0.95' },
          { accountId: equity, direction: -1, amount: '475.00' },
        ],
      }),
    );
    const before = await entryCount();
    const entry = (amount: string, ref: string) =>
      `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-02-04</Dt></BookgDt><ValDt><Dt>2026-02-04</Dt></ValDt>` +
      `<AcctSvcrRef>${ref}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
      `<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd></TxDtls></NtryDtls></Ntry>`;
    const bal = (type: string, amount: string) => `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-02-28</Dt></Dt></Bal>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>STM-EUR-1</MsgId><CreDtTm>2026-02-28T20:00:00</CreDtTm></GrpHdr>
<Stmt><Id>STM-EUR-1-1</Id><CreDtTm>2026-02-28T20:00:00</CreDtTm><Acct><Id><IBAN>${EUR_IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>
${bal('OPBD', '0.00')}${bal('CLBD', '542.00')}${entry('500.00', 'EUR-1')}${entry('42.00', 'EUR-2')}</Stmt></BkToCstmrStmt></Document>`;
    expect(await xsdErrors(xml, 'camt.053.001.08.xsd')).toEqual([]);
    const imported = await importFile(xml, `?account=${eurBank}`);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, matched: 1, known: 1, booked: 0 });
    expect(imported.body.transactions.map((t: any) => [t.amount, t.currency, t.known])).toEqual([
      ['500.00', 'EUR', true],
      ['42.00', 'EUR', false],
    ]);
    expect(await entryCount()).toBe(before);
    const view = await wp.api.get(`/api/banking/integrations/reconcile?account=${eurBank}&date=2026-02-28`);
    expect(view.status).toBe(200);
    expect(view.body.unmatched.map((l: any) => [l.amount, l.currency])).toEqual([['42.00', 'EUR']]);
  });
});
