/**
 * Cold dashboard load in headless Chromium (issue 18 §1): the time from navigation to the dashboard
 * showing its figures, in a fresh browser context (empty cache, a signed-in person's refresh
 * cookie only), beside the browser's floor — a tiny page from a plain HTTP server, also in a fresh
 * context. Target: the dashboard within 3× the floor. Figures, never an exit code (1 only when the
 * run breaks).
 *
 *   npm run -s bench:cold-load -- -- [--runs 15] [--dist apps/web/dist] [--throttle] [--waterfall]
 *   npx tsx bench/cold-load/run.ts [same flags]
 *
 * The web app must be built (`npm run build`, or `--dist` to another build). The server runs from
 * the TypeScript sources on a fresh PGlite directory. `--throttle` adds a "fast 4G"-like network
 * (Chrome DevTools: 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency), where the bytes of the first page
 * count the way they do for a person out of the office. `--waterfall` prints each load's requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { benchArgs, positiveFlag } from '../cli-args.js';

const USAGE = `Usage: npm run -s bench:cold-load -- -- [options]      (from the repository root)
       npx tsx bench/cold-load/run.ts [options]

  --runs N            loads of each page, taking turns (default 15)
  --dist DIR          the built web app (default apps/web/dist: run \`npm run build\` first)
  --throttle          a "fast 4G"-like network: 9 Mbit/s down, 1.5 Mbit/s up, 60 ms latency
  --waterfall         print every request of each load
  --screenshot FILE   save the last dashboard load as a PNG, to look at what was measured
  --chromium PATH     the browser (default $BILAN_CHROMIUM or /usr/bin/chromium)
`;
const args = benchArgs(
  {
    runs: { type: 'string', default: '15' },
    dist: { type: 'string', default: resolve(import.meta.dirname, '../../apps/web/dist') },
    throttle: { type: 'boolean', default: false },
    waterfall: { type: 'boolean', default: false },
    screenshot: { type: 'string' },
    chromium: { type: 'string', default: process.env.BILAN_CHROMIUM ?? '/usr/bin/chromium' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  USAGE,
  'bench:cold-load',
);
const RUNS = positiveFlag(args.runs, 15, 'runs', USAGE, true);
const TARGET_RATIO = 3;
const log = (line: string) => process.stderr.write(`${line}\n`);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise((done) => server.close(done));
  return port;
}

/** The Bilan server from the sources, on a fresh PGlite directory; resolves once it answers. */
async function startBilan(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../../apps/server/src/main.ts')], {
    env: { ...process.env, PORT: String(port), BILAN_DATA_DIR: dataDir, BILAN_WEB_DIST: resolve(args.dist), BILAN_PUBLIC_URL: `http://localhost:${port}`, NODE_ENV: 'test', BILAN_CHECK_ANSWERS: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server stopped with code ${child.exitCode}`);
    try {
      if ((await fetch(`http://localhost:${port}/api/meta/version`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error('the server did not answer within 120 s');
}

/** The floor: the smallest page a server can send, with one line of text to paint. */
async function startFloor(port: number): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end('<!doctype html><html lang="en"><title>floor</title><p id="ready">ready</p></html>');
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return server;
}

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  if (!args.throttle) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 60, downloadThroughput: (9 * 1024 * 1024) / 8, uploadThroughput: (1.5 * 1024 * 1024) / 8 });
}

interface Load {
  /** Navigation start to the awaited element, ms. */
  ready: number;
  /** The dashboard only: navigation start to its first render (the 'View Details' links, counts maybe still loading), ms. */
  shown?: number;
  /** First contentful paint, ms (PerformancePaintTiming). */
  fcp: number | null;
  /** Bytes over the wire (transfer sizes of every resource and the document). */
  bytes: number;
}

/**
 * Conditions checked in the page at every animation frame, not with Playwright's locator polling:
 * that one looks again after 0, 20, 50, 100, 100 ms and then every 500 ms, so a page ready after a
 * second was seen up to half a second late. Before 2026-11-27 (afternoon) the bench waited with a
 * locator; its figures carry that error.
 */
const FLOOR_READY = `document.getElementById('ready') !== null`;
const DASHBOARD_SHOWN = `[...document.querySelectorAll('a')].some((a) => a.textContent === 'View Details')`;
/** The counts are in: a tile shows its number instead of a skeleton. */
const DASHBOARD_READY = `document.querySelector('[data-testid="count-Invoice"]') !== null`;

/**
 * Waits until the `conditions` (expressions) hold in the page, one after the other, checked at
 * every animation frame; answers the page's clock (ms) at each. Evaluated through the DevTools
 * protocol: the app's CSP (script-src 'self') refuses the `eval` Playwright's `waitForFunction` needs.
 */
async function waitInPage(page: Page, conditions: string[]): Promise<number[]> {
  return page.evaluate<number[]>(`new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error('not within 60 s')), 60000);
    const conditions = [${conditions.map((condition) => `() => ${condition}`).join(', ')}];
    const times = [];
    const check = () => {
      while (times.length < conditions.length && conditions[times.length]()) times.push(performance.now());
      if (times.length < conditions.length) return void requestAnimationFrame(check);
      clearTimeout(timeout);
      resolve(times);
    };
    check();
  })`);
}

