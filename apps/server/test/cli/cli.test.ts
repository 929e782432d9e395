/**
 * The admin CLI as a user runs it: `npx tsx src/cli.ts …` in apps/server, its own process and its
 * own database connection (DATABASE_URL on PostgreSQL, BILAN_DATA_DIR on PGlite).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite, type Database } from '../../src/db/database.js';
import { engine, openTestDatabase } from '../helpers.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const REPO_DIR = fileURLToPath(new URL('../../../..', import.meta.url));
const FIXTURES = join(REPO_DIR, 'fixtures/beancount-example');

let env: NodeJS.ProcessEnv;
/** A directory for CSV files the tests write. */
let scratch: string;
let cleanup: () => Promise<void>;
/** Runs SQL against the CLI's database while no CLI process holds it (PGlite is single-process). */
let inspect: <T>(fn: (db: Database) => Promise<T>) => Promise<T>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'bilan-cli-csv-'));
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete base.DATABASE_URL;
  delete base.BILAN_DATA_DIR;
  delete base.INIT_CWD;
  if (engine === 'postgres') {
    const database = await openTestDatabase();
    env = { ...base, DATABASE_URL: database.url };
    inspect = (fn) => fn(database.db);
    cleanup = database.drop;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'bilan-cli-'));
    // The run's migrated template database, so the CLI does not have to create one.
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    env = { ...base, BILAN_DATA_DIR: dataDir };
    inspect = async (fn) => {
      const db = await openPglite(join(dataDir, 'pglite'));
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await cleanup?.();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function spawn(command: string, args: string[], cwd: string): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({
        code: error ? Number(error.code ?? 1) : 0,
        stdout,
        // npm may warn about the machine's npm configuration; the CLI's own lines start with "error:".
        stderr: stderr
          .split('\n')
          .filter((line) => !line.startsWith('npm warn'))
          .join('\n'),
        ms: performance.now() - started,
      });
    });
  });
}

/** `npx tsx src/cli.ts …` in apps/server. */
const cli = (...args: string[]) => spawn('npx', ['tsx', 'src/cli.ts', ...args], SERVER_DIR);

async function counts(instanceId: string): Promise<{ entries: string; lines: string }> {
  const [row] = await inspect((db) =>
    db.withInstance(instanceId, (tx) =>
      tx.query<{ entries: string; lines: string }>(
        `SELECT (SELECT count(*) FROM journal_entry WHERE instance_id = $1) AS entries,
                (SELECT count(*) FROM journal_line WHERE instance_id = $1) AS lines`,
        [instanceId],
      ),
    ),
  );
  return row!;
}

type TrialRow = { account: string; name: string; debit: string; credit: string; balance: string };

