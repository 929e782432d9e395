/**
 * (b) Bulk journal import: N lines as CSV `date,entry,description,account,amount,currency` through
 * POST /api/accounting/import/journal, against COPY of the same rows.
 *
 * Why two COPY baselines: Database.copyCsv() runs each COPY in its own transaction, and a COPY of
 * journal_entry alone is refused at its commit by the deferred balance trigger (entries without
 * postings), which the benchmark proves on every run (`directCopyCsv`). So:
 * - `copyStaging` (both engines): copyCsv into two tables `LIKE journal_entry/journal_line
 *   INCLUDING ALL` (same columns, types, defaults, CHECKs and indexes; no foreign keys, triggers or
 *   row security): the bare cost of COPY.
 * - `copyDirect` (PostgreSQL): one transaction on a plain `pg` client, COPY journal_entry then COPY
 *   journal_line into the real tables: foreign keys, statement triggers and the balance check at
 *   commit all run. This is "COPY of the same rows into journal_entry/journal_line" and the
 *   baseline of the target on PostgreSQL.
 * - `stagingToTables`: INSERT … SELECT from the staging tables into the real tables in one
 *   transaction (triggers run): on PGlite, the trigger-inclusive plain-SQL load.
 */
import pgCopy from 'pg-copy-streams';
import { parseCsv } from '../../apps/server/src/lib/csv.js';
import { importJournal } from '../../apps/server/src/modules/accounting/journal-import.service.js';
import { pickAccounts, syntheticEntries, type Account, type SyntheticEntry } from './data.js';
import { log, round, throughput, timed, type Throughput } from './measure.js';
import { createWorkplace, reserveIds, type BenchEnv, type Workplace } from './setup.js';
import { oneLine, recording, type Captured } from './trace.js';

const ENTRY_COLUMNS = ['instance_id', 'id', 'date_ledger', 'description', 'source', 'source_ref'] as const;
const LINE_COLUMNS = [
  'instance_id',
  'id',
  'entry_id',
  'date_ledger',
  'account_id',
  'direction',
  'amount',
  'currency_id',
  'amount_original',
  'exchange_rate',
] as const;

export interface ImportResult {
  lines: number;
  entries: number;
  csvMiB: number;
  api: Throughput & { answer: unknown };
  /**
   * The same import called in-process (importJournal in db.withInstance, no HTTP) into another
   * instance, with its statements timed: where the import's time goes.
   */
  service: Throughput & {
    csvParseMs: number;
    statementsMs: number;
    /** Everything but the statements: CSV parsing, validation (decimal.js), building the columns, BEGIN/COMMIT. */
    javascriptMs: number;
    statements: { sql: string; count: number; ms: number }[];
  };
  copyStaging: Throughput & { method: string };
  stagingToTables: Throughput & { method: string };
  copyDirect?: Throughput & { method: string };
  directCopyCsv: { method: string; outcome: string };
  /** The baseline the target ratio uses. */
  baseline: 'copyDirect' | 'copyStaging';
  ratio: number;
  ratioToCopyStaging: number;
}

function importCsv(entries: readonly SyntheticEntry[]): string {
  const rows = ['date,entry,description,account,amount,currency'];
  for (const e of entries) {
    rows.push(`${e.date},${e.key},${e.description},${e.debit.number},${e.amount},CHF`);
    rows.push(`${e.date},${e.key},${e.description},${e.credit.number},-${e.amount},CHF`);
  }
  return `${rows.join('\n')}\n`;
}

/** The rows the import writes, as COPY CSV for journal_entry and journal_line of `workplace`. */
function copyCsvs(
  workplace: Workplace,
  entries: readonly SyntheticEntry[],
  ids: { entry: number; line: number },
): { entries: string; lines: string } {
  const idOf = (account: Account) => workplace.accounts.get(account.number)!;
  const entryRows: string[] = [];
  const lineRows: string[] = [];
  const instance = workplace.instanceId;
  const currency = workplace.currencyId;
  entries.forEach((e, i) => {
    const entryId = ids.entry + i;
    entryRows.push(`${instance},${entryId},${e.date},${e.description},import,${e.key}`);
    lineRows.push(`${instance},${ids.line + 2 * i},${entryId},${e.date},${idOf(e.debit)},1,${e.amount},${currency},${e.amount},1`);
    lineRows.push(`${instance},${ids.line + 2 * i + 1},${entryId},${e.date},${idOf(e.credit)},-1,${e.amount},${currency},${e.amount},1`);
  });
  return { entries: `${entryRows.join('\n')}\n`, lines: `${lineRows.join('\n')}\n` };
}

