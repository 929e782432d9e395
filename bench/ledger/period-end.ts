/**
 * (d) Period-end figures at a million postings (issue 12, Proof): a ledger of a small Swiss company
 * on the accounts of the Swiss SME chart (bank, cash, receivables, input VAT, fixed assets,
 * payables, output VAT, bank loan, share capital, revenue, material, staff, rent, IT, depreciation,
 * finance and tax accounts) over 2020-01-01 … 2025-12-31, bulk-loaded as the owner like (c); the
 * years 2020–2023 are then closed through the real API (closing/checks, closing/book with the failed
 * checks acknowledged), so 2024 is the year being closed and its prior year is a closed one.
 *
 * Timed through the services (in a tenant transaction) and through HTTP, each beside a plain-SQL
 * baseline over journal_line that computes the same figures:
 *   - balance sheet at 2024-12-31 with the column at 2023-12-31 (statement/balance-sheet) —
 *     baseline: one `SELECT account_id, sum(amount * direction) … WHERE date_ledger <= $date GROUP BY`
 *     per column;
 *   - income statement 2024 with 2023 (statement/income) — baseline: per column the same sum over
 *     the period's postings, the closing entries left out (join journal_entry, source <> 'closing');
 *   - the checks for 2024 and for its last quarter (POST checks) — baseline: the checks' ledger
 *     figures in plain SQL: the per-entry scan of the period (balanced, two postings, duplicate
 *     candidates), every account's debit and credit at the period end and before its start, and
 *     the month sums of the period's postings (what the month-balance check compares);
 *   - the closing preview of 2024 (closing/preview) — baseline: every account's movement of the
 *     year without closing entries, and every account's balance at the year end.
 * Before timing, the service answers are compared with the baselines (`verified`).
 */
import { wireModules } from '../../apps/server/src/modules/wiring/wiring.js';
import { runChecks, type ChecksReport } from '../../apps/server/src/modules/accounting/checks.service.js';
import { previewClosing, type ClosingPreview } from '../../apps/server/src/modules/accounting/closing.service.js';
import { balanceSheet, incomeStatement, type BalanceSheet, type IncomeStatement, type StatementLine } from '../../apps/server/src/modules/accounting/statements.service.js';
import type { Tx } from '../../apps/server/src/db/database.js';
import { AccountType, Money } from '@bilan/domain';
import { explainAll, withoutCaptured } from './balances.js';
import { daysBetween } from './data.js';
import { log, repeat, round, throughput, timed, type Latency, type Throughput } from './measure.js';
import { oneLine, breakdown, type Breakdown } from './trace.js';
import { createWorkplace, reserveIds, type BenchEnv, type Workplace } from './setup.js';

const FROM = '2020-01-01';
const TO = '2025-12-31';
/** The year being closed; 2020 … YEAR − 1 are closed before timing. */
const YEAR = 2024;
const ENTRY_CHUNK = 100_000;

/**
 * The bookings of the synthetic company, debit / credit account numbers of the seeded Swiss SME
 * chart; entry k uses pattern k mod the number of patterns (two postings each).
 */
const PATTERNS: readonly (readonly [string, string])[] = [
  ['1100', '3200'], // sale of goods on account
  ['1100', '3400'], // services on account
  ['1100', '3200'],
  ['1100', '3000'], // production revenue
  ['1100', '2200'], // output VAT on the sales
  ['1020', '1100'], // customer payments
  ['1020', '1100'],
  ['1020', '1100'],
  ['1020', '1100'],
  ['4200', '2000'], // goods bought on account
  ['4000', '2000'], // material
  ['1170', '2000'], // input VAT on the purchases
  ['2000', '1020'], // supplier payments
  ['2000', '1020'],
  ['5000', '1020'], // salaries
  ['5700', '1020'], // social insurance
  ['6000', '1020'], // rent
  ['6570', '1020'], // IT
  ['6500', '1000'], // office supplies from the till
  ['1000', '1020'], // cash withdrawal
  ['1500', '1020'], // machines bought
  ['6800', '1500'], // depreciation
  ['6900', '1020'], // interest and bank charges
  ['8900', '1020'], // direct taxes
  ['1020', '2400'], // bank loan drawn
  ['2400', '1020'], // bank loan repaid
  ['1020', '2800'], // share capital paid in
];