async function measure(context: BrowserContext, url: string, ready: string, shown?: string): Promise<Load> {
  const page = await context.newPage();
  await throttle(context, page);
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  // One wait for both, so `shown` is not late by a protocol round trip: the page's clock says how
  // long before the end of the wait it held.
  const times = await waitInPage(page, shown === undefined ? [ready] : [shown, ready]);
  const readyAt = performance.now() - start;
  const shownAt = shown === undefined ? undefined : readyAt - (times[1]! - times[0]!);
  // Runs in the page (a string: the browser's Performance types are not this Node program's).
  const timing = await page.evaluate<{ fcp: number | null; bytes: number; waterfall: string[] }>(`(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const navigation = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const waterfall = [navigation, ...resources].filter(Boolean).map((r) =>
      Math.round(r.startTime) + '–' + Math.round(r.responseEnd) + ' ms ' + Math.round(r.transferSize / 1024) + ' KB ' + r.name.replace(location.origin, ''));
    return { fcp, bytes: (navigation?.transferSize ?? 0) + resources.reduce((sum, r) => sum + r.transferSize, 0), waterfall };
  })()`);
  if (args.waterfall) log(timing.waterfall.join('\n'));
  if (args.screenshot && shown !== undefined) await page.screenshot({ path: args.screenshot });
  await page.close();
  return { ready: readyAt, ...(shownAt === undefined ? {} : { shown: shownAt }), fcp: timing.fcp, bytes: timing.bytes };
}

/** Signs up through the screens once (the built-in OpenID provider) and returns the signed-in cookies. */
async function signedInState(browser: Browser, base: string) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto('/login/signup');
  await page.getByLabel('Workplace name').fill(`Cold Load ${process.pid}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('I read and agree to the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.locator('#email').fill('cold.load@example.ch');
  await page.locator('#name').fill('Cold Load');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/onboarding');
  // The onboarding wizard: own company, address, bank account, VAT (as e2e/tests/support.ts does it).
  await page.getByRole('button', { name: 'We are not a registered Swiss company' }).click();
  await page.getByLabel('Company name').fill('Cold Load AG');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Street').fill('Bahnhofstrasse');
  await page.getByLabel('House number').fill('1');
  await page.getByLabel('ZIP').fill('8001');
  await page.getByLabel('City').fill('Zürich');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 7');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL((url) => url.pathname === '/', { timeout: 60_000 });
  await waitInPage(page, [DASHBOARD_READY]);
  const state = await context.storageState();
  await context.close();
  return state;
}

async function main() {
  if (!existsSync(join(args.dist, 'index.html'))) throw new Error(`no web build in ${args.dist}: run npm run build first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bilan-cold-'));
  const [port, floorPort] = [await freePort(), await freePort()];
  let bilan: ChildProcess | undefined;
  let floor: Server | undefined;
  const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    log('starting the server on a fresh PGlite directory…');
    bilan = await startBilan(port, dataDir);
    floor = await startFloor(floorPort);
    const base = `http://localhost:${port}`;
    log('signing up through the screens…');
    let state = await signedInState(browser, base);
    const floorLoads: Load[] = [];
    const dashboardLoads: Load[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Turns, so a drift of the machine hits both. Each context is fresh: no cache, no service worker.
      const floorContext = await browser.newContext();
      floorLoads.push(await measure(floorContext, `http://127.0.0.1:${floorPort}/`, FLOOR_READY));
      await floorContext.close();
      // The refresh cookie rotates on every use: each run starts from the state the previous one left.
      const context = await browser.newContext({ storageState: state });
      dashboardLoads.push(await measure(context, `${base}/`, DASHBOARD_READY, DASHBOARD_SHOWN));
      state = await context.storageState();
      await context.close();
      log(`run ${run + 1}/${RUNS}: floor ${round(floorLoads.at(-1)!.ready)} ms, dashboard shown ${round(dashboardLoads.at(-1)!.shown ?? Number.NaN)} ms, ready ${round(dashboardLoads.at(-1)!.ready)} ms`);
    }
    const summary = (loads: Load[]) => ({
      readyMs: { median: round(median(loads.map((l) => l.ready))), min: round(Math.min(...loads.map((l) => l.ready))), max: round(Math.max(...loads.map((l) => l.ready))) },
      ...(loads[0]?.shown === undefined ? {} : { shownMs: round(median(loads.map((l) => l.shown ?? Number.NaN))) }),
      fcpMs: round(median(loads.map((l) => l.fcp ?? Number.NaN))),
      transferKB: round(median(loads.map((l) => l.bytes)) / 1024),
    });
    const floorSummary = summary(floorLoads);
    const dashboardSummary = summary(dashboardLoads);
    const ratio = dashboardSummary.readyMs.median / floorSummary.readyMs.median;
    process.stdout.write(
      `${JSON.stringify(
        {
          bench: 'cold-load',
          date: new Date().toISOString(),
          runs: RUNS,
          throttled: args.throttle,
          floor: floorSummary,
          dashboard: dashboardSummary,
          ratio: Math.round(ratio * 100) / 100,
          target: { ratio: TARGET_RATIO, met: ratio <= TARGET_RATIO },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await browser.close();
    floor?.close();
    bilan?.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
