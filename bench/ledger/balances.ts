/**
 * (c) Balances at a million lines: the ledger is bulk-loaded as the owner with INSERT … SELECT FROM
 * generate_series (the statement triggers maintain account_period_balance as for any write), then
 * the trial balance as of a date and the 12 month-end balances are timed — through the services
 * (trialBalance / balancesAtDates in a tenant transaction) and through the HTTP API (balance/get,
 * balance/get/multi) — against a plain `SELECT account_id, sum(amount * direction) … GROUP BY
 * account_id` over journal_line (and 12 of them).
 */
import { balancesAtDates, monthEndsOf, trialBalance } from '../../apps/server/src/modules/accounting/balance.service.js';
import { pickAccounts, daysBetween } from './data.js';
import { log, repeat, round, throughput, timed, type Latency, type Throughput } from './measure.js';
import { breakdown, oneLine, type Breakdown, type Captured } from './trace.js';
import { createWorkplace, reserveIds, type BenchEnv } from './setup.js';

const FROM = '2020-01-01';
const TO = '2025-12-31';
const YEAR = 2025;
/** Mid-month, so the trial balance also reads the postings of a partial month (the slower path). */
const TRIAL_DATE = `${YEAR}-06-15`;
const ENTRY_CHUNK = 100_000;

const BASELINE = `SELECT account_id, sum(amount * direction) AS balance
  FROM journal_line WHERE instance_id = $1 AND date_ledger <= $2 GROUP BY account_id`;

export interface Figure {
  service: Latency;
  api: Latency;
  baseline: Latency;
  /** service median / baseline median (lower is better). */
  ratio: number;
  /** Per statement of one service call (medians over instrumented runs). */
  breakdown: Breakdown;
  explain?: { service: string[][]; baseline: string[] };
}

export interface BalancesResult {
  lines: number;
  entries: number;
  accounts: number;
  dateRange: [string, string];
  load: Throughput & { method: string; analyzeMs: number };
  trialBalance: Figure & { date: string };
  trialBalanceMonthEnd: { date: string; service: Latency };
  monthEnds: Figure & { endDates: string[] };
  verified: { trialBalance: boolean; monthEnds: boolean; accountsCompared: number };
}

async function bulkLoad(env: BenchEnv, instanceId: string, accountIds: readonly number[], currencyId: number, entries: number) {
  const firstEntry = await reserveIds(env, instanceId, 'journal_entry', entries);
  const firstLine = await reserveIds(env, instanceId, 'journal_line', entries * 2);
  const days = daysBetween(FROM, TO);
  let loaded = 0;
  const { ms } = await timed(async () => {
    for (let start = 0; start < entries; start += ENTRY_CHUNK) {
      const end = Math.min(entries, start + ENTRY_CHUNK) - 1;
      await env.db.asOwner(async (tx) => {
        await tx.query(
          `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref)
           SELECT $1::uuid, $2::int + k, $3::date + (k::bigint * $4::int / $5::int)::int, 'Bench entry ' || k, 'import', 'B' || k
             FROM generate_series($6::int, $7::int) AS k`,
          [instanceId, firstEntry, FROM, days, entries, start, end],
        );
        await tx.query(
          `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
           SELECT $1::uuid, $2::int + 2 * k + s, $3::int + k, $4::date + (k::bigint * $5::int / $6::int)::int,
                  CASE WHEN s = 0 THEN ($7::int[])[1 + k % $8::int] ELSE ($7::int[])[1 + (k * 7 + 3) % $8::int] END,
                  (1 - 2 * s)::smallint, a.amount, $9::smallint, a.amount, 1
             FROM generate_series($10::int, $11::int) AS k
            CROSS JOIN LATERAL (SELECT ((((k::bigint * 7919) % 500000) + 1) / 100.0)::numeric(20, 2) AS amount) a
            CROSS JOIN generate_series(0, 1) AS s`,
          [instanceId, firstLine, firstEntry, FROM, days, entries, [...accountIds], accountIds.length, currencyId, start, end],
        );
      });
      loaded = end + 1;
      log(`${env.engine} (c): loaded ${loaded * 2} lines`);
    }
  });
  return ms;
}