export interface PeriodEndFigure {
  service: Latency;
  api: Latency;
  baseline: Latency;
  /** service median / baseline median (lower is better). */
  ratio: number;
  /** Per statement of one service call (medians over instrumented runs). */
  breakdown: Breakdown;
  explain?: { service: string[][]; baseline: string[][] };
}

export interface PeriodEndResult {
  lines: number;
  entries: number;
  /** The chart accounts the ledger posts to. */
  accounts: string[];
  dateRange: [string, string];
  load: Throughput & { method: string; analyzeMs: number };
  /** The years closed through the API before timing, with the time of each closing/book call (one run each). */
  closedYears: { year: number; acknowledged: string[]; bookMs: number }[];
  balanceSheet: PeriodEndFigure & { date: string; compareDate: string };
  incomeStatement: PeriodEndFigure & { dateFrom: string; dateTo: string; compareFrom: string; compareTo: string };
  checksYear: PeriodEndFigure & { dateFrom: string; dateTo: string; status: string; checks: Record<string, string> };
  checksQuarter: PeriodEndFigure & { dateFrom: string; dateTo: string; status: string; checks: Record<string, string> };
  closingPreview: PeriodEndFigure & { year: number; result: string; closingLines: number; openingAccounts: number };
  verified: { balanceSheet: boolean; incomeStatement: boolean; checksYear: boolean; checksQuarter: boolean; closingPreview: boolean };
}

async function bulkLoad(env: BenchEnv, workplace: Workplace, entries: number): Promise<number> {
  const { instanceId, currencyId } = workplace;
  const debit = PATTERNS.map(([number]) => accountId(workplace, number));
  const credit = PATTERNS.map(([, number]) => accountId(workplace, number));
  const firstEntry = await reserveIds(env, instanceId, 'journal_entry', entries);
  const firstLine = await reserveIds(env, instanceId, 'journal_line', entries * 2);
  const days = daysBetween(FROM, TO);
  const { ms } = await timed(async () => {
    for (let start = 0; start < entries; start += ENTRY_CHUNK) {
      const end = Math.min(entries, start + ENTRY_CHUNK) - 1;
      await env.db.asOwner(async (tx) => {
        await tx.query(
          `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref)
           SELECT $1::uuid, $2::int + k, $3::date + (k::bigint * $4::int / $5::int)::int, 'Booking ' || k, 'import', 'P' || k
             FROM generate_series($6::int, $7::int) AS k`,
          [instanceId, firstEntry, FROM, days, entries, start, end],
        );
        await tx.query(
          `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
           SELECT $1::uuid, $2::int + 2 * k + s, $3::int + k, $4::date + (k::bigint * $5::int / $6::int)::int,
                  CASE WHEN s = 0 THEN ($7::int[])[1 + k % $9::int] ELSE ($8::int[])[1 + k % $9::int] END,
                  (1 - 2 * s)::smallint, a.amount, $10::smallint, a.amount, 1
             FROM generate_series($11::int, $12::int) AS k
            CROSS JOIN LATERAL (SELECT ((((k::bigint * 7919) % 500000) + 1) / 100.0)::numeric(20, 2) AS amount) a
            CROSS JOIN generate_series(0, 1) AS s`,
          [instanceId, firstLine, firstEntry, FROM, days, entries, debit, credit, PATTERNS.length, currencyId, start, end],
        );
      });
      log(`${env.engine} (d): loaded ${(end + 1) * 2} lines`);
    }
  });
  return ms;
}

function accountId(workplace: Workplace, number: string): number {
  const id = workplace.accounts.get(number);
  if (id === undefined) throw new Error(`the seeded chart has no account ${number}`);
  return id;
}

async function analyze(env: BenchEnv): Promise<number> {
  const { ms } = await timed(async () => {
    const tables = 'journal_entry, journal_line, account_period_balance, journal_check_pending, journal_check_armed, instance_counter';
    if (env.direct) await env.direct.query(`VACUUM (ANALYZE) ${tables}`);
    else await env.db.asOwner((tx) => tx.query(`ANALYZE ${tables}`));
  });
  return ms;
}

