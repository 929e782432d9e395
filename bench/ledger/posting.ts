/**
 * (a) Two-line journal entries posted one by one through POST /api/accounting/entry/insert, against
 * a baseline of one plain SQL transaction per entry as the database owner: INSERT journal_entry and
 * one two-row INSERT journal_line (the schema's triggers run for both, as for the API).
 */
import type { Tx } from '../../apps/server/src/db/database.js';
import { postJournalEntryDetailed } from '../../apps/server/src/modules/accounting/journal-entry.service.js';
import { pickAccounts, syntheticEntries, type SyntheticEntry } from './data.js';
import { log, repeat, round, throughput, timed, type Latency, type Throughput } from './measure.js';
import { createWorkplace, reserveIds, type BenchEnv, type Workplace } from './setup.js';
import { breakdown, type Breakdown } from './trace.js';
import { cpuTimer, type CpuTime } from './cpu.js';
import { startApiProcess, type ApiProcess } from './api-process.js';

export interface PostingResult {
  entries: number;
  description: string;
  sequential: {
    api: Throughput;
    /** The route's work without HTTP: postJournalEntryDetailed in db.withInstance, called in-process. */
    service: Throughput;
    raw: Throughput;
    apiMsPerEntry: number;
    serviceMsPerEntry: number;
    rawMsPerEntry: number;
    /** api / raw entries per second: the target's figure. */
    ratio: number;
    serviceRatio: number;
    /** Milliseconds per entry in each round, to show how steady the machine was. */
    msPerEntryByRound: { api: number[]; raw: number[]; service: number[] };
    /**
     * CPU milliseconds per entry (issue 18 §4). `ratio` = raw / api total: the share of raw SQL's
     * cost that posting through the API reaches, which load does not flip.
     *   api: the Bilan server's process (`processMs`; on PGlite with the database in it) and the
     *     bench database's PostgreSQL backends (`databaseMs`); the HTTP client is not in it, it ran
     *     in another process (`apiLayout`) and is `apiClient`.
     *   service, raw: this process (the database too on PGlite) and the backends; no HTTP client.
     */
    cpuMsPerEntry: {
      api: CpuTime;
      service: CpuTime;
      raw: CpuTime;
      ratio: number;
      serviceRatio: number;
      /** The benchmark's HTTP client (undici fetch) during the API rounds, in its own process. */
      apiClient: CpuTime;
      /** raw / (api + apiClient): the figure as measured before the server and client were split. */
      ratioWithClient: number;
      apiLayout: ApiProcess['layout'];
    };
  };
  /**
   * The per-request session check (decision 005: the access token checked against the live session
   * in the database), timed alone in-process: what a cache of it could save at most per entry.
   */
  sessionCheck: { latency: Latency; cpuMsPerCall: CpuTime; shareOfApiMs: number; shareOfApiCpu: number };
  /** The statements of one entry/insert (service, medians). */
  breakdown: Breakdown;
  /**
   * Round trip of GET /api/meta/version (no database): the HTTP floor per request, from this
   * process to the server measured (on PostgreSQL the server child; on PGlite this process's app).
   */
  httpFloor: Latency;
  concurrent?: { concurrency: number; api: Throughput; raw: Throughput; ratio: number };
  check: { entries: number; lines: number; expectedEntries: number };
}

