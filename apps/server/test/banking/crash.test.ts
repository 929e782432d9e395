/**
 * Crash test (issue #5 §6): a server process killed (SIGKILL) in the middle of a statement import
 * leaves no half import, and importing the file again books each transaction once. The statement
 * opens with credits that pay sent invoices by their QR reference, so the killed import has already
 * BOOKED payments when it dies: none of them may survive, and the re-import books each exactly once.
 * PostgreSQL only: the killed process must not share the database files with the test (PGlite runs
 * in-process).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sumMoney, toFixedAmount } from '@bilan/domain';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { engine, freePort, openTestDatabase, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { xsdErrors } from './xsd.js';

const N = 4000;
/** Invoices paid by the first K credits of the statement. */
const K = 25;
const OWN_IBAN = 'CH9300762011623852957';

/** N booked credits; the first K pay invoice `payments[i]` (QR reference and total), the rest match nothing. */
function statement(payments: { reference: string; amount: string }[]): string {
  const amounts = Array.from({ length: N }, (_, i) => payments[i]?.amount ?? `${(i % 500) + 1}.05`);
  const entries = Array.from({ length: N }, (_, i) => {
    const pays = payments[i];
    const details = pays
      ? `<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="CHF">${pays.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Prtry>QRR</Prtry></CdOrPrtry></Tp><Ref>${pays.reference}</Ref></CdtrRefInf></Strd></RmtInf></TxDtls></NtryDtls>`
      : '';
    return `<Ntry><Amt Ccy="CHF">${amounts[i]}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2025-10-${String((i % 28) + 1).padStart(2, '0')}</Dt></BookgDt>
<AcctSvcrRef>CRASH-${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>${details}</Ntry>`;
  }).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt>
<GrpHdr><MsgId>CRASH-1</MsgId><CreDtTm>2025-10-31T20:00:00</CreDtTm></GrpHdr><Stmt><Id>CRASH-1-1</Id><CreDtTm>2025-10-31T20:00:00</CreDtTm>
<Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-10-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${toFixedAmount(sumMoney(amounts))}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-10-31</Dt></Dt></Bal>
${entries}</Stmt></BkToCstmrStmt></Document>`;
}

describe.skipIf(engine !== 'postgres')('a server killed during a camt import', () => {
  let server: TestServer;
  let url: string;
  let wp: InvoicingWorkplace;
  let invoices: { uuid: string; paymentReference: string; totals: { total: string } }[];
  beforeAll(async () => {
    const opened = await openTestDatabase();
    url = opened.url!;
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', BILAN_PUBLIC_URL: baseUrl, BILAN_WEB_DIST: join(tmpdir(), 'bilan-no-web'), LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, db: opened.db });
    await app.listen({ port, host: '127.0.0.1' });
    server = { app, db: opened.db, config, baseUrl, close: async () => (await app.close(), await opened.drop()) };
    wp = await invoicingWorkplace(server);
    invoices = [];
    for (let i = 0; i < K; i += 1) {
      const created = await wp.api.post('/api/invoice/insert', { data: invoiceData(wp) });
      const sent = await wp.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      invoices.push(sent.body);
    }
  });
  afterAll(async () => server?.close());

  const count = async () => {
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ n: string; files: string; entries: string; paid: string; sent: string; matched: string }>(
        `SELECT (SELECT count(*) FROM bank_transaction) AS n, (SELECT count(*) FROM bank_file) AS files,
                (SELECT count(*) FROM journal_entry) AS entries,
                (SELECT count(*) FROM invoice WHERE status_id = 3) AS paid, (SELECT count(*) FROM invoice WHERE status_id = 2) AS sent,
                (SELECT count(*) FROM bank_transaction WHERE matched_invoice_uuid IS NOT NULL) AS matched`,
      ),
    );
    return {
      transactions: Number(row!.n),
      files: Number(row!.files),
      entries: Number(row!.entries),
      paidInvoices: Number(row!.paid),
      sentInvoices: Number(row!.sent),
      matched: Number(row!.matched),
    };
  };

  it('leaves nothing behind, and the re-import books each transaction once', async () => {
    const xml = statement(invoices.map((invoice) => ({ reference: invoice.paymentReference, amount: invoice.totals.total })));
    expect(await xsdErrors(xml, 'camt.053.001.04.xsd')).toEqual([]);
    const before = await count();
    expect(before).toMatchObject({ transactions: 0, files: 0, paidInvoices: 0, sentInvoices: K, matched: 0 });
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'silent', BILAN_PUBLIC_URL: server.baseUrl, BILAN_WEB_DIST: join(tmpdir(), 'bilan-no-web') },
      stdio: 'ignore',
    });
    try {
      for (let i = 0; i < 200; i += 1) {
        const up = await fetch(`http://127.0.0.1:${port}/api/meta/version`).then((r) => r.ok, () => false);
        if (up) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const pending = fetch(`http://127.0.0.1:${port}/api/banking/integrations/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/xml' },
        body: xml,
      }).catch((error: unknown) => error);
      // The token's issuer is the public URL, shared by both servers. Kill it while the import's
      // transaction is running and after it has booked: its backend then holds a row-exclusive
      // lock on journal_entry (an uncommitted posting), while the import is still inserting.
      let booked = false;
      for (let i = 0; i < 500 && !booked; i += 1) {
        const rows = await server.db.asOwner((tx) =>
          tx.query(
            `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE c.relname = 'journal_entry' AND l.mode = 'RowExclusiveLock' AND a.datname = current_database()
                AND a.pid <> pg_backend_pid() AND a.state <> 'idle'`,
          ),
        );
        booked = rows.length > 0;
        if (!booked) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(booked).toBe(true);
      child.kill('SIGKILL');
      expect(await pending).toBeInstanceOf(Error);
    } finally {
      child.kill('SIGKILL');
    }
    // The killed connection's transaction is rolled back by PostgreSQL.
    for (let i = 0; i < 100 && (await server.db.asOwner((tx) => tx.query("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO bank_transaction%' AND pid <> pg_backend_pid()"))).length; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Nothing of the killed import survives: no bank transaction, no file, no posting, no paid invoice.
    expect(await count()).toEqual(before);

    const imported = await wp.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: N, duplicates: 0, matched: K });
    const afterImport = { transactions: N, files: 1, entries: before.entries + K, paidInvoices: K, sentInvoices: 0, matched: K };
    expect(await count()).toEqual(afterImport);
    // Each invoice paid once: one paid posting each, debit bank / credit receivable, at its credit's booking date.
    for (const [i, invoice] of invoices.entries()) {
      const detail = (await wp.api.post('/api/invoice/detail', { id: invoice.uuid })).body;
      expect(detail).toMatchObject({ status: 3, bankRef: `CRASH-${i}`, ledgerDate: `2025-10-${String((i % 28) + 1).padStart(2, '0')}` });
      expect(detail.entries.filter((e: { kind: string }) => e.kind === 'paid')).toHaveLength(1);
    }
    const [payments] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ n: string }>("SELECT count(*) AS n FROM journal_entry WHERE source = 'invoice' AND description LIKE 'Payment %'"),
    );
    expect(Number(payments!.n)).toBe(K);

    const again = await wp.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });
    expect(again.body).toMatchObject({ imported: 0, duplicateFile: true, matched: 0 });
    expect(await count()).toEqual(afterImport);
  });
});
