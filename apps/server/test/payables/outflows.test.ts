/**
 * The outflows report ExportOutflows.csv (spec §2.5, §9): text cells made inert for spreadsheets
 * (OWASP CSV injection) without moving a column, and one consistent snapshot however long the
 * file takes to read (one cursor in one transaction).
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outflowsCsvLines } from '../../src/modules/payables/outflows.js';
import { createCompany } from '../../src/modules/companies/companies.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace } from './setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('GET /api/payable/list as CSV', () => {
  it('prefixes text cells that a spreadsheet would run as a formula with an apostrophe, keeping the columns', async () => {
    const w = await payablesWorkplace(server);
    const names = ['=HYPERLINK("http://evil.example","click")', '+41 44 000 00 00', '-2+3', '@SUM(A1:A9)', '\tTabbed AG', '\rReturn AG', 'Müller, Meier & Co'];
    for (const name of names) {
      // The companies service trims names; an import or an older row may still start with a tab or CR.
      const uuid = /^\s/.test(name)
        ? await server.db.withInstance(w.instanceId, async (tx) =>
            (await tx.query<{ uuid: string }>('INSERT INTO company (instance_id, name) VALUES ($1, $2) RETURNING uuid', [w.instanceId, name]))[0]!.uuid,
          )
        : await server.db.withInstance(w.instanceId, (tx) => createCompany(tx, w.instanceId, { name }));
      const created = await w.api.post('/api/payable/insert', { data: { company: { uuid }, date: '2025-05-01', amount: '10.00' } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    await w.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-05-02', amount: '5.00', description: 'Bus' } });
    const csv = await w.api.request('GET', '/api/payable/list', undefined, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    const rows = parse(csv.body as string, { relax_quotes: false }) as string[][];
    expect(rows[0]).toEqual(['id', 'date', 'amount', 'company', 'isExpense', 'status', 'transactionGroupStatus']);
    expect(rows.every((row) => row.length === 7)).toBe(true);
    const companies = rows.slice(1).map((row) => row[3]);
    expect(companies).toEqual([
      `'=HYPERLINK("http://evil.example","click")`,
      "'+41 44 000 00 00",
      "'-2+3",
      "'@SUM(A1:A9)",
      "'\tTabbed AG",
      "'\rReturn AG",
      'Müller, Meier & Co',
      '-',
    ]);
    // Our own cells keep their exact form.
    const [id, date, amount, , isExpense, status, groupStatus] = rows[1]!;
    expect([id, date, amount, isExpense, status, groupStatus]).toEqual([expect.stringMatching(/^\d+$/), '2025-05-01', '10.00', 'false', 'pending', '-']);
    expect(csv.body).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")",false,pending,-\r\n`);
  });

  it('is one snapshot: changes committed while the file is being read do not show in it', async () => {
    const w = await payablesWorkplace(server);
    // More than one fetch of 2,000 rows.
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query(
        `INSERT INTO payable (instance_id, id, type_id, date, amount, currency_id)
         SELECT $1, next_ids($1, 'payable'), 1, date '2025-01-01' + (n % 300), 10 + n, 1 FROM generate_series(1, 4500) AS n`,
        [w.instanceId],
      ),
    );
    const lines = outflowsCsvLines(server.db, w.instanceId);
    let text = '';
    text += (await lines.next()).value; // header
    text += (await lines.next()).value; // rows 1–2000
    // Another transaction changes the last rows and adds one while the export is half read. On
    // PGlite (one connection) it waits for the export; on PostgreSQL it commits at once.
    const change = server.db.withInstance(w.instanceId, async (tx) => {
      await tx.query("UPDATE payable SET status = 5 WHERE id > 4000");
      await tx.query(`INSERT INTO payable (instance_id, id, type_id, date, amount, currency_id) VALUES ($1, next_ids($1, 'payable'), 1, '2025-12-31', 1, 1)`, [w.instanceId]);
    });
    if (server.db.kind === 'postgres') await change;
    for await (const chunk of lines) text += chunk;
    await change;
    const rows = text.trim().split('\r\n');
    expect(rows).toHaveLength(4501);
    expect(rows.slice(1).every((row) => row.endsWith(',true,pending,-'))).toBe(true);
    // The change is there for the next export.
    const after: string[] = [];
    for await (const chunk of outflowsCsvLines(server.db, w.instanceId)) after.push(chunk);
    const next = after.join('').trim().split('\r\n');
    expect(next).toHaveLength(4502);
    expect(next.filter((row) => row.endsWith(',true,cancelled,-'))).toHaveLength(500);
  });

  it('rolls the export back and frees the database when the reader stops early', async () => {
    const w = await payablesWorkplace(server);
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query(
        `INSERT INTO payable (instance_id, id, type_id, date, amount, currency_id) SELECT $1, next_ids($1, 'payable'), 1, '2025-01-01', 1, 1 FROM generate_series(1, 2500)`,
        [w.instanceId],
      ),
    );
    const lines = outflowsCsvLines(server.db, w.instanceId);
    await lines.next();
    await lines.next();
    await lines.return(undefined);
    // The transaction is gone: other work goes through (PGlite would wait forever otherwise).
    const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM payable'));
    expect(row!.n).toBe(2500);
  });
});