/**
 * Closes the years FROM … YEAR − 1 through the API as an accountant would: closing/checks, then
 * closing/book acknowledging each failed check with a note (the synthetic ledger has no invoices,
 * so receivables and payables cannot agree with open documents).
 */
async function closeEarlierYears(env: BenchEnv, workplace: Workplace): Promise<PeriodEndResult['closedYears']> {
  const closed: PeriodEndResult['closedYears'] = [];
  for (let year = Number(FROM.slice(0, 4)); year < YEAR; year += 1) {
    const checks = await workplace.api.post<ChecksReport>('/api/accounting/closing/checks', { year });
    const failed = checks.checks.filter((check) => check.status === 'failed').map((check) => check.key);
    const acknowledgements = failed.map((key) => ({ key, note: 'Synthetic ledger of the benchmark: no documents behind the postings.' }));
    const { ms } = await timed(() => workplace.api.post('/api/accounting/closing/book', { year, acknowledgements }));
    closed.push({ year, acknowledged: failed, bookMs: round(ms) });
    log(`${env.engine} (d): closed ${year} through closing/book in ${round(ms)} ms (acknowledged: ${failed.join(', ') || 'none'})`);
  }
  return closed;
}

// Plain SQL over journal_line, run as the owner (no row security). Each computes the figures of one
// service answer; together they are the baseline of that figure.
const BALANCE_AT = `SELECT account_id, sum(amount * direction)::text AS amount
  FROM journal_line WHERE instance_id = $1 AND date_ledger <= $2 GROUP BY account_id`;
const MOVEMENT_WITHOUT_CLOSING = `SELECT l.account_id, sum(l.amount * l.direction)::text AS amount
  FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
 WHERE l.instance_id = $1 AND l.date_ledger BETWEEN $2 AND $3 AND e.source <> 'closing' GROUP BY l.account_id`;
const CHECK_ENTRIES = `WITH per_entry AS (
    SELECT entry_id, min(date_ledger) AS date_ledger, count(*) AS lines, sum(amount * direction) AS difference,
           sum(amount) FILTER (WHERE direction = 1) AS total
      FROM journal_line WHERE instance_id = $1 AND date_ledger BETWEEN $2 AND $3 GROUP BY entry_id)
  SELECT count(*)::int AS entries, coalesce(sum(lines), 0)::int AS lines,
         count(*) FILTER (WHERE difference <> 0 OR lines < 2)::int AS faulty,
         (SELECT count(*) FROM (SELECT 1 FROM per_entry GROUP BY date_ledger, total HAVING count(*) > 1) d)::int AS twin_groups
    FROM per_entry`;
const CHECK_BALANCES = `SELECT account_id,
         coalesce(sum(amount) FILTER (WHERE direction = 1), 0)::text AS debit_end,
         coalesce(sum(amount) FILTER (WHERE direction = -1), 0)::text AS credit_end,
         coalesce(sum(amount) FILTER (WHERE direction = 1 AND date_ledger < $2), 0)::text AS debit_before,
         coalesce(sum(amount) FILTER (WHERE direction = -1 AND date_ledger < $2), 0)::text AS credit_before
    FROM journal_line WHERE instance_id = $1 AND date_ledger <= $3 GROUP BY account_id`;
const CHECK_MONTHS = `SELECT account_id, date_trunc('month', date_ledger)::date AS period,
         coalesce(sum(amount) FILTER (WHERE direction = 1), 0) AS debit, coalesce(sum(amount) FILTER (WHERE direction = -1), 0) AS credit
    FROM journal_line WHERE instance_id = $1 AND date_ledger BETWEEN $2 AND $3 GROUP BY 1, 2`;

type Sums = Map<number, Money>;

async function sums(tx: Tx, sql: string, params: unknown[]): Promise<Sums> {
  const rows = await tx.query<{ account_id: number; amount: string }>(sql, params);
  return new Map(rows.map((row) => [row.account_id, new Money(row.amount)]));
}

/** Runs the statements of a baseline in one owner transaction. */
type Baseline = { text: string; params: unknown[] }[];

