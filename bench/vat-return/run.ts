/**
 * VAT return benchmark (issue 13 Proof: "the return for a year of 1,000,000 lines computes in ≤ 200
 * ms on PostgreSQL"). A fresh PostgreSQL database with the real app (bench/ledger/setup.ts), one
 * onboarded workplace, and a year (2025) of 250,000 four-line entries bulk-loaded as the owner with
 * INSERT … SELECT FROM generate_series (the triggers keep the month balances as for any write):
 *   k mod 4 = 0 sale:     1020 D gross / 3200 C base V81 / 3400 C base V81 / 2200 C tax V81
 *   k mod 4 = 1 purchase: 4200 D base M81 / 4400 D base M81 / 1170 D tax M81 / 2000 C gross
 *   k mod 4 = 2 rent:     6000 D base I81 / 1171 D tax I81 / 1020 C / 1000 C 1.00
 *   k mod 4 = 3 export:   1100 D / 3200 C base X0 / 6940 D 0.50 / 1020 C 0.50
 * (562,500 coded postings). Timed, medians of `--runs`:
 *   - api:      POST /api/accounting/vat/return/compute for the year (figures, settlement, reconciliation),
 *               and the same work (getVatReturn) statement by statement;
 *   - service:  computeVatBooks (the figures alone) in a tenant transaction;
 *   - received: the same with received consideration (no documents in this data: the document part is empty);
 *   - baseline: the plain SQL `SELECT vat_code, vat_role, vat_percent, sum(vat_base), sum(vat_amount)
 *               … GROUP BY` over the year — the least any return from postings must read.
 * The figures are checked against the baseline's sums. Prints JSON (progress on stderr); no
 * assertion on time. `npm run bench:vat -w @bilan/bench [-- --lines N --runs N --pg-url URL]`.
 */
import { parseArgs } from 'node:util';
import { getVatReturn } from '../../apps/server/src/modules/accounting/vat-filing.service.js';
import { computeVatBooks } from '../../apps/server/src/modules/accounting/vat-return.service.js';
import { breakdown, oneLine } from '../ledger/trace.js';
import { log, machineInfo, repeat, round, throughput, timed } from '../ledger/measure.js';
import { createWorkplace, reserveIds, startEnv } from '../ledger/setup.js';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '15' },
    'pg-url': { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});
const lines = Number(values.lines);
const runs = Number(values.runs);
const pgUrl = values['pg-url'] ?? process.env.BILAN_BENCH_PG_URL ?? process.env.BILAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const entries = Math.floor(lines / 4);
const YEAR = { dateFrom: '2025-01-01', dateTo: '2025-12-31' };
const CHUNK = 50_000;

const BASELINE = `SELECT vat_code, vat_role, vat_percent, sum(vat_base) AS base, sum(vat_amount) AS amount
  FROM journal_line WHERE instance_id = $1 AND date_ledger BETWEEN $2 AND $3 AND vat_code IS NOT NULL
 GROUP BY vat_code, vat_role, vat_percent`;