async function analyze(env: BenchEnv): Promise<number> {
  const { ms } = await timed(async () => {
    // Also the bookkeeping tables the load churned, so autovacuum does not wake up during the timings.
    const tables = 'journal_entry, journal_line, account_period_balance, journal_check_pending, journal_check_armed, instance_counter';
    if (env.direct) await env.direct.query(`VACUUM (ANALYZE) ${tables}`);
    else await env.db.asOwner((tx) => tx.query(`ANALYZE ${tables}`));
  });
  return ms;
}

export async function explainAll(env: BenchEnv, instanceId: string, captured: readonly Captured[]): Promise<string[][]> {
  const plans: string[][] = [];
  for (const q of captured) {
    const rows = await env.db.withInstance(instanceId, (tx) => tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.params));
    plans.push([oneLine(q.text), ...rows.map((r) => r['QUERY PLAN'])]);
  }
  return plans;
}

async function explainBaseline(env: BenchEnv, instanceId: string, date: string): Promise<string[]> {
  const rows = await env.db.asOwner((tx) => tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${BASELINE}`, [instanceId, date]));
  return [oneLine(BASELINE), ...rows.map((r) => r['QUERY PLAN'])];
}

export const withoutCaptured = ({ captured: _captured, ...rest }: Breakdown & { captured: Captured[] }): Breakdown => rest;

type Balances = Map<number, string>;
const normalize = (value: string) => (Number(value) === 0 ? '0.00' : value.replace(/^(-?\d+)$/, '$1.00'));

async function baselineBalances(env: BenchEnv, instanceId: string, date: string): Promise<Balances> {
  const rows = await env.db.asOwner((tx) => tx.query<{ account_id: number; balance: string }>(BASELINE, [instanceId, date]));
  return new Map(rows.map((r) => [r.account_id, normalize(r.balance)]));
}

const sameBalances = (a: Balances, b: Balances) => {
  const nonZero = (m: Balances) => [...m].filter(([, v]) => v !== '0.00');
  const left = nonZero(a);
  return left.length === nonZero(b).length && left.every(([id, v]) => b.get(id) === v);
};

export async function benchBalances(
  env: BenchEnv,
  options: { lines: number; runs: number; explain: boolean },
): Promise<BalancesResult> {
  const entries = Math.max(1, Math.floor(options.lines / 2));
  const workplace = await createWorkplace(env, 'ledger');
  const accounts = pickAccounts(workplace.accounts, 40);
  log(`${env.engine} (c): bulk load of ${entries * 2} lines over ${accounts.length} accounts, ${FROM} to ${TO}`);
  const loadMs = await bulkLoad(
    env,
    workplace.instanceId,
    accounts.map((a) => a.id),
    workplace.currencyId,
    entries,
  );
  const analyzeMs = await analyze(env);
  const load = {
    ...throughput(entries * 2, loadMs),
    method: `owner transactions of ${ENTRY_CHUNK} entries: INSERT journal_entry … SELECT FROM generate_series, then INSERT journal_line likewise (triggers keep account_period_balance)`,
    analyzeMs: round(analyzeMs),
  };
  log(`${env.engine} (c): loaded at ${load.perSecond} lines/s; ${env.direct ? 'VACUUM ANALYZE' : 'ANALYZE'} ${load.analyzeMs} ms`);

  const id = workplace.instanceId;
  const endDates = monthEndsOf(YEAR);
  const runs = { runs: options.runs, warmup: 3 };
  const slow = { runs: options.runs, warmup: 1, budgetMs: 60_000, minRuns: 3 };

  // Correctness first: the service answers what a plain SUM over the postings answers.
  const tb = await env.db.withInstance(id, (tx) => trialBalance(tx, id, TRIAL_DATE));
  const tbBase = await baselineBalances(env, id, TRIAL_DATE);
  const tbOk = sameBalances(new Map(tb.accounts.map((a) => [a.id, a.balance])), tbBase);
  const multi = await env.db.withInstance(id, (tx) => balancesAtDates(tx, id, endDates));
  let multiOk = true;
  for (const [i, date] of endDates.entries()) {
    const base = await baselineBalances(env, id, date);
    multiOk &&= sameBalances(new Map(multi.accounts.map((a) => [a.id, a.balances[i]!])), base);
  }
  if (!tbOk || !multiOk) log(`${env.engine} (c): WARNING the service balances differ from the plain SUM`);

  log(`${env.engine} (c): trial balance as of ${TRIAL_DATE}`);
  const tbService = await repeat(() => env.db.withInstance(id, (tx) => trialBalance(tx, id, TRIAL_DATE)), runs);
  const tbApi = await repeat(() => workplace.api.post('/api/accounting/balance/get', { date: TRIAL_DATE }), runs);
  const tbBreakdown = await breakdown(env.db, id, (tx) => trialBalance(tx, id, TRIAL_DATE), { runs: 9, warmup: 2 });
  const tbBaseline = await repeat(() => env.db.asOwner((tx) => tx.query(BASELINE, [id, TRIAL_DATE])), slow);
  const tbMonthEnd = await repeat(() => env.db.withInstance(id, (tx) => trialBalance(tx, id, `${YEAR}-06-30`)), runs);
  log(`${env.engine} (c): trial balance service ${tbService.medianMs} ms, API ${tbApi.medianMs} ms, plain SUM ${tbBaseline.medianMs} ms`);

  log(`${env.engine} (c): 12 month-end balances of ${YEAR}`);
  const meService = await repeat(() => env.db.withInstance(id, (tx) => balancesAtDates(tx, id, endDates)), runs);
  const meApi = await repeat(() => workplace.api.post('/api/accounting/balance/get/multi', { endDates }), runs);
  const meBreakdown = await breakdown(env.db, id, (tx) => balancesAtDates(tx, id, endDates), { runs: 9, warmup: 2 });
  const meBaseline = await repeat(
    () =>
      env.db.asOwner(async (tx) => {
        for (const date of endDates) await tx.query(BASELINE, [id, date]);
      }),
    slow,
  );
  log(`${env.engine} (c): month-ends service ${meService.medianMs} ms, API ${meApi.medianMs} ms, 12 plain SUMs ${meBaseline.medianMs} ms`);

  const trialBalanceFigure: BalancesResult['trialBalance'] = {
    date: TRIAL_DATE,
    service: tbService,
    api: tbApi,
    baseline: tbBaseline,
    ratio: round(tbService.medianMs / tbBaseline.medianMs, 4),
    breakdown: withoutCaptured(tbBreakdown),
  };
  const monthEndsFigure: BalancesResult['monthEnds'] = {
    endDates,
    service: meService,
    api: meApi,
    baseline: meBaseline,
    ratio: round(meService.medianMs / meBaseline.medianMs, 4),
    breakdown: withoutCaptured(meBreakdown),
  };
  if (options.explain) {
    log(`${env.engine} (c): EXPLAIN ANALYZE of the service statements and the baseline`);
    trialBalanceFigure.explain = {
      service: await explainAll(env, id, tbBreakdown.captured),
      baseline: await explainBaseline(env, id, TRIAL_DATE),
    };
    monthEndsFigure.explain = {
      service: await explainAll(env, id, meBreakdown.captured),
      baseline: await explainBaseline(env, id, endDates[endDates.length - 1]!),
    };
  }

  return {
    lines: entries * 2,
    entries,
    accounts: accounts.length,
    dateRange: [FROM, TO],
    load,
    trialBalance: trialBalanceFigure,
    trialBalanceMonthEnd: { date: `${YEAR}-06-30`, service: tbMonthEnd },
    monthEnds: monthEndsFigure,
    verified: { trialBalance: tbOk, monthEnds: multiOk, accountsCompared: tbBase.size },
  };
}
