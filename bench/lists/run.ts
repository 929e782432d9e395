/**
 * List benchmark (issue 18 §2, `npm run bench:lists`, docs/performance.md): a fresh PostgreSQL
 * database with the real app (bench/ledger/setup.ts), one workplace holding 500,000 journal entries
 * (two postings each), 30,000 invoices, 30,000 bills and 5,000 companies (bench/lists/data.ts), and
 * every list endpoint's first and 100th page measured with autocannon at 10 concurrent connections
 * (p50, p99, req/s), beside `GET /api/meta/version` in the same run.
 *
 * The 100th page: when the first answer carries a `nextCursor` (JSON body, or `Link: <…>; rel="next"`
 * on a GET list), 99 cursors are walked untimed and the 100th request is measured; otherwise
 * `page: 100`; an endpoint that does not page says so (`via: 'none'`).
 *
 * Targets: p50 ≤ 25 ms and p99 ≤ 100 ms. A missed target is reported in the JSON (`missed`), never
 * in the exit code; exit 1 only when the run breaks. JSON on stdout, progress on stderr, and a copy
 * in bench/results/lists-<timestamp>.json.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchArgs, positiveFlag } from '../cli-args.js';
import { loadAverage, log, machineInfo, round } from '../ledger/measure.js';
import { createWorkplace, startEnv, type BenchEnv } from '../ledger/setup.js';
import { loadData, type LoadReport, type Sizes } from './data.js';

const USAGE = `Usage: npm run -s bench:lists -- -- [options]      (from the repository root)
       npm run -s bench:lists -w @bilan/bench -- [options]
       npx tsx bench/lists/run.ts [options]

  --quick             smoke run: a twentieth of the data, 1 s per measurement (about 1–2 min)
  --duration S        seconds of autocannon per endpoint and page (default 5; --quick 1)
  --scale F           multiplies the data sizes (default 1: 500,000 entries, 30,000 invoices,
                      30,000 bills, 5,000 companies)
  --only TEXT         measure only the endpoints whose name contains TEXT (the version floor always)
  --connections N     concurrent connections (default 10)
  --pg-url URL        PostgreSQL server (default $BILAN_BENCH_PG_URL, $BILAN_TEST_PG_URL or
                      postgres://postgres@127.0.0.1:5432/test); the bench creates and drops bilan_bench_<pid>
  --keep              keep the database at the end (for EXPLAIN; drop it yourself: DROP DATABASE bilan_bench_<pid>);
                      npx tsx bench/lists/serve.ts URL PORT serves it with a token to ask it by hand
  --no-write          do not write bench/results/…
`;

const OPTIONS = {
  quick: { type: 'boolean', default: false },
  duration: { type: 'string' },
  scale: { type: 'string' },
  only: { type: 'string' },
  connections: { type: 'string' },
  'pg-url': { type: 'string' },
  'no-write': { type: 'boolean', default: false },
  keep: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const values = benchArgs(OPTIONS, USAGE, 'bench:lists');
const positive = (value: string | undefined, fallback: number, name: string) => positiveFlag(value, fallback, name, USAGE);

const quick = values.quick;
const scale = positive(values.scale, 1, 'scale') * (quick ? 0.05 : 1);
const sizes: Sizes = {
  entries: Math.max(100, Math.round(500_000 * scale)),
  invoices: Math.max(10, Math.round(30_000 * scale)),
  bills: Math.max(10, Math.round(30_000 * scale)),
  companies: Math.max(2, Math.round(5_000 * scale)),
};
const duration = positive(values.duration, quick ? 1 : 5, 'duration');
const warmup = quick ? 0.5 : 1;
const connections = Math.round(positive(values.connections, 10, 'connections'));
const pgUrl = values['pg-url'] ?? process.env.BILAN_BENCH_PG_URL ?? process.env.BILAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PAGE_SIZE = 50;
const TARGET = { p50Ms: 25, p99Ms: 100 };

/** One list endpoint: its request without paging fields; `paged` adds pageSize and page/cursor. */
interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** What the loaded data gives this list (shown in the result). */
  rowsLoaded: string;
  skip?: string;
}

