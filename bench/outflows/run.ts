/**
 * Outflows export benchmark (issue #5 §5): 100,000 payables through the streamed ExportOutflows.csv
 * generator, measuring time and the heap's high-water mark while streaming. Prints JSON.
 * `npm run bench:outflows -w @bilan/bench` (BENCH_ROWS to change the row count; DATABASE_URL to use
 * a PostgreSQL server instead of an in-memory PGlite; NODE_OPTIONS=--expose-gc adds the heap that
 * stays reachable after full collections, `retainedGrowthMB`).
 */
import { openPglite, openPostgres } from '../../apps/server/src/db/database.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { outflowsCsvLines } from '../../apps/server/src/modules/payables/outflows.js';

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const db = process.env.DATABASE_URL ? await openPostgres(process.env.DATABASE_URL) : await openPglite(undefined);
await migrate(db);

const instanceId = await db.asOwner(async (tx) => {
  const [instance] = await tx.query<{ id: string }>(`INSERT INTO instance (name) VALUES ($1) RETURNING id`, [`Bench ${Date.now()}`]);
  const id = instance!.id;
  const [company] = await tx.query<{ uuid: string }>(`INSERT INTO company (instance_id, name) VALUES ($1, 'Lieferant, "Bench" AG') RETURNING uuid`, [id]);
  await tx.query(
    `INSERT INTO payable (instance_id, id, type_id, company_uuid, date, amount, currency_id, status)
     SELECT $1, n, (n % 7 = 0)::int, CASE WHEN n % 7 = 0 THEN NULL ELSE $2::uuid END, date '2025-01-01' + (n % 365), (n % 100000) / 100.0 + 1, 1, 1 + n % 2
       FROM generate_series(1, $3::int) AS n`,
    [id, company!.uuid, rows],
  );
  return id;
});

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let heapPeak = heapBefore;
// With --expose-gc: what stays reachable (heap right after a full collection, every 10th chunk), the
// figure that shows constant memory; the peak above also counts garbage not yet collected.
let retainedPeak = heapBefore;
let gcTime = 0;
let bytes = 0;
let lines = 0;
let chunks = 0;
const started = performance.now();
for await (const chunk of outflowsCsvLines(db, instanceId)) {
  bytes += Buffer.byteLength(chunk);
  lines += chunk.split('\r\n').length - 1;
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  chunks += 1;
  if (global.gc && chunks % 10 === 0) {
    const gcStarted = performance.now();
    global.gc();
    gcTime += performance.now() - gcStarted;
    retainedPeak = Math.max(retainedPeak, process.memoryUsage().heapUsed);
  }
}
const ms = performance.now() - started - gcTime;
await db.close();

console.log(
  JSON.stringify(
    {
      benchmark: 'outflows-csv',
      engine: db.kind,
      payables: rows,
      lines,
      megabytes: +(bytes / 1e6).toFixed(2),
      seconds: +(ms / 1000).toFixed(2),
      rowsPerSecond: Math.round(rows / (ms / 1000)),
      heapGrowthMB: +((heapPeak - heapBefore) / 1e6).toFixed(1),
      retainedGrowthMB: global.gc ? +((retainedPeak - heapBefore) / 1e6).toFixed(1) : null,
    },
    null,
    2,
  ),
);
