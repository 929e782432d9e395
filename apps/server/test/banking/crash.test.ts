/**
 * Crash test (issue #5 §6): a server process killed (SIGKILL) in the middle of a statement import
 * leaves no half import, and importing the file again books each transaction once. PostgreSQL only:
 * the killed process must not share the database files with the test (PGlite runs in-process).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createWorkplace, engine, freePort, openTestDatabase, type TestServer, type Workplace } from '../helpers.js';

const N = 4000;
const OWN_IBAN = 'CH9300762011623852957';

function statement(): string {
  const entries = Array.from(
    { length: N },
    (_, i) => `<Ntry><Amt Ccy="CHF">${(i % 500) + 1}.05</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2025-10-${String((i % 28) + 1).padStart(2, '0')}</Dt></BookgDt>
<AcctSvcrRef>CRASH-${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt>
<GrpHdr><MsgId>CRASH-1</MsgId><CreDtTm>2025-10-31T20:00:00</CreDtTm></GrpHdr><Stmt><Id>CRASH-1-1</Id><CreDtTm>2025-10-31T20:00:00</CreDtTm>
<Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id></Acct>${entries}</Stmt></BkToCstmrStmt></Document>`;
}

describe.skipIf(engine !== 'postgres')('a server killed during a camt import', () => {
  let server: TestServer;
  let url: string;
  let wp: Workplace;
  beforeAll(async () => {
    const opened = await openTestDatabase();
    url = opened.url!;
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', BILAN_PUBLIC_URL: baseUrl, BILAN_WEB_DIST: join(tmpdir(), 'bilan-no-web'), LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, db: opened.db });
    await app.listen({ port, host: '127.0.0.1' });
    server = { app, db: opened.db, config, baseUrl, close: async () => (await app.close(), await opened.drop()) };
    wp = await createWorkplace(server);
  });
  afterAll(async () => server?.close());

  const count = async () => {
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ n: string; files: string }>('SELECT (SELECT count(*) FROM bank_transaction) AS n, (SELECT count(*) FROM bank_file) AS files'),
    );
    return { transactions: Number(row!.n), files: Number(row!.files) };
  };

  it('leaves nothing behind, and the re-import books each transaction once', async () => {
    const xml = statement();
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
      // The token's issuer is the public URL, shared by both servers. Kill it while the import's transaction is running.
      for (let i = 0; i < 100; i += 1) {
        const rows = await server.db.asOwner((tx) => tx.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'INSERT INTO bank_transaction%'"));
        if (rows.length) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGKILL');
      expect(await pending).toBeInstanceOf(Error);
    } finally {
      child.kill('SIGKILL');
    }
    // The killed connection's transaction is rolled back by PostgreSQL.
    for (let i = 0; i < 100 && (await server.db.asOwner((tx) => tx.query("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO bank_transaction%' AND pid <> pg_backend_pid()"))).length; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await count()).toEqual({ transactions: 0, files: 0 });

    const imported = await wp.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: N, duplicates: 0 });
    const again = await wp.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });
    expect(again.body).toMatchObject({ imported: 0, duplicateFile: true });
    expect(await count()).toEqual({ transactions: N, files: 1 });
  });
});