describe('npm run cli', () => {
  it('migrate reports an up-to-date database', async () => {
    const result = await cli('migrate');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^database up to date: \d+ migrations, last \d{4}_[a-z0-9_]+\.sql\n$/);
  });

  it('ACCEPTANCE: instance create, import chart and journal, trial balance to the cent', async () => {
    const created = await cli('instance', 'create', '--name', 'Beancount Example', '--currency', 'USD', '--no-chart');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const instanceId = created.stdout.trim();
    expect(created.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/);

    const chart = await cli('import', 'chart', '--instance', 'beancount example', join(FIXTURES, 'chart.csv'));
    expect(chart.code).toBe(0);
    expect(chart.stdout.trim()).toBe('chart imported into "Beancount Example": 50 created, 0 updated');

    const journal = await cli('import', 'journal', '--instance', 'BEANCOUNT EXAMPLE', join(FIXTURES, 'journal.csv'));
    console.info(`[${engine}] CLI import journal (process start, database open, import): ${journal.ms.toFixed(0)} ms`);
    expect(journal.stderr).toBe('');
    expect(journal.code).toBe(0);
    expect(journal.stdout).toMatch(/^journal imported into "Beancount Example": 1140 entries, 3255 postings, 2013-01-01 to 2015-/);
    expect(await counts(instanceId)).toEqual({ entries: '1140', lines: '3255' });

    const csv = await cli('trial-balance', '--instance', 'Beancount Example', '--date', '2015-12-31', '--format', 'csv');
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('account,name,debit,credit,balance');
    const rows = parse(csv.stdout, { columns: true }) as TrialRow[];
    const expected = parse(readFileSync(join(FIXTURES, 'expected-trial-balance.csv'), 'utf8'), { columns: true }) as Omit<TrialRow, 'debit' | 'credit'>[];
    expect(rows.map((r) => r.account)).toEqual(expected.map((e) => e.account).sort());
    const byAccount = new Map(rows.map((r) => [r.account, r]));
    for (const row of expected) {
      expect({ account: row.account, name: byAccount.get(row.account)?.name, balance: byAccount.get(row.account)?.balance }).toEqual(row);
    }
    for (const row of rows) expect([row.debit, row.credit]).toEqual([expect.stringMatching(/^\d+\.\d{2}$/), expect.stringMatching(/^\d+\.\d{2}$/)]);

    const json = await cli('trial-balance', '--instance', 'Beancount Example', '--date', '2015-12-31', '--format', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(rows);
  });

  it('resolves a relative FILE against the directory `npm run cli` was started from', async () => {
    const result = await spawn('npm', ['run', 'cli', '--', 'trial-balance', '--instance', 'Beancount Example', '--date', '2013-01-01'], REPO_DIR);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1000,Assets:US:BofA:Checking,3219.17,0.00,3219.17\n');
    const relative = await spawn('npm', ['run', 'cli', '--', 'import', 'chart', '--instance', 'Beancount Example', 'fixtures/beancount-example/chart.csv'], REPO_DIR);
    expect(relative.stderr.trim()).toBe('');
    expect(relative.stdout).toContain('chart imported into "Beancount Example": 0 created, 50 updated');
  });

  it('writes clean CSV: with `npm run -s cli` on stdout, and to --output FILE relative to the caller', async () => {
    const quiet = await spawn('npm', ['run', '-s', 'cli', '--', 'trial-balance', '--instance', 'Beancount Example', '--date', '2015-12-31'], REPO_DIR);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout.split('\n')[0]).toBe('account,name,debit,credit,balance');
    const fromStdout = parse(quiet.stdout, { columns: true }) as TrialRow[];
    expect(fromStdout.length).toBeGreaterThan(20);

    const relativeFile = relative(REPO_DIR, join(scratch, 'tb.csv'));
    const written = await spawn('npm', ['run', 'cli', '--', 'trial-balance', '--instance', 'Beancount Example', '--date', '2015-12-31', '--output', relativeFile], REPO_DIR);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`written to ${join(scratch, 'tb.csv')} (${fromStdout.length} accounts)`);
    expect(parse(readFileSync(join(scratch, 'tb.csv'), 'utf8'), { columns: true })).toEqual(fromStdout);
  });

  it('seeds the Swiss SME chart by default and quotes names in CSV output (RFC 4180)', async () => {
    const created = await cli('instance', 'create', '--name', 'Quoting AG');
    expect(created.code).toBe(0);
    const instanceId = created.stdout.trim();
    const accounts = await inspect((db) => db.withInstance(instanceId, (tx) => tx.query<{ n: string }>('SELECT count(*) AS n FROM ledger_account')));
    expect(Number(accounts[0]!.n)).toBeGreaterThan(100);

    writeFileSync(join(scratch, 'chart.csv'), 'number,name,type\n6000,"Miete, Büro ""Zentrum""",expense\n');
    expect((await cli('import', 'chart', '--instance', 'Quoting AG', join(scratch, 'chart.csv'))).stdout).toMatch(/: 0 created, 1 updated\n$/);
    writeFileSync(
      join(scratch, 'journal.csv'),
      'date,entry,description,account,amount,currency\n2024-01-05,1,"Rent, January",6000,1500.00,CHF\n2024-01-05,1,"Rent, January",1020,-1500.00,CHF\n',
    );
    expect((await cli('import', 'journal', '--instance', 'Quoting AG', join(scratch, 'journal.csv'))).code).toBe(0);
    const csv = await cli('trial-balance', '--instance', 'Quoting AG', '--date', '2024-01-31');
    expect(csv.stdout).toBe(
      'account,name,debit,credit,balance\n1020,Postfinance oder Bank1,0.00,1500.00,-1500.00\n6000,"Miete, Büro ""Zentrum""",1500.00,0.00,1500.00\n',
    );
  });

  it('refuses a journal with unknown accounts, listing every one, and imports nothing', async () => {
    const created = await cli('instance', 'create', '--name', 'Unmapped', '--currency', 'USD', '--no-chart');
    const instanceId = created.stdout.trim();
    const result = await cli('import', 'journal', '--instance', 'Unmapped', join(FIXTURES, 'journal.csv'));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const message = result.stderr.trim();
    expect(message.split('\n')).toHaveLength(1);
    const numbers = (parse(readFileSync(join(FIXTURES, 'chart.csv'), 'utf8'), { columns: true }) as { number: string }[]).map((r) => r.number);
    for (const number of numbers) expect(message).toContain(`could not map account ${number}`);
    expect(message).toMatch(/^error: could not map account 1000, could not map account 2800, /);
    expect(await counts(instanceId)).toEqual({ entries: '0', lines: '0' });
  });

  it.each([
    [['trial-balance', '--instance', 'Nobody'], /^error: instance "Nobody" not found$/, false],
    [['instance', 'create', '--name', 'beancount example'], /^error: Instance name already taken: "beancount example"$/, false],
    [['import', 'journal', '--instance', 'Beancount Example', 'no/such/file.csv'], /^error: cannot read no\/such\/file\.csv: no such file$/, false],
    [['frobnicate'], /^error: unknown command "frobnicate"$/, true],
    [['trial-balance', '--instance', 'Beancount Example', '--format', 'xml'], /^error: --format must be csv or json, got "xml"$/, true],
    [['trial-balance', '--instance', 'Beancount Example', '--date', '2015-02-30'], /^error: --date: expected YYYY-MM-DD/, true],
    [['instance', 'create', '--name', 'X', '--currency', 'XYZ'], /^error: unknown currency "XYZ"$/, true],
    [['import', 'chart', '--instance', 'Beancount Example', '--bogus', 'f.csv'], /^error: Unknown option '--bogus'/, true],
    [['import', 'chart', '--instance', 'Beancount Example'], /^error: FILE is required$/, true],
    [['trial-balance', '--name', 'x', '--instance', 'Beancount Example'], /^error: trial-balance does not take --name$/, true],
  ])('%j fails with one clear line on stderr and exit code 1', async (args, message, showsUsage) => {
    const result = await cli(...(args as string[]));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const [first, ...rest] = result.stderr.trim().split('\n');
    expect(first).toMatch(message);
    expect(rest.join('\n').includes('Usage: npm run cli -- <command>')).toBe(showsUsage);
  });
});
