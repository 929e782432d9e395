import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, engine, startTestServer, type TestServer } from '../helpers.js';
import { fixture, ledgerCounts, ledgerWorkplace } from './ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const chartCsv = fixture('chart.csv');
const journalCsv = fixture('journal.csv');
const expected = parse(fixture('expected-trial-balance.csv'), { columns: true }) as { account: string; name: string; balance: string }[];

describe('ACCEPTANCE: the beancount example through the API', () => {
  it('imports chart and journal into a USD instance and matches the expected trial balance to the cent', async () => {
    const wp = await ledgerWorkplace(server, { currency: 'USD', chart: false });
    const chart = await wp.api.post('/api/accounting/import/chart', chartCsv);
    expect(chart.status).toBe(200);
    expect(chart.body).toEqual({ created: 50, updated: 0 });

    const started = performance.now();
    const journal = await wp.api.post('/api/accounting/import/journal', journalCsv);
    const elapsed = performance.now() - started;
    console.info(`[${engine}] import of the beancount journal (1,140 entries, 3,258 rows of which 3 are 0.00 and skipped) over HTTP: ${elapsed.toFixed(0)} ms`);
    expect(journal.status).toBe(200);
    expect(journal.body).toEqual({ entries: 1140, lines: 3255, dateFrom: '2013-01-01', dateTo: expect.stringMatching(/^2015-/) });
    const counts = await ledgerCounts(server, wp.instanceId);
    expect([counts.entries, counts.lines]).toEqual(['1140', '3255']);

    const trial = await wp.api.post('/api/accounting/balance/get', { date: '2300-12-31' });
    expect(trial.status).toBe(200);
    const ours = new Map(trial.body.accounts.map((a: { number: string; balance: string }) => [a.number, a.balance]));
    expect(ours.size).toBe(expected.length);
    for (const row of expected) expect({ account: row.account, balance: ours.get(row.account) }).toEqual({ account: row.account, balance: row.balance });
    expect(trial.body.totals.debit).toBe(trial.body.totals.credit);
    expect(trial.body.totals.balance).toBe('0.00');
    const names = new Map(trial.body.accounts.map((a: { number: string; name: string }) => [a.number, a.name]));
    for (const row of expected) expect(names.get(row.account)).toBe(row.name);

    const check = await wp.api.post('/api/accounting/balance/check', {});
    expect(check.body.ok).toBe(true);

    // Imported entries keep their file key and read back as entries.
    const found = await wp.api.post('/api/accounting/entry/list', { filters: { text: 'E2' } });
    expect(found.body.data.map((e: { source: string; description: string; entryAccounts: unknown[] }) => [e.source, e.description, e.entryAccounts.length])).toContainEqual([
      'import',
      'Hoogle - Payroll',
      14,
    ]);

    // Re-importing the chart renames nothing and creates nothing.
    expect((await wp.api.post('/api/accounting/import/chart', chartCsv)).body).toEqual({ created: 0, updated: 50 });
  });
});