async function runBaseline(env: BenchEnv, baseline: Baseline): Promise<unknown[][]> {
  return env.db.asOwner(async (tx) => {
    const results: unknown[][] = [];
    for (const q of baseline) results.push(await tx.query(q.text, q.params));
    return results;
  });
}

async function explainBaseline(env: BenchEnv, baseline: Baseline): Promise<string[][]> {
  const plans: string[][] = [];
  for (const q of baseline) {
    const rows = await env.db.asOwner((tx) => tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.params));
    plans.push([oneLine(q.text), ...rows.map((r) => r['QUERY PLAN'])]);
  }
  return plans;
}

/** Every account of a statement with its amounts, by id (the unclosed result, id null, apart). */
function statementAccounts(lines: readonly StatementLine[]) {
  const accounts = new Map<number, { sign: 1 | -1; amount: string; compareAmount: string | null }>();
  let unclosed: { amount: string; compareAmount: string | null } | null = null;
  for (const line of lines) {
    for (const account of line.accounts) {
      if (account.id === null) unclosed = { amount: account.amount, compareAmount: account.compareAmount };
      else accounts.set(account.id, { sign: line.side === 'debit' ? 1 : -1, amount: account.amount, compareAmount: account.compareAmount });
    }
  }
  return { accounts, unclosed };
}

const same = (a: Money, b: string | null) => b !== null && a.eq(new Money(b));

/**
 * The statement's accounts equal the baseline's sums with the line's sign, in both columns, and no
 * account of the statement (`isOfStatement`) with a non-zero sum is missing.
 */
function verifyStatement(lines: readonly StatementLine[], columns: readonly [Sums, Sums], isOfStatement: (id: number) => boolean): boolean {
  const { accounts } = statementAccounts(lines);
  for (const [id, account] of accounts) {
    if (!same((columns[0].get(id) ?? new Money(0)).times(account.sign), account.amount)) return false;
    if (!same((columns[1].get(id) ?? new Money(0)).times(account.sign), account.compareAmount)) return false;
  }
  for (const column of columns) for (const [id, value] of column) if (isOfStatement(id) && !value.isZero() && !accounts.has(id)) return false;
  return true;
}