const env = await startEnv('postgres', pgUrl);
try {
  const workplace = await createWorkplace(env, 'vat');
  const { instanceId, accounts } = workplace;
  const id = (number: string) => {
    const found = accounts.get(number);
    if (found === undefined) throw new Error(`no account ${number}`);
    return found;
  };
  await workplace.api.post('/api/accounting/vat/settings/update', {
    data: { vatNumber: 'CHE-116.281.710 MWST', registrationDate: '2020-01-01', method: 'effective', basis: 'agreed', period: 'yearly' },
  });
  // Accounts by slot: [mode][line] (mode = k mod 4).
  const slots = [
    ['1020', '3200', '3400', '2200'],
    ['4200', '4400', '1170', '2000'],
    ['6000', '1171', '1020', '1000'],
    ['1100', '3200', '6940', '1020'],
  ].map((row) => row.map(id));
  const firstEntry = await reserveIds(env, instanceId, 'journal_entry', entries);
  const firstLine = await reserveIds(env, instanceId, 'journal_line', entries * 4);
  log(`bulk load of ${entries * 4} lines (${entries} entries) over 2025`);
  const load = await timed(async () => {
    for (let start = 0; start < entries; start += CHUNK) {
      const end = Math.min(entries, start + CHUNK) - 1;
      await env.db.asOwner(async (tx) => {
        await tx.query(
          `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref)
           SELECT $1::uuid, $2::int + k, DATE '2025-01-01' + (k::bigint * 365 / $3::int)::int, 'VAT bench ' || k, 'import', 'V' || k
             FROM generate_series($4::int, $5::int) AS k`,
          [instanceId, firstEntry, entries, start, end],
        );
        // b1, b2: bases; t: tax of a sale or purchase on b1 + b2; t1: tax of the rent on b1.
        await tx.query(
          `WITH e AS (
             SELECT k, k % 4 AS m, DATE '2025-01-01' + (k::bigint * 365 / $3::int)::int AS d, v.b1, v.b2,
                    round((v.b1 + v.b2) * 0.081, 2) AS t, round(v.b1 * 0.081, 2) AS t1
               FROM generate_series($4::int, $5::int) AS k
              CROSS JOIN LATERAL (SELECT ((((k::bigint * 7919) % 500000) + 100) / 100.0)::numeric(20, 2) AS b1,
                                         round(((((k::bigint * 7919) % 500000) + 100) / 300.0), 2)::numeric(20, 2) AS b2) v
           ), l AS (
             SELECT e.*, s,
                    CASE m WHEN 0 THEN (ARRAY[b1 + b2 + t, b1, b2, t])[s + 1]
                           WHEN 1 THEN (ARRAY[b1, b2, t, b1 + b2 + t])[s + 1]
                           WHEN 2 THEN (ARRAY[b1, t1, b1 + t1 - 1, 1.00])[s + 1]
                           ELSE (ARRAY[b1, b1, 0.50, 0.50])[s + 1] END AS amount,
                    CASE m WHEN 0 THEN (ARRAY[1, -1, -1, -1])[s + 1] WHEN 1 THEN (ARRAY[1, 1, 1, -1])[s + 1]
                           WHEN 2 THEN (ARRAY[1, 1, -1, -1])[s + 1] ELSE (ARRAY[1, -1, 1, -1])[s + 1] END AS direction,
                    CASE m WHEN 0 THEN (ARRAY[NULL, 'V81', 'V81', 'V81'])[s + 1] WHEN 1 THEN (ARRAY['M81', 'M81', 'M81', NULL])[s + 1]
                           WHEN 2 THEN (ARRAY['I81', 'I81', NULL, NULL])[s + 1] ELSE (ARRAY[NULL, 'X0', NULL, NULL])[s + 1] END AS code,
                    CASE m WHEN 0 THEN (ARRAY[NULL, 'base', 'base', 'tax'])[s + 1] WHEN 1 THEN (ARRAY['base', 'base', 'tax', NULL])[s + 1]
                           WHEN 2 THEN (ARRAY['base', 'tax', NULL, NULL])[s + 1] ELSE (ARRAY[NULL, 'base', NULL, NULL])[s + 1] END AS role
               FROM e CROSS JOIN generate_series(0, 3) AS s
           )
           INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate,
                                     vat_code, vat_role, vat_percent, vat_base, vat_amount)
           SELECT $1::uuid, $2::int + 4 * k + s, $6::int + k, d, ($7::int[])[1 + m * 4 + s], direction::smallint, amount, $8::smallint, amount, 1,
                  code, role,
                  CASE WHEN code IS NULL THEN NULL WHEN code = 'X0' THEN 0 ELSE 8.1 END,
                  CASE WHEN code IS NULL THEN NULL WHEN role = 'base' THEN amount WHEN m = 2 THEN b1 ELSE b1 + b2 END,
                  CASE WHEN code IS NULL THEN NULL WHEN role = 'tax' THEN amount WHEN code = 'X0' THEN 0 ELSE round(amount * 0.081, 2) END
             FROM l`,
          [instanceId, firstLine, entries, start, end, firstEntry, slots.flat(), workplace.currencyId],
        );
      });
      log(`loaded ${(end + 1) * 4} lines`);
    }
  });
  const vacuum = await timed(async () => env.direct!.query('VACUUM (ANALYZE) journal_entry, journal_line, account_period_balance, journal_check_pending, journal_check_armed'));
  log('timing');

  const rules = { method: 'effective' as const, basis: 'agreed' as const, netTaxRates: [] };
  const service = () => env.db.withInstance(instanceId, (tx) => computeVatBooks(tx, instanceId, rules, YEAR.dateFrom, YEAR.dateTo));
  const received = () => env.db.withInstance(instanceId, (tx) => computeVatBooks(tx, instanceId, { ...rules, basis: 'received' }, YEAR.dateFrom, YEAR.dateTo));
  const api = () => workplace.api.post('/api/accounting/vat/return/compute', YEAR);
  const baseline = () => env.db.asOwner((tx) => tx.query<{ vat_code: string; vat_role: string; base: string; amount: string }>(BASELINE, [instanceId, YEAR.dateFrom, YEAR.dateTo]));
  const options = { runs, warmup: 2 };
  const figures = {
    api: await repeat(api, options),
    service: await repeat(service, options),
    received: await repeat(received, options),
    baseline: await repeat(baseline, options),
  };

  // Where the API's time goes: the return of the year (figures, settlement, reconciliation), statement by statement.
  const { captured, ...perStatement } = await breakdown(env.db, instanceId, (tx) => getVatReturn(tx, instanceId, { ...YEAR, typeOfSubmission: 1 }), { runs: Math.min(runs, 7), warmup: 1 });

  // The figures against the baseline's sums: 303 = V81 bases and tax, 400 = M81 tax, 405 = I81 tax, 220 = X0 bases.
  const books = (await service()).figures;
  const sums = await baseline();
  const sum = (code: string, role: string, column: 'base' | 'amount') => {
    const row = sums.find((r) => r.vat_code === code && r.vat_role === role);
    return row ? Number(row[column]).toFixed(2) : '0.00';
  };
  const line303 = books.taxLines.find((l) => l.ziffer === '303')!;
  const verified =
    line303.base === sum('V81', 'base', 'base') &&
    line303.tax === sum('V81', 'tax', 'amount') &&
    books.figures['400'] === sum('M81', 'tax', 'amount') &&
    books.figures['405'] === sum('I81', 'tax', 'amount') &&
    books.figures['220'] === sum('X0', 'base', 'base');

  let explain: { baseline: string[]; api: string[][] } | undefined;
  if (values.explain) {
    const plan = (text: string, params: readonly unknown[]) =>
      env.db.withInstance(instanceId, async (tx) => (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)).map((r) => r['QUERY PLAN']));
    const api: string[][] = [];
    for (const q of captured) api.push([oneLine(q.text).slice(0, 200), ...(await plan(q.text, q.params))]);
    explain = { baseline: await plan(BASELINE, [instanceId, YEAR.dateFrom, YEAR.dateTo]), api };
  }
  const [coded] = await env.db.asOwner((tx) => tx.query<{ n: string }>('SELECT count(*)::text AS n FROM journal_line WHERE instance_id = $1 AND vat_code IS NOT NULL', [instanceId]));
  console.log(
    JSON.stringify(
      {
        benchmark: 'vat-return',
        engine: env.engine,
        serverVersion: env.serverVersion,
        settings: env.settings,
        machine: machineInfo(),
        lines: entries * 4,
        codedLines: Number(coded!.n),
        entries,
        load: { ...throughput(entries * 4, load.ms), vacuumAnalyzeMs: round(vacuum.ms) },
        yearReturn: figures,
        /** getVatReturn (what the API answers) per statement, medians. */
        apiBreakdown: perStatement,
        ratio: { serviceToBaseline: round(figures.service.medianMs / figures.baseline.medianMs), apiToBaseline: round(figures.api.medianMs / figures.baseline.medianMs) },
        targetMs: 200,
        figures: { '200': books.figures['200'], '303': { base: line303.base, tax: line303.tax }, '400': books.figures['400'], '405': books.figures['405'], '500': books.figures['500'] },
        verified,
        ...(explain ? { explain } : {}),
      },
      null,
      2,
    ),
  );
} finally {
  await env.close();
}
