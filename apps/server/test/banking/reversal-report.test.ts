/**
 * Issue 14 §2, §3 on both engines: a credit that paid an invoice (QR reference) and the bank's
 * reversal of it (RvslInd) reopen the invoice and reverse its payment posting; a camt.052 account
 * report is read as a statement (its lines reconcile against the books like a camt.053's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';

const OWN_IBAN = 'CH9300762011623852957';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

type Entry = { dir: 'CRDT' | 'DBIT'; amount: string; ref: string; date: string; qrr?: string; reversal?: boolean };

/** A camt.053 (or camt.052 account report) of the own account, OPBD `opening`, CLBD `closing`. */
function bankFile(kind: '052' | '053', id: string, opening: string, closing: string, entries: Entry[]): string {
  const [message, record] = kind === '053' ? ['BkToCstmrStmt', 'Stmt'] : ['BkToCstmrAcctRpt', 'Rpt'];
  const bal = (type: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${amount.replace('-', '')}</Amt><CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const body = entries
    .map((e) => {
      const rmt = e.qrr ? `<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>QRR</Prtry></CdOrPrtry></Tp><Ref>${e.qrr}</Ref></CdtrRefInf></Strd></RmtInf>` : '';
      return `<Ntry><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd>${e.reversal ? '<RvslInd>true</RvslInd>' : ''}<Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt><AcctSvcrRef>${e.ref}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.dir === 'CRDT' ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd>${rmt}</TxDtls></NtryDtls></Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.08"><${message}>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>2025-04-30T20:00:00</CreDtTm></GrpHdr>
<${record}><Id>${id}-1</Id><CreDtTm>2025-04-30T20:00:00</CreDtTm><Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
${bal('OPBD', opening, '2025-04-01')}${bal('CLBD', closing, '2025-04-30')}
${body}
</${record}></${message}></Document>`;
}

const importFile = (xml: string) => wp.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });

describe('reversal of an invoice payment, camt.052', () => {
  let bank: number;

  it('a reversed credit that paid an invoice reopens it and reverses its payment; the ledger equals the closing balance', async () => {
    const created = await wp.api.post('/api/invoice/insert', { data: invoiceData(wp) });
    const sent = await wp.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { paymentReference, totals } = sent.body as { paymentReference: string; totals: { total: string } };
    const paid = await importFile(bankFile('053', 'INV-R1', '0.00', totals.total, [{ dir: 'CRDT', amount: totals.total, ref: 'INV-P1', date: '2025-04-10', qrr: paymentReference }]));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ kind: 'camt.053', matched: 1, booked: 1 });
    expect((await wp.api.post('/api/invoice/detail', { id: created.body.uuid })).body.status).toBe(3);

    // The bank takes the credit back (RvslInd on a debit of the same amount and reference).
    const reversed = await importFile(bankFile('053', 'INV-R2', totals.total, '0.00', [{ dir: 'DBIT', amount: totals.total, ref: 'INV-P1-R', date: '2025-04-20', qrr: paymentReference, reversal: true }]));
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body).toMatchObject({ matched: 1 });
    const invoice = (await wp.api.post('/api/invoice/detail', { id: created.body.uuid })).body;
    expect(invoice.status).toBe(2);
    const [account] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ account_id: number }>('SELECT account_id FROM bank_file WHERE message_id = $1', ['INV-R2']));
    bank = account!.account_id;
    const view = await wp.api.get(`/api/banking/integrations/reconcile?account=${bank}&date=2025-04-30`);
    expect(view.body.summary).toMatchObject({ statementBalance: '0.00', ledgerBalance: '0.00', difference: '0.00', unreconciled: '0.00', gap: '0.00' });
  });

  it('reads a camt.052 account report as a statement: its line matches the posting already in the books', async () => {
    const [equity] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE number = '2800'"));
    const entry = await wp.api.post('/api/accounting/entry/insert', {
      data: { dateLedger: '2025-04-25', description: 'Einlage', entryAccounts: [{ account: { id: bank }, amount: '75.00', direction: 1 }, { account: { id: equity!.id }, amount: '75.00', direction: -1 }] },
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(200);
    const report = await importFile(bankFile('052', 'RPT-1', '0.00', '75.00', [{ dir: 'CRDT', amount: '75.00', ref: 'RPT-L1', date: '2025-04-25' }]));
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body).toMatchObject({ kind: 'camt.052', imported: 1, matched: 1, known: 1, booked: 0 });
    // Another version is refused naming it.
    const v2 = await importFile(bankFile('052', 'RPT-2', '0.00', '1.00', [{ dir: 'CRDT', amount: '1.00', ref: 'RPT-L2', date: '2025-04-26' }]).replace('camt.052.001.08', 'camt.052.001.02'));
    expect(v2.status).toBe(400);
    expect(v2.body.fields.file).toContain('.001.02');
  });
});

describe('charges account setting', () => {
  it('books bank charges to the account chosen in the banking settings (default 6940), refuses an unknown account', async () => {
    const before = await wp.api.get('/api/banking/settings');
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.chargesAccount.number).toBe('6940');
    const [other] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE number = '6900'"));
    const unknown = await wp.api.post('/api/banking/settings/update', { chargesAccount: { id: 999999 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toHaveProperty(['chargesAccount.id']);
    const set = await wp.api.post('/api/banking/settings/update', { chargesAccount: { id: other!.id } });
    expect(set.body.chargesAccount).toMatchObject({ id: other!.id, number: '6900' });
    // An entry of 20.00 whose one transaction is 18.50 with 1.50 charges.
    const xml = bankFile('053', 'CHG-1', '75.00', '55.00', [{ dir: 'DBIT', amount: '20.00', ref: 'CHG-L1', date: '2025-04-28' }]).replace(
      '<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="CHF">20.00</Amt>',
      '<Chrgs><TtlChrgsAndTaxAmt Ccy="CHF">1.50</TtlChrgsAndTaxAmt><Rcrd><Amt Ccy="CHF">1.50</Amt><CdtDbtInd>DBIT</CdtDbtInd></Rcrd></Chrgs><NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="CHF">18.50</Amt>',
    );
    const imported = await importFile(xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.transactions.map((t: any) => [t.kind, t.amount, t.matched])).toEqual([
      ['payment', '18.50', false],
      ['charges', '1.50', true],
    ]);
    const balance = await wp.api.post('/api/accounting/balance/get', { date: '2025-04-30' });
    expect(balance.body.accounts.find((a: any) => a.number === '6900')?.balance).toBe('1.50');
  });
});