/** Runs `fn(0 … count-1)` with at most `concurrency` calls in flight. */
async function inPool(count: number, concurrency: number, fn: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await fn(index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
}

function apiBody(entry: SyntheticEntry) {
  return {
    data: {
      dateLedger: entry.date,
      description: entry.description,
      entryAccounts: [
        { account: { id: entry.debit.id }, amount: entry.amount, direction: 1 },
        { account: { id: entry.credit.id }, amount: entry.amount, direction: -1 },
      ],
    },
  };
}

/** Through the API of `server`, the server and the client in two processes (api-process.ts); the wall time in ms. */
async function postViaApi(server: ApiProcess, workplace: Workplace, entries: readonly SyntheticEntry[], concurrency: number): Promise<number> {
  return server.post(workplace.api, '/api/accounting/entry/insert', entries.map(apiBody), concurrency);
}

/** What the entry/insert route runs inside its transaction. */
async function postAndRead(tx: Tx, workplace: Workplace, entry: SyntheticEntry) {
  return postJournalEntryDetailed(tx, workplace.instanceId, workplace.userId, {
    dateLedger: entry.date,
    description: entry.description,
    source: 'manual',
    lines: [
      { accountId: entry.debit.id, amount: entry.amount, direction: 1 },
      { accountId: entry.credit.id, amount: entry.amount, direction: -1 },
    ],
  });
}

async function postViaService(env: BenchEnv, workplace: Workplace, entries: readonly SyntheticEntry[]): Promise<number> {
  const { ms } = await timed(async () => {
    for (const entry of entries) await env.db.withInstance(workplace.instanceId, (tx) => postAndRead(tx, workplace, entry));
  });
  return ms;
}

const RAW_ENTRY = `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source) VALUES ($1, $2, $3, $4, 'manual')`;
const RAW_LINES = `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
  VALUES ($1, $4, $2, $3, $5, 1, $6, $7, $6, 1), ($1, $4 + 1, $2, $3, $8, -1, $6, $7, $6, 1)`;

/**
 * The baseline: one transaction per entry as the owner, ids reserved beforehand (as an identity
 * column would hand them out), so each entry costs BEGIN, two INSERTs and COMMIT.
 */
async function postRaw(env: BenchEnv, workplace: Workplace, entries: readonly SyntheticEntry[], concurrency: number): Promise<number> {
  const db = env.db;
  const firstEntry = await reserveIds(env, workplace.instanceId, 'journal_entry', entries.length);
  const firstLine = await reserveIds(env, workplace.instanceId, 'journal_line', entries.length * 2);
  const { ms } = await timed(() =>
    inPool(entries.length, concurrency, async (i) => {
      const entry = entries[i]!;
      const entryId = firstEntry + i;
      await db.asOwner(async (tx) => {
        await tx.query(RAW_ENTRY, [workplace.instanceId, entryId, entry.date, entry.description]);
        await tx.query(RAW_LINES, [
          workplace.instanceId,
          entryId,
          entry.date,
          firstLine + 2 * i,
          entry.debit.id,
          entry.amount,
          workplace.currencyId,
          entry.credit.id,
        ]);
      });
    }),
  );
  return ms;
}

const ROUNDS = 4;

const noCpu = (): CpuTime => ({ processMs: 0, databaseMs: 0, totalMs: 0 });
function addCpu(sum: CpuTime, add: CpuTime): void {
  sum.processMs += add.processMs;
  sum.databaseMs += add.databaseMs;
  sum.totalMs += add.totalMs;
}
const perEntry = (cpu: CpuTime, count: number): CpuTime => ({
  processMs: round(cpu.processMs / count, 3),
  databaseMs: round(cpu.databaseMs / count, 3),
  totalMs: round(cpu.totalMs / count, 3),
});

export async function benchPosting(env: BenchEnv, options: { entries: number; concurrency: number }): Promise<PostingResult> {
  const server = await startApiProcess(env);
  try {
    return await postingWith(env, server, options);
  } finally {
    await server.close();
  }
}

async function postingWith(env: BenchEnv, server: ApiProcess, options: { entries: number; concurrency: number }): Promise<PostingResult> {
  const workplace = await createWorkplace(env, 'posting');
  const accounts = pickAccounts(workplace.accounts, 40);
  const n = options.entries;
  const warmup = Math.max(20, Math.ceil(n / 20));
  const phases = options.concurrency > 1 ? 2 : 1;
  const traced = Math.min(n, 200);
  const total = 3 * warmup + 2 * n * phases + n + traced;
  const all = [...syntheticEntries(total, accounts, '2024-01-01', '2024-12-31')];
  let offset = 0;
  const take = (count: number) => {
    const slice = all.slice(offset, offset + count);
    offset += count;
    return slice;
  };

  log(`${env.engine} (a): warm-up, ${warmup} entries through each path`);
  await postViaApi(server, workplace, take(warmup), 1);
  await postRaw(env, workplace, take(warmup), 1);
  await postViaService(env, workplace, take(warmup));

  // The three paths take turns in rounds, so a drift of the machine (other load, autovacuum, table
  // growth) spreads over all of them instead of favouring the one measured first.
  const rounds = Math.min(ROUNDS, n);
  let apiMs = 0;
  let rawMs = 0;
  let serviceMs = 0;
  const perRound = { api: [] as number[], raw: [] as number[], service: [] as number[] };
  const cpu = { api: noCpu(), raw: noCpu(), service: noCpu() };
  const apiClient = noCpu();
  const counted = async (path: keyof typeof cpu, run: () => Promise<number>): Promise<number> => {
    const timer = await cpuTimer(env);
    const ms = await run();
    addCpu(cpu[path], await timer.stop());
    return ms;
  };
  // The API's CPU: the server's process and the database's backends; the client's apart.
  const countedApi = async (run: () => Promise<number>): Promise<number> => {
    const timer = await cpuTimer(env);
    const before = await server.cpu();
    const ms = await run();
    const after = await server.cpu();
    const { databaseMs } = await timer.stop();
    const serverMs = after.serverMs - before.serverMs;
    addCpu(cpu.api, { processMs: serverMs, databaseMs, totalMs: serverMs + databaseMs });
    const clientMs = after.clientMs - before.clientMs;
    addCpu(apiClient, { processMs: clientMs, databaseMs: 0, totalMs: clientMs });
    return ms;
  };
  for (let turn = 0; turn < rounds; turn += 1) {
    const size = Math.floor(n / rounds) + (turn < n % rounds ? 1 : 0);
    log(`${env.engine} (a): round ${turn + 1}/${rounds}: ${size} entries through the API, as plain SQL and through the service in-process, one at a time`);
    const roundApi = await countedApi(() => postViaApi(server, workplace, take(size), 1));
    const roundRaw = await counted('raw', () => postRaw(env, workplace, take(size), 1));
    const roundService = await counted('service', () => postViaService(env, workplace, take(size)));
    perRound.api.push(round(roundApi / size, 3));
    perRound.raw.push(round(roundRaw / size, 3));
    perRound.service.push(round(roundService / size, 3));
    apiMs += roundApi;
    rawMs += roundRaw;
    serviceMs += roundService;
  }
  const tracedEntries = take(traced);
  const statements = await breakdown(env.db, workplace.instanceId, (tx, run) => postAndRead(tx, workplace, tracedEntries[run]!), {
    runs: traced - 10,
    warmup: 10,
  });
  const { captured: _captured, ...statementBreakdown } = statements;
  const serverApi = server.serverApi(workplace.api);
  const httpFloor = await repeat(() => serverApi.get('/api/meta/version'), { runs: 500, warmup: 50 });
  const { accessToken: token } = await env.db.withAuth((tx) => env.app.sessions.start(tx, workplace.userId, workplace.instanceId, {}));
  const checkRuns = 500;
  const checkTimer = await cpuTimer(env);
  const checkLatency = await repeat(() => env.app.sessions.verifyAccessToken(token), { runs: checkRuns, warmup: 50 });
  const checkCpu = perEntry(await checkTimer.stop(), checkRuns + 50);
  const api = throughput(n, apiMs);
  const raw = throughput(n, rawMs);
  const service = throughput(n, serviceMs);
  const result: PostingResult = {
    entries: n,
    description:
      'two-line entries; api = POST /api/accounting/entry/insert over HTTP (JWT, zod, service checks, per-instance ids, answer with the entry), ' +
      'the server and the HTTP client in two processes (cpuMsPerEntry.apiLayout); ' +
      'service = the same route work called in-process (no HTTP); ' +
      'raw = one transaction per entry as the owner: INSERT journal_entry + one two-row INSERT journal_line, ids reserved beforehand; triggers run in both',
    sequential: {
      api,
      service,
      raw,
      apiMsPerEntry: round(apiMs / n, 3),
      serviceMsPerEntry: round(serviceMs / n, 3),
      rawMsPerEntry: round(rawMs / n, 3),
      ratio: round(api.perSecond / raw.perSecond, 3),
      serviceRatio: round(service.perSecond / raw.perSecond, 3),
      msPerEntryByRound: perRound,
      cpuMsPerEntry: {
        api: perEntry(cpu.api, n),
        service: perEntry(cpu.service, n),
        raw: perEntry(cpu.raw, n),
        ratio: round(cpu.raw.totalMs / cpu.api.totalMs, 3),
        serviceRatio: round(cpu.raw.totalMs / cpu.service.totalMs, 3),
        apiClient: perEntry(apiClient, n),
        ratioWithClient: round(cpu.raw.totalMs / (cpu.api.totalMs + apiClient.totalMs), 3),
        apiLayout: server.layout,
      },
    },
    sessionCheck: {
      latency: checkLatency,
      cpuMsPerCall: checkCpu,
      shareOfApiMs: round(checkLatency.medianMs / (apiMs / n), 3),
      shareOfApiCpu: round(checkCpu.totalMs / (cpu.api.totalMs / n), 3),
    },
    breakdown: statementBreakdown,
    httpFloor,
    check: { entries: 0, lines: 0, expectedEntries: offset },
  };

  if (phases === 2) {
    log(`${env.engine} (a): ${n} entries through the API, ${options.concurrency} in flight`);
    const apiConcurrent = throughput(n, await postViaApi(server, workplace, take(n), options.concurrency));
    log(`${env.engine} (a): ${n} entries as plain SQL transactions, ${options.concurrency} in flight`);
    const rawConcurrent = throughput(n, await postRaw(env, workplace, take(n), options.concurrency));
    result.concurrent = {
      concurrency: options.concurrency,
      api: apiConcurrent,
      raw: rawConcurrent,
      ratio: round(apiConcurrent.perSecond / rawConcurrent.perSecond, 3),
    };
  }

  const [counts] = await env.db.withInstance(workplace.instanceId, (tx) =>
    tx.query<{ entries: number; lines: number }>(
      `SELECT (SELECT count(*)::int FROM journal_entry WHERE instance_id = $1) AS entries,
              (SELECT count(*)::int FROM journal_line WHERE instance_id = $1) AS lines`,
      [workplace.instanceId],
    ),
  );
  result.check = { entries: counts!.entries, lines: counts!.lines, expectedEntries: offset };
  if (counts!.entries !== offset || counts!.lines !== 2 * offset) throw new Error(`(a) wrote ${JSON.stringify(counts)}, expected ${offset} entries`);
  return result;
}