export async function benchPeriodEnd(env: BenchEnv, options: { lines: number; runs: number; explain: boolean }): Promise<PeriodEndResult> {
  const entries = Math.max(1, Math.floor(options.lines / 2));
  const workplace = await createWorkplace(env, 'period-end');
  const id = workplace.instanceId;
  log(`${env.engine} (d): bulk load of ${entries * 2} lines over ${new Set(PATTERNS.flat()).size} accounts of the SME chart, ${FROM} to ${TO}`);
  const loadMs = await bulkLoad(env, workplace, entries);
  const analyzeMs = await analyze(env);
  const load = {
    ...throughput(entries * 2, loadMs),
    method: `owner transactions of ${ENTRY_CHUNK} entries: INSERT journal_entry … SELECT FROM generate_series, then INSERT journal_line likewise (triggers keep account_period_balance)`,
    analyzeMs: round(analyzeMs),
  };
  log(`${env.engine} (d): loaded at ${load.perSecond} lines/s; ${env.direct ? 'VACUUM ANALYZE' : 'ANALYZE'} ${load.analyzeMs} ms`);
  const closedYears = await closeEarlierYears(env, workplace);
  await analyze(env);

  const types = new Map(
    (await env.db.asOwner((tx) => tx.query<{ id: number; type_id: number }>('SELECT id, type_id FROM ledger_account WHERE instance_id = $1', [id]))).map(
      (row) => [row.id, row.type_id],
    ),
  );
  const typeOf = (accountId: number) => types.get(accountId) ?? 0;
  const isBalanceSheet = (accountId: number) => ([AccountType.assets, AccountType.liability, AccountType.equity] as number[]).includes(typeOf(accountId));
  const isIncome = (accountId: number) => ([AccountType.expenses, AccountType.revenue] as number[]).includes(typeOf(accountId));
  const { checkSources } = wireModules();

  const runs = { runs: options.runs, warmup: 3 };
  const slowRuns = { runs: Math.min(options.runs, 9), warmup: 1 };
  const baselineRuns = { runs: options.runs, warmup: 1, budgetMs: 60_000, minRuns: 3 };

  async function figure<T>(
    name: string,
    call: (tx: Tx) => Promise<T>,
    http: () => Promise<unknown>,
    baseline: Baseline,
    repeatOptions: { runs: number; warmup: number },
  ): Promise<PeriodEndFigure> {
    log(`${env.engine} (d): ${name}`);
    const service = await repeat(() => env.db.withInstance(id, call), repeatOptions);
    const api = await repeat(http, repeatOptions);
    const traced = await breakdown(env.db, id, (tx) => call(tx), { runs: Math.min(9, repeatOptions.runs), warmup: 1 });
    const base = await repeat(() => runBaseline(env, baseline), baselineRuns);
    log(`${env.engine} (d): ${name}: service ${service.medianMs} ms, API ${api.medianMs} ms, plain SQL ${base.medianMs} ms`);
    const result: PeriodEndFigure = {
      service,
      api,
      baseline: base,
      ratio: round(service.medianMs / base.medianMs, 4),
      breakdown: withoutCaptured(traced),
    };
    if (options.explain) result.explain = { service: await explainAll(env, id, traced.captured), baseline: await explainBaseline(env, baseline) };
    return result;
  }

  // Balance sheet at the year end with the prior year end.
  const bsDate = `${YEAR}-12-31`;
  const bsCompare = `${YEAR - 1}-12-31`;
  const bsCall = (tx: Tx) => balanceSheet(tx, id, { date: bsDate, compareDate: bsCompare, lang: 'de' });
  const bsBaseline: Baseline = [
    { text: BALANCE_AT, params: [id, bsDate] },
    { text: BALANCE_AT, params: [id, bsCompare] },
  ];
  const bs: BalanceSheet = await env.db.withInstance(id, bsCall);
  const bsColumns = await env.db.asOwner(async (tx) => [await sums(tx, BALANCE_AT, [id, bsDate]), await sums(tx, BALANCE_AT, [id, bsCompare])] as const);
  const bsLines = bs.sides.flatMap((side) => side.sections.flatMap((section) => section.lines));
  const unclosedOf = (column: Sums) => [...column].filter(([accountId]) => isIncome(accountId)).reduce((sum, [, value]) => sum.minus(value), new Money(0));
  const { unclosed } = statementAccounts(bsLines);
  const bsOk =
    verifyStatement(bsLines, bsColumns, isBalanceSheet) &&
    bs.balanced &&
    bs.compareBalanced === true &&
    unclosedOf(bsColumns[0]).eq(new Money(unclosed?.amount ?? '0')) &&
    unclosedOf(bsColumns[1]).eq(new Money(unclosed?.compareAmount ?? '0'));
  const balanceSheetFigure = await figure(
    `balance sheet at ${bsDate} with ${bsCompare}`,
    bsCall,
    () => workplace.api.post('/api/accounting/statement/balance-sheet', { date: bsDate, compareDate: bsCompare, lang: 'de' }),
    bsBaseline,
    runs,
  );

  // Income statement of the year with the prior year.
  const period = { dateFrom: `${YEAR}-01-01`, dateTo: `${YEAR}-12-31` };
  const prior = { dateFrom: `${YEAR - 1}-01-01`, dateTo: `${YEAR - 1}-12-31` };
  const isCall = (tx: Tx) => incomeStatement(tx, id, { ...period, compare: prior, lang: 'de' });
  const isBaseline: Baseline = [
    { text: MOVEMENT_WITHOUT_CLOSING, params: [id, period.dateFrom, period.dateTo] },
    { text: MOVEMENT_WITHOUT_CLOSING, params: [id, prior.dateFrom, prior.dateTo] },
  ];
  const is: IncomeStatement = await env.db.withInstance(id, isCall);
  const isColumns = await env.db.asOwner(
    async (tx) =>
      [await sums(tx, MOVEMENT_WITHOUT_CLOSING, [id, period.dateFrom, period.dateTo]), await sums(tx, MOVEMENT_WITHOUT_CLOSING, [id, prior.dateFrom, prior.dateTo])] as const,
  );
  const isOk =
    verifyStatement(
      is.sections.flatMap((section) => section.lines),
      isColumns,
      isIncome,
    ) &&
    unclosedOf(isColumns[0]).eq(new Money(is.result.amount)) &&
    unclosedOf(isColumns[1]).eq(new Money(is.result.compareAmount ?? 'NaN'));
  const incomeFigure = await figure(
    `income statement ${YEAR} with ${YEAR - 1}`,
    isCall,
    () => workplace.api.post('/api/accounting/statement/income', { ...period, compareFrom: prior.dateFrom, compareTo: prior.dateTo, lang: 'de' }),
    isBaseline,
    runs,
  );

  // The checks for the year and for its last quarter.
  async function checksFigure(dateFrom: string, dateTo: string) {
    const call = (tx: Tx) => runChecks(tx, id, checkSources, { dateFrom, dateTo });
    const baseline: Baseline = [
      { text: CHECK_ENTRIES, params: [id, dateFrom, dateTo] },
      { text: CHECK_BALANCES, params: [id, dateFrom, dateTo] },
      { text: CHECK_MONTHS, params: [id, `${dateFrom.slice(0, 7)}-01`, dateTo] },
    ];
    const report: ChecksReport = await env.db.withInstance(id, call);
    const [[counts]] = (await runBaseline(env, baseline.slice(0, 1))) as [{ entries: number; lines: number; faulty: number }[]];
    const entriesCheck = report.checks.find((check) => check.key === 'entries-balanced');
    const trial = report.checks.find((check) => check.key === 'trial-balance');
    const ok =
      entriesCheck?.status === 'passed' &&
      counts!.faulty === 0 &&
      (entriesCheck.detail.replace(/'/g, '').includes(`${counts!.entries} entries with ${counts!.lines} postings`) ?? false) &&
      trial?.status === 'passed';
    const result = await figure(
      `checks ${dateFrom} … ${dateTo}`,
      call,
      () => workplace.api.post('/api/accounting/checks', { dateFrom, dateTo }),
      baseline,
      slowRuns,
    );
    return {
      ...result,
      dateFrom,
      dateTo,
      status: report.status,
      checks: Object.fromEntries(report.checks.map((check) => [check.key, check.status])),
      ok,
    };
  }
  const { ok: checksYearOk, ...checksYear } = await checksFigure(period.dateFrom, period.dateTo);
  const { ok: checksQuarterOk, ...checksQuarter } = await checksFigure(`${YEAR}-10-01`, period.dateTo);

  // The closing preview of the year.
  const cpCall = (tx: Tx) => previewClosing(tx, id, YEAR);
  const cpBaseline: Baseline = [
    { text: MOVEMENT_WITHOUT_CLOSING, params: [id, period.dateFrom, period.dateTo] },
    { text: BALANCE_AT, params: [id, period.dateTo] },
  ];
  const preview: ClosingPreview = await env.db.withInstance(id, cpCall);
  const cpOk = unclosedOf(isColumns[0]).eq(new Money(preview.result)) && preview.blockers.length === 0;
  const closingFigure = await figure(`closing preview ${YEAR}`, cpCall, () => workplace.api.post('/api/accounting/closing/preview', { year: YEAR }), cpBaseline, runs);

  const verified = { balanceSheet: bsOk, incomeStatement: isOk, checksYear: checksYearOk, checksQuarter: checksQuarterOk, closingPreview: cpOk };
  for (const [name, ok] of Object.entries(verified)) if (!ok) log(`${env.engine} (d): WARNING ${name} differs from the plain SQL`);

  return {
    lines: entries * 2,
    entries,
    accounts: [...new Set(PATTERNS.flat())].sort(),
    dateRange: [FROM, TO],
    load,
    closedYears,
    balanceSheet: { ...balanceSheetFigure, date: bsDate, compareDate: bsCompare },
    incomeStatement: { ...incomeFigure, ...period, compareFrom: prior.dateFrom, compareTo: prior.dateTo },
    checksYear,
    checksQuarter,
    closingPreview: {
      ...closingFigure,
      year: YEAR,
      result: preview.result,
      closingLines: preview.entry.lines.length,
      openingAccounts: preview.opening.accounts.length,
    },
    verified,
  };
}