interface Paging {
  page?: number;
  pageSize?: number;
  cursor?: string;
}

interface Sample {
  status: number;
  rows: number | null;
  bytes: number;
  ms: number;
  nextCursor: string | null;
  /** sha1 of the answer, to tell a page that the endpoint ignored (the same answer as the first). */
  digest: string;
  error?: string;
}

interface Measurement {
  /** 'duration': requests completed in --duration seconds; 'amount': 2 × connections requests (slower answers). */
  mode: 'duration' | 'amount';
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  reqPerSec: number;
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  meetsTarget: boolean;
}

interface PageResult {
  sample: Sample;
  measured?: Measurement;
}

interface EndpointResult {
  name: string;
  request: string;
  rowsLoaded: string;
  /** Whether the endpoint took `pageSize` (a 400 with it: measured without paging fields). */
  pagingAccepted: boolean;
  first?: PageResult;
  page100?: PageResult & { via: 'cursor' | 'page' | 'none'; reason?: string };
  skipped?: string;
  error?: string;
}

/** The rows of a list answer: `data`, or the first array in it. */
function rowsOf(json: unknown): number | null {
  if (Array.isArray(json)) return json.length;
  if (json && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    if (Array.isArray(record.data)) return record.data.length;
    for (const value of Object.values(record)) if (Array.isArray(value)) return value.length;
  }
  return null;
}

/** The next cursor: `nextCursor` in the body, else the `cursor` of a `Link: <…>; rel="next"` header. */
function nextCursorOf(json: unknown, link: string | null): string | null {
  if (json && typeof json === 'object' && typeof (json as { nextCursor?: unknown }).nextCursor === 'string') {
    return (json as { nextCursor: string }).nextCursor;
  }
  const match = link ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link) : null;
  if (!match) return null;
  return new URL(match[1]!, 'http://link.invalid').searchParams.get('cursor');
}

class Client {
  private token = '';
  private mintedAt = 0;

  constructor(
    private readonly env: BenchEnv,
    private readonly instanceId: string,
    private readonly userId: string,
  ) {}

  /** A bearer token, minted again every 5 minutes (they live 15). */
  async bearer(): Promise<string> {
    if (Date.now() - this.mintedAt > 5 * 60_000) {
      const session = await this.env.db.withAuth((tx) => this.env.app.sessions.start(tx, this.userId, this.instanceId, {}));
      this.token = session.accessToken;
      this.mintedAt = Date.now();
    }
    return this.token;
  }

  request(endpoint: Endpoint, paging: Paging | null): { url: string; method: 'GET' | 'POST'; body?: string; headers: Record<string, string> } {
    const url = new URL(this.env.baseUrl + endpoint.path);
    const extra: Record<string, string | number> = {};
    if (paging?.pageSize !== undefined) extra.pageSize = paging.pageSize;
    if (paging?.cursor !== undefined) extra.cursor = paging.cursor;
    else if (paging?.page !== undefined) extra.page = paging.page;
    if (endpoint.method === 'GET') {
      for (const [key, value] of Object.entries({ ...endpoint.query, ...extra })) url.searchParams.set(key, String(value));
      return { url: url.toString(), method: 'GET', headers: {} };
    }
    return {
      url: url.toString(),
      method: 'POST',
      body: JSON.stringify({ ...endpoint.body, ...extra }),
      headers: { 'content-type': 'application/json' },
    };
  }