describe('POST /api/accounting/import/journal refusals (nothing imported)', () => {
  it("lists every unknown account number with 'could not map account {number}'", async () => {
    const wp = await ledgerWorkplace(server, { currency: 'USD', chart: false });
    await wp.api.post('/api/accounting/import/chart', chartCsv);
    const lines = journalCsv.split('\n');
    // Line 2 and 3 (entry E1): 1000 → 1234 and 2800 → 5678; line 5 (E2) 1000 → 1234 again.
    lines[1] = lines[1]!.replace(',1000,', ',1234,');
    lines[2] = lines[2]!.replace(',2800,', ',5678,');
    lines[4] = lines[4]!.replace(',1000,', ',1234,');
    const response = await wp.api.post('/api/accounting/import/journal', lines.join('\n'));
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('could not map account 1234, could not map account 5678');
    expect(response.body.fields).toEqual({ account: 'could not map account 1234, could not map account 5678' });
    const counts = await ledgerCounts(server, wp.instanceId);
    expect([counts.entries, counts.lines, counts.balances]).toEqual(['0', '0', '0']);
  });

  it('names line and column of bad rows, refuses unbalanced entries and another currency', async () => {
    const wp = await ledgerWorkplace(server);
    const header = 'date,entry,description,account,amount,currency';
    const call = (rows: string[]) => wp.api.post('/api/accounting/import/journal', [header, ...rows].join('\n'));

    const badDate = await call(['2024-02-30,A,x,1020,10.00,CHF', '2024-02-01,A,x,3200,-10.00,CHF']);
    expect(badDate.status).toBe(400);
    expect(badDate.body.fields['line 2.date']).toMatch(/YYYY-MM-DD/);
    expect(badDate.body.error).toMatch(/^line 2, column date: /);

    const badAmount = await call(['2024-02-01,A,x,1020,10.001,CHF', '2024-02-01,A,x,3200,-10.00,CHF']);
    expect(badAmount.body.fields['line 2.amount']).toMatch(/at most 2 decimals/);

    const unbalanced = await call(['2024-02-01,A,x,1020,10.00,CHF', '2024-02-01,A,x,3200,-9.00,CHF']);
    expect(unbalanced.status).toBe(400);
    expect(unbalanced.body.error).toBe('line 2, column amount: entry A does not balance: debit minus credit is 1.00');

    const single = await call(['2024-02-01,A,x,1020,0.00,CHF']);
    expect(single.body.error).toMatch(/entry A needs at least two postings/);

    const twoDates = await call(['2024-02-01,A,x,1020,10.00,CHF', '2024-02-02,A,x,3200,-10.00,CHF']);
    expect(twoDates.body.fields['line 3.date']).toMatch(/entry A is dated 2024-02-01 on line 2/);

    const usd = await call(['2024-02-01,A,x,1020,10.00,USD', '2024-02-01,A,x,3200,-10.00,USD']);
    expect(usd.status).toBe(400);
    expect(usd.body.fields['line 2.currency']).toMatch(/USD is not the instance currency CHF/);

    const quoted = await call(['2024-02-01,A,"unterminated,1020,10.00,CHF']);
    expect(quoted.status).toBe(400);
    expect(quoted.body.error).toMatch(/not valid CSV/);

    const header2 = await wp.api.post('/api/accounting/import/journal', 'date,entry,account,amount,bogus\n2024-01-01,A,1020,1.00,x');
    expect(header2.body.error).toMatch(/unknown column "bogus"/);

    expect((await wp.api.post('/api/accounting/import/journal', header)).body.error).toMatch(/no rows/);
    const json = await wp.api.post('/api/accounting/import/journal', { csv: 'x' });
    expect(json.status).toBe(400);

    const counts = await ledgerCounts(server, wp.instanceId);
    expect([counts.entries, counts.lines]).toEqual(['0', '0']);
  });

  it('refuses entries on or before the lock date with 409', async () => {
    const wp = await ledgerWorkplace(server);
    await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2024-01-31')`, [wp.instanceId]),
    );
    const csv = 'date,entry,description,account,amount,currency\n2024-02-01,A,x,1020,1.00,CHF\n2024-02-01,A,x,3200,-1.00,CHF\n2024-01-31,B,y,1020,1.00,CHF\n2024-01-31,B,y,3200,-1.00,CHF\n';
    const response = await wp.api.post('/api/accounting/import/journal', csv);
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('line 4: the date 2024-01-31 is on or before the lock date 2024-01-31');
    expect((await ledgerCounts(server, wp.instanceId)).entries).toBe('0');
  });

  it('answers 401 without a token and 403 for a viewer', async () => {
    expect((await new Client(server.baseUrl).post('/api/accounting/import/journal', journalCsv)).status).toBe(401);
    const viewer = await ledgerWorkplace(server, { role: 'viewer' });
    expect((await viewer.api.post('/api/accounting/import/journal', journalCsv)).status).toBe(403);
  });
});

describe('POST /api/accounting/import/chart', () => {
  it('loads the Swiss SME chart file (groups and accounts) and upserts by number', async () => {
    const wp = await ledgerWorkplace(server, { chart: false });
    const { readFileSync } = await import('node:fs');
    const chartDe = readFileSync(new URL('../../src/modules/accounting/seed/chart-de.csv', import.meta.url), 'utf8');
    const rows = parse(chartDe, { columns: true }) as { kind: string }[];
    const response = await wp.api.post('/api/accounting/import/chart', chartDe);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ created: rows.length, updated: 0 });
    const counts = await ledgerCounts(server, wp.instanceId);
    expect(Number(counts.accounts)).toBe(rows.filter((r) => r.kind === 'account').length);
    expect(Number(counts.groups)).toBe(rows.filter((r) => r.kind === 'group').length);

    const renamed = await wp.api.post('/api/accounting/import/chart', 'number,name,type,currency\n1020,"Bank, UBS",asset,EUR\n9999,Neu,,\n');
    expect(renamed.body).toEqual({ created: 1, updated: 1 });
    const list = await wp.api.post('/api/accounting/account/list', { filters: { text: '1020' } });
    expect(list.body.data[0]).toMatchObject({ number: '1020', name: 'Bank, UBS', currency: 'EUR', type: { id: 1 } });
    const added = await wp.api.post('/api/accounting/account/list', { filters: { text: '9999' } });
    expect(added.body.data[0]).toMatchObject({ number: '9999', currency: 'CHF', type: { id: 3 } });
  });

  it('names line and column of bad rows and writes nothing', async () => {
    const wp = await ledgerWorkplace(server, { chart: false });
    const response = await wp.api.post(
      '/api/accounting/import/chart',
      'number,name,type,currency\n1000,Cash,asset,CHF\n12,Short,asset,CHF\n1010,,asset,CHF\n1020,Bank,thing,CHF\n1030,Bank,asset,XYZ\n1000,Again,asset,CHF\n',
    );
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      'line 3.number': 'an account number has 4 to 10 digits',
      'line 4.name': 'This field is required',
      'line 5.type': 'unknown account type "thing"; expected asset, liability, equity, revenue or expense',
      'line 6.currency': 'unknown currency "XYZ"',
      'line 7.number': '1000 is already on line 2',
    });
    expect((await ledgerCounts(server, wp.instanceId)).accounts).toBe('0');
    expect((await new Client(server.baseUrl).post('/api/accounting/import/chart', chartCsv)).status).toBe(401);
  });
});