async function createStaging(env: BenchEnv): Promise<void> {
  await env.db.asOwner(async (tx) => {
    await tx.query('DROP TABLE IF EXISTS bench_copy_line, bench_copy_entry');
    await tx.query('CREATE TABLE bench_copy_entry (LIKE journal_entry INCLUDING ALL)');
    await tx.query('CREATE TABLE bench_copy_line (LIKE journal_line INCLUDING ALL)');
  });
}

async function copyStaging(env: BenchEnv, csv: { entries: string; lines: string }): Promise<number> {
  const { ms } = await timed(async () => {
    await env.db.copyCsv('bench_copy_entry', ENTRY_COLUMNS, csv.entries);
    await env.db.copyCsv('bench_copy_line', LINE_COLUMNS, csv.lines);
  });
  return ms;
}

async function copyInto(client: NonNullable<BenchEnv['direct']>, table: string, columns: readonly string[], csv: string): Promise<void> {
  const stream = client.query(pgCopy.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`));
  await new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
    stream.end(csv);
  });
}

/** PostgreSQL: COPY into the real tables in one transaction (triggers, foreign keys, balance check at commit). */
async function copyDirect(env: BenchEnv, csv: { entries: string; lines: string }): Promise<number> {
  const client = env.direct!;
  const { ms } = await timed(async () => {
    await client.query('BEGIN');
    try {
      await copyInto(client, 'journal_entry', ENTRY_COLUMNS, csv.entries);
      await copyInto(client, 'journal_line', LINE_COLUMNS, csv.lines);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  });
  return ms;
}

/** Tries Database.copyCsv straight into journal_entry: each COPY commits alone, so the balance trigger refuses it. */
async function tryDirectCopyCsv(env: BenchEnv, workplace: Workplace): Promise<string> {
  const id = await reserveIds(env, workplace.instanceId, 'journal_entry', 1);
  try {
    await env.db.copyCsv('journal_entry', ENTRY_COLUMNS, `${workplace.instanceId},${id},2023-01-01,probe,import,P1\n`);
    return 'accepted (unexpected: an entry without postings was committed)';
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

async function runImport(workplace: Workplace, csv: string): Promise<{ ms: number; answer: unknown }> {
  const { ms, value } = await timed(() => workplace.api.post('/api/accounting/import/journal', csv));
  return { ms, answer: value };
}

export async function benchImport(env: BenchEnv, options: { lines: number }): Promise<ImportResult> {
  const entryCount = Math.max(1, Math.floor(options.lines / 2));
  const lineCount = entryCount * 2;
  const importer = await createWorkplace(env, 'import');
  const staged = await createWorkplace(env, 'copy-staging');
  const direct = env.direct ? await createWorkplace(env, 'copy-direct') : undefined;
  const accounts = pickAccounts(importer.accounts, 40);
  const warmCount = Math.min(2_000, Math.max(100, Math.floor(entryCount / 50)));
  const warm = [...syntheticEntries(warmCount, accounts, '2022-01-01', '2022-12-31')];
  const data = [...syntheticEntries(entryCount, accounts, '2023-01-01', '2023-12-31')];

  const csv = importCsv(data);
  const csvMiB = round(Buffer.byteLength(csv) / 1024 ** 2, 1);
  log(`${env.engine} (b): warm-up (${warmCount * 2} lines through each path)`);
  await runImport(importer, importCsv(warm));
  await createStaging(env);
  const warmIds = {
    entry: await reserveIds(env, staged.instanceId, 'journal_entry', warmCount),
    line: await reserveIds(env, staged.instanceId, 'journal_line', warmCount * 2),
  };
  await copyStaging(env, copyCsvs(staged, warm, warmIds));
  await env.db.asOwner((tx) => tx.query('TRUNCATE bench_copy_line, bench_copy_entry'));

  log(`${env.engine} (b): import of ${lineCount} lines (${csvMiB} MiB CSV) through POST /api/accounting/import/journal`);
  const imported = await runImport(importer, csv);
  const api = { ...throughput(lineCount, imported.ms), answer: imported.answer };
  log(`${env.engine} (b): import ${api.perSecond} lines/s`);

  const serviceTarget = await createWorkplace(env, 'import-service');
  log(`${env.engine} (b): the same import in-process (importJournal, no HTTP), statements timed`);
  const sink: Captured[] = [];
  const { ms: serviceMs } = await timed(() =>
    env.db.withInstance(serviceTarget.instanceId, (tx) =>
      importJournal(recording(tx, sink), serviceTarget.instanceId, serviceTarget.userId, csv),
    ),
  );
  // The CSV parsing alone, with the import's column rules.
  const { ms: parseMs } = await timed(async () =>
    parseCsv(csv, {
      required: ['date', 'entry', 'description', 'account', 'amount'],
      allowed: ['date', 'entry', 'description', 'account', 'amount', 'currency'],
    }),
  );
  const byStatement = new Map<string, { sql: string; count: number; ms: number }>();
  for (const q of sink) {
    const sql = oneLine(q.text).slice(0, 80);
    const entry = byStatement.get(sql) ?? { sql, count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += q.ms;
    byStatement.set(sql, entry);
  }
  const statementsMs = sink.reduce((sum, q) => sum + q.ms, 0);
  const service = {
    ...throughput(lineCount, serviceMs),
    csvParseMs: round(parseMs),
    statementsMs: round(statementsMs),
    javascriptMs: round(serviceMs - statementsMs),
    statements: [...byStatement.values()].map((s) => ({ ...s, ms: round(s.ms) })),
  };
  log(`${env.engine} (b): in-process import ${service.perSecond} lines/s (statements ${service.statementsMs} ms, JavaScript ${service.javascriptMs} ms)`);

  const stagedIds = {
    entry: await reserveIds(env, staged.instanceId, 'journal_entry', entryCount),
    line: await reserveIds(env, staged.instanceId, 'journal_line', lineCount),
  };
  const stagedCsv = copyCsvs(staged, data, stagedIds);
  log(`${env.engine} (b): COPY of the same rows into staging tables`);
  const stagingMs = await copyStaging(env, stagedCsv);
  const copyStagingResult = {
    ...throughput(lineCount, stagingMs),
    method: 'Database.copyCsv into bench_copy_entry and bench_copy_line (LIKE … INCLUDING ALL: same columns, CHECKs, indexes; no FKs, triggers, RLS), one transaction per table',
  };
  log(`${env.engine} (b): COPY staging ${copyStagingResult.perSecond} lines/s`);

  log(`${env.engine} (b): INSERT … SELECT from the staging tables into the real tables`);
  const { ms: moveMs } = await timed(() =>
    env.db.asOwner(async (tx) => {
      // The columns COPY filled, named: `SELECT *` also carries journal_line's generated amount_cents
      // (migration 0044), which an INSERT may not set.
      await tx.query(`INSERT INTO journal_entry (${ENTRY_COLUMNS.join(', ')}) SELECT ${ENTRY_COLUMNS.join(', ')} FROM bench_copy_entry`);
      await tx.query(`INSERT INTO journal_line (${LINE_COLUMNS.join(', ')}) SELECT ${LINE_COLUMNS.join(', ')} FROM bench_copy_line`);
    }),
  );
  const stagingToTables = {
    ...throughput(lineCount, moveMs),
    method: 'one owner transaction: INSERT INTO journal_entry (the COPY columns) SELECT them FROM bench_copy_entry; the same for journal_line (triggers and FKs run)',
  };
  await env.db.asOwner((tx) => tx.query('DROP TABLE bench_copy_line, bench_copy_entry'));

  let copyDirectResult: ImportResult['copyDirect'];
  if (direct) {
    const ids = {
      entry: await reserveIds(env, direct.instanceId, 'journal_entry', entryCount),
      line: await reserveIds(env, direct.instanceId, 'journal_line', lineCount),
    };
    const directCsv = copyCsvs(direct, data, ids);
    log(`${env.engine} (b): COPY of the same rows into journal_entry and journal_line, one transaction`);
    copyDirectResult = {
      ...throughput(lineCount, await copyDirect(env, directCsv)),
      method: 'pg + pg-copy-streams, one transaction as the owner: COPY journal_entry, COPY journal_line, COMMIT (FKs, statement triggers, balance check at commit)',
    };
    log(`${env.engine} (b): COPY direct ${copyDirectResult.perSecond} lines/s`);
  }

  const directCopyCsv = {
    method: 'Database.copyCsv straight into journal_entry (its own transaction)',
    outcome: await tryDirectCopyCsv(env, staged),
  };
  const baseline = copyDirectResult ?? copyStagingResult;
  return {
    lines: lineCount,
    entries: entryCount,
    csvMiB,
    api,
    service,
    copyStaging: copyStagingResult,
    stagingToTables,
    ...(copyDirectResult ? { copyDirect: copyDirectResult } : {}),
    directCopyCsv,
    baseline: copyDirectResult ? 'copyDirect' : 'copyStaging',
    ratio: round(api.perSecond / baseline.perSecond, 3),
    ratioToCopyStaging: round(api.perSecond / copyStagingResult.perSecond, 3),
  };
}