  async sample(endpoint: Endpoint, paging: Paging | null): Promise<Sample> {
    const r = this.request(endpoint, paging);
    const started = performance.now();
    const response = await fetch(r.url, {
      method: r.method,
      headers: { ...r.headers, authorization: `Bearer ${await this.bearer()}` },
      ...(r.body !== undefined ? { body: r.body } : {}),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return {
      status: response.status,
      rows: rowsOf(json),
      bytes: Buffer.byteLength(text),
      ms: round(ms),
      nextCursor: nextCursorOf(json, response.headers.get('link')),
      digest: createHash('sha1').update(text).digest('hex').slice(0, 16),
      ...(response.status >= 400 ? { error: text.slice(0, 300) } : {}),
    };
  }

  /** Waits until the bench database runs no statement (requests cut off at the end of a run finish first). */
  async waitIdle(): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const { rows } = await this.env.direct!.query<{ active: number }>(
        `SELECT count(*)::int AS active FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`,
      );
      if (rows[0]?.active === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /**
   * Warm-up, then `duration` seconds of autocannon at `connections` connections, the client in a
   * worker thread (the app runs on this process's event loop). When fewer than 2 × connections
   * requests complete in that time (answers slower than the run), measured again by count: 2 ×
   * connections requests (`mode: 'amount'`), so a slow list still gets a p50 and p99.
   */
  async measure(endpoint: Endpoint, paging: Paging | null, sampleMs: number): Promise<Measurement> {
    const r = this.request(endpoint, paging);
    const options = {
      url: r.url,
      method: r.method,
      connections,
      workers: 1,
      timeout: 120,
      headers: { ...r.headers, authorization: `Bearer ${await this.bearer()}` },
      ...(r.body !== undefined ? { body: r.body } : {}),
    };
    // A slow answer is warmed up by one request per connection, a fast one for `warmup` seconds.
    await autocannon(sampleMs > 200 ? { ...options, amount: connections } : { ...options, duration: warmup });
    await this.waitIdle();
    let mode: Measurement['mode'] = 'duration';
    let result = await autocannon({ ...options, duration });
    await this.waitIdle();
    if (result.requests.total < 2 * connections) {
      mode = 'amount';
      result = await autocannon({ ...options, amount: 2 * connections });
      await this.waitIdle();
    }
    const p50 = round(result.latency.p50);
    const p99 = round(result.latency.p99);
    return {
      mode,
      p50Ms: p50,
      p99Ms: p99,
      meanMs: round(result.latency.average),
      maxMs: round(result.latency.max),
      reqPerSec: round(result.requests.total / (result.duration || duration), 1),
      requests: result.requests.total,
      ok2xx: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      meetsTarget: p50 <= TARGET.p50Ms && p99 <= TARGET.p99Ms && result.non2xx === 0 && result.errors === 0 && result.requests.total > 0,
    };
  }
}

function endpoints(accounting: { bank: number }): Endpoint[] {
  const invoices = `${sizes.invoices} invoices (10 % pending, 20 % sent, 70 % paid)`;
  const bills = `${sizes.bills} bills`;
  return [
    { name: 'GET company/list', method: 'GET', path: '/api/company/list', rowsLoaded: `${sizes.companies} companies` },
    { name: 'GET company/list openAmounts', method: 'GET', path: '/api/company/list', query: { openAmounts: 'true' }, rowsLoaded: `${sizes.companies} companies, ${invoices}, ${bills}` },
    { name: 'POST address/list', method: 'POST', path: '/api/address/list', body: {}, rowsLoaded: `${sizes.companies} addresses` },
    { name: 'POST payment-profile/list', method: 'POST', path: '/api/payment-profile/list', body: {}, rowsLoaded: `${Math.ceil(sizes.companies / 2)} profiles` },
    { name: 'GET invoice/list', method: 'GET', path: '/api/invoice/list', rowsLoaded: invoices },
    { name: 'POST invoice/list-w-amounts', method: 'POST', path: '/api/invoice/list-w-amounts', body: {}, rowsLoaded: invoices },
    { name: 'POST invoice/list-w-amounts status=sent', method: 'POST', path: '/api/invoice/list-w-amounts', body: { filters: { status: 2 } }, rowsLoaded: invoices },
    // What the Invoices screen asks (decision 042): the same pages without the invoices' lines.
    { name: 'POST invoice/list-w-amounts withItems=false', method: 'POST', path: '/api/invoice/list-w-amounts', body: { withItems: false }, rowsLoaded: invoices },
    {
      name: 'POST invoice/list-w-amounts status=sent withItems=false',
      method: 'POST',
      path: '/api/invoice/list-w-amounts',
      body: { filters: { status: 2 }, withItems: false },
      rowsLoaded: invoices,
    },
    {
      name: 'POST invoice/list-w-amounts 2025 text=Beratung',
      method: 'POST',
      path: '/api/invoice/list-w-amounts',
      body: { filters: { dateFrom: '2025-01-01', dateTo: '2025-12-31', text: 'Beratung' } },
      rowsLoaded: invoices,
    },
    { name: 'POST invoice/credit-note/list', method: 'POST', path: '/api/invoice/credit-note/list', body: {}, rowsLoaded: 'none (no credit notes loaded)' },
    { name: 'POST quote/list', method: 'POST', path: '/api/quote/list', body: {}, rowsLoaded: 'none (no quotes loaded)' },
    { name: 'POST accounting/entry/list', method: 'POST', path: '/api/accounting/entry/list', body: {}, rowsLoaded: `${sizes.entries} entries` },
    { name: 'POST accounting/entry/list desc', method: 'POST', path: '/api/accounting/entry/list', body: { order: 'desc' }, rowsLoaded: `${sizes.entries} entries` },
    {
      name: 'POST accounting/entry/account/list 1020',
      method: 'POST',
      path: '/api/accounting/entry/account/list',
      body: { filters: { accountId: accounting.bank } },
      rowsLoaded: 'postings of the bank account 1020',
    },
    { name: 'POST accounting/account/list', method: 'POST', path: '/api/accounting/account/list', body: {}, rowsLoaded: 'the Swiss SME chart, balances over all postings' },
    { name: 'POST payable/list', method: 'POST', path: '/api/payable/list', body: {}, rowsLoaded: bills },
    { name: 'POST payable/list filterStatus', method: 'POST', path: '/api/payable/list', body: { filters: { filterStatus: true } }, rowsLoaded: `${bills} (35 % open)` },
    { name: 'GET payable/list', method: 'GET', path: '/api/payable/list', rowsLoaded: bills },
    { name: 'GET transaction-group/list', method: 'GET', path: '/api/transaction-group/list', rowsLoaded: 'none (no transaction groups loaded)' },
    { name: 'POST mail/list', method: 'POST', path: '/api/mail/list', body: {}, rowsLoaded: 'none (no mails loaded)' },
    { name: 'POST file/list', method: 'POST', path: '/api/file/list', body: {}, rowsLoaded: 'none (no files loaded)' },
    { name: 'POST outbox/list', method: 'POST', path: '/api/outbox/list', body: {}, rowsLoaded: 'none (no messages loaded)' },
    { name: 'GET recurring/list', method: 'GET', path: '/api/recurring/list', rowsLoaded: 'none (no templates loaded)' },
    { name: 'POST dunning/reminder/list', method: 'POST', path: '/api/dunning/reminder/list', body: {}, rowsLoaded: 'none (no reminders loaded)' },
    { name: 'GET accounting/vat-code/list', method: 'GET', path: '/api/accounting/vat-code/list', rowsLoaded: 'the seeded VAT codes' },
    { name: 'GET accounting/lock/list', method: 'GET', path: '/api/accounting/lock/list', rowsLoaded: 'none (no locks)' },
    { name: 'GET accounting/closing/list', method: 'GET', path: '/api/accounting/closing/list', rowsLoaded: 'fiscal years 2020–2025' },
  ];
}

async function benchEndpoint(client: Client, endpoint: Endpoint): Promise<EndpointResult> {
  const request = `${endpoint.method} ${endpoint.path}${endpoint.query ? `?${new URLSearchParams(endpoint.query)}` : ''}${endpoint.body ? ` ${JSON.stringify(endpoint.body)}` : ''}`;
  const result: EndpointResult = { name: endpoint.name, request, rowsLoaded: endpoint.rowsLoaded, pagingAccepted: true };
  if (endpoint.skip) return { ...result, skipped: endpoint.skip };
  // First page, with pageSize; a 400 means the endpoint does not page (yet): measured without.
  let firstPaging: Paging | null = { pageSize: PAGE_SIZE };
  let sample = await client.sample(endpoint, firstPaging);
  if (sample.status === 400) {
    firstPaging = null;
    result.pagingAccepted = false;
    sample = await client.sample(endpoint, null);
  }
  if (sample.status >= 400) return { ...result, first: { sample }, error: `first page answered ${sample.status}` };
  const first: PageResult = { sample, measured: await client.measure(endpoint, firstPaging, sample.ms) };
  result.first = first;
  log(`${endpoint.name}: first page ${first.measured!.p50Ms}/${first.measured!.p99Ms} ms p50/p99, ${first.measured!.reqPerSec} req/s, ${sample.rows} rows, ${sample.bytes} B`);

  // The 100th page: by cursor when the answer carries one, else by page, else none.
  if (sample.nextCursor) {
    let cursor: string | null = sample.nextCursor;
    let page = 2;
    for (; page < 100 && cursor; page += 1) {
      const step = await client.sample(endpoint, { pageSize: PAGE_SIZE, cursor });
      if (step.status !== 200) throw new Error(`${endpoint.name}: page ${page} by cursor answered ${step.status}: ${step.error ?? ''}`);
      if (!step.nextCursor) break;
      cursor = step.nextCursor;
    }
    const paging = { pageSize: PAGE_SIZE, cursor: cursor! };
    const last = await client.sample(endpoint, paging);
    const reason = page < 100 ? `only ${page} pages: the ${page}th (last) measured` : undefined;
    result.page100 = { via: 'cursor', sample: last, measured: await client.measure(endpoint, paging, last.ms), ...(reason ? { reason } : {}) };
  } else if (!result.pagingAccepted) {
    result.page100 = { via: 'none', reason: 'the endpoint takes no paging fields (400 with pageSize)', sample };
  } else if (sample.rows !== null && sample.rows > PAGE_SIZE) {
    result.page100 = { via: 'none', reason: `pageSize ignored: ${sample.rows} rows on the first page`, sample };
  } else if (sample.rows === 0) {
    result.page100 = { via: 'none', reason: 'empty list', sample };
  } else {
    const paging = { pageSize: PAGE_SIZE, page: 100 };
    const hundredth = await client.sample(endpoint, paging);
    if (hundredth.status >= 400) {
      result.page100 = { via: 'none', reason: `page 100 answered ${hundredth.status}`, sample: hundredth };
    } else if (hundredth.digest === sample.digest) {
      result.page100 = { via: 'none', reason: `page ignored: page 100 is the first page (${sample.rows} rows, unpaged)`, sample: hundredth };
    } else {
      result.page100 = { via: 'page', sample: hundredth, measured: await client.measure(endpoint, paging, hundredth.ms) };
    }
  }
  const m = result.page100.measured;
  if (m) log(`${endpoint.name}: page 100 (${result.page100.via}) ${m.p50Ms}/${m.p99Ms} ms p50/p99, ${m.reqPerSec} req/s, ${result.page100.sample.rows} rows`);
  return result;
}

/** The environment being measured, closed (database dropped) on Ctrl-C too. */
let current: BenchEnv | undefined;
process.once('SIGINT', () => {
  log('interrupted: removing the bench database');
  void (current?.close() ?? Promise.resolve()).finally(() => process.exit(130));
});

const startedAt = new Date();
let failed = false;
const document: {
  benchmark: 'lists';
  startedAt: string;
  machine: ReturnType<typeof machineInfo>;
  options: Record<string, unknown>;
  target: typeof TARGET & { connections: number };
  serverVersion?: string;
  instanceId?: string;
  settings?: Record<string, string>;
  load?: LoadReport;
  floor?: { name: string; sample: Sample; measured: Measurement };
  endpoints: EndpointResult[];
  missed: { name: string; page: 'first' | '100'; p50Ms: number; p99Ms: number; non2xx: number; errors: number }[];
  loadAverage?: { start: number[]; end: number[] };
  seconds?: number;
  failure?: string;
} = {
  benchmark: 'lists',
  startedAt: startedAt.toISOString(),
  machine: machineInfo(),
  options: { quick, scale, sizes, duration, warmup, connections, pageSize: PAGE_SIZE, only: values.only ?? null, pgUrl: pgUrl.replace(/\/\/[^@/]*@/, '//…@') },
  target: { ...TARGET, connections },
  endpoints: [],
  missed: [],
};

try {
  const env = await startEnv('postgres', pgUrl);
  current = env;
  try {
    document.serverVersion = env.serverVersion;
    document.settings = env.settings;
    const workplace = await createWorkplace(env, 'lists');
    document.instanceId = workplace.instanceId;
    log(`load: ${sizes.entries} entries, ${sizes.invoices} invoices, ${sizes.bills} bills, ${sizes.companies} companies`);
    document.load = await loadData(env, workplace, sizes);
    log(`load: done in ${document.load.totalSeconds} s`);
    const client = new Client(env, workplace.instanceId, workplace.userId);
    document.loadAverage = { start: loadAverage(), end: [] };

    const floor: Endpoint = { name: 'GET meta/version', method: 'GET', path: '/api/meta/version', rowsLoaded: '—' };
    const floorSample = await client.sample(floor, null);
    document.floor = { name: floor.name, sample: floorSample, measured: await client.measure(floor, null, floorSample.ms) };
    log(`floor GET meta/version: ${document.floor.measured.p50Ms}/${document.floor.measured.p99Ms} ms p50/p99, ${document.floor.measured.reqPerSec} req/s`);

    const bank = workplace.accounts.get('1020');
    if (bank === undefined) throw new Error('the chart has no bank account 1020');
    for (const endpoint of endpoints({ bank })) {
      if (values.only && !endpoint.name.includes(values.only)) continue;
      try {
        document.endpoints.push(await benchEndpoint(client, endpoint));
      } catch (error) {
        failed = true;
        log(`${endpoint.name}: FAILED ${(error as Error).stack ?? String(error)}`);
        document.endpoints.push({ name: endpoint.name, request: endpoint.path, rowsLoaded: endpoint.rowsLoaded, pagingAccepted: false, error: String(error) });
      }
    }
    // The floor again at the end: the machine's state may have changed during the run.
    const floorEnd = await client.measure(floor, null, 0);
    log(`floor GET meta/version (end): ${floorEnd.p50Ms}/${floorEnd.p99Ms} ms p50/p99`);
    (document.floor as typeof document.floor & { measuredAtEnd?: Measurement }).measuredAtEnd = floorEnd;
    document.loadAverage.end = loadAverage();
  } finally {
    current = undefined;
    if (values.keep) {
      await env.app.close();
      await env.direct?.end();
      await env.db.close();
      log(`database kept: bilan_bench_${process.pid} (instance ${document.instanceId ?? '?'})`);
    } else {
      await env.close();
      log('database removed');
    }
  }
} catch (error) {
  failed = true;
  document.failure = (error as Error).stack ?? String(error);
  log(`FAILED ${document.failure}`);
}

for (const result of document.endpoints) {
  for (const [page, figure] of [
    ['first', result.first],
    ['100', result.page100],
  ] as const) {
    const m = figure?.measured;
    if (m && !m.meetsTarget) document.missed.push({ name: result.name, page, p50Ms: m.p50Ms, p99Ms: m.p99Ms, non2xx: m.non2xx, errors: m.errors });
  }
}
document.seconds = Math.round((Date.now() - startedAt.getTime()) / 1000);

const json = JSON.stringify(document, null, 2);
process.stdout.write(`${json}\n`);
if (!values['no-write']) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `lists-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${json}\n`);
  log(`written to ${file}`);
}
log(`${document.missed.length} of ${document.endpoints.reduce((n, e) => n + (e.first?.measured ? 1 : 0) + (e.page100?.measured ? 1 : 0), 0)} measurements miss the target`);
// A broken run (not a missed target) is an error; missed targets are reported in the JSON only.
process.exitCode = failed ? 1 : 0;
// --keep leaves the setup's admin connection open: end the process rather than wait for it.
if (values.keep) process.exit(process.exitCode);
