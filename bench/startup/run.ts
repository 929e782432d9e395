/**
 * Start-up benchmark (issue 18 §3, decision 035): the compiled server and CLI (apps/server/dist,
 * `npm run build -w @bilan/server`) beside the same sources run by tsx.
 * - CLI `--help`: wall time of the process and its CPU time (user + system of it and its
 *   children: tsx runs node in a child), as `npm run cli -- --help` would run it, minus npm.
 * - Server: time from spawning to the first answer of `GET /api/meta/version`, on an empty
 *   PGlite data directory (a new temporary one per run) and then on that same directory again,
 *   with the server's own phases (database: open and migrate; app: build and listen) from its
 *   "listening" log line.
 * Medians of `--runs` (and the fastest). Progress on stderr, JSON on stdout; a missed target is
 * reported in the JSON, not by the exit code. The compiled build is brought up to date first.
 * `npm run bench:startup -w @bilan/bench [-- --runs N]`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAverage, log, machineInfo, round } from '../ledger/measure.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);

const ROOT = resolve(import.meta.dirname, '../..');
const SERVER = join(ROOT, 'apps/server');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const TARGETS = { cliHelpMs: 500, serverEmptyMs: 5000, serverExistingMs: 2000 };

type Variant = 'compiled' | 'tsx';
const CLI: Record<Variant, string[]> = {
  compiled: [process.execPath, '--enable-source-maps', join(SERVER, 'dist/cli.js')],
  tsx: [TSX, join(SERVER, 'src/cli.ts')],
};
const MAIN: Record<Variant, string[]> = {
  compiled: [process.execPath, join(SERVER, 'dist/main.js')],
  tsx: [TSX, join(SERVER, 'src/main.ts')],
};

/** Median of the samples that are numbers (a run whose log line was not read gives NaN); null when none. */
const median = (samples: readonly number[]): number | null => {
  const sorted = samples.filter((sample) => !Number.isNaN(sample)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2, 0);
};
const summary = (samples: readonly number[]) => ({ medianMs: median(samples)!, minMs: round(Math.min(...samples), 0), runs: samples.length });

/** The environment of a run: no NODE_ENV (as `npm start` on a fresh clone), no database URL. */
function runEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ['NODE_ENV', 'DATABASE_URL', 'BILAN_MIGRATION_DATABASE_URL']) delete env[name];
  return env;
}

/** Wall time of one CLI run and CPU time of it and its children (the shell's `times`). */
function cliRun(command: string[]): { wallMs: number; cpuMs: number } {
  const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  const started = performance.now();
  const output = execFileSync('sh', ['-c', `${quoted} --help >/dev/null; times`], { cwd: SERVER, env: runEnv({}), encoding: 'utf8' });
  const wallMs = performance.now() - started;
  // `times`: the shell's own user and system time, then its children's ("0m0.050s 0m0.010s").
  const children = output.trim().split('\n').at(-1)!;
  const cpuMs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, seconds]) => sum + (Number(minutes) * 60 + Number(seconds)) * 1000, 0);
  return { wallMs, cpuMs };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

interface ServerRun {
  answerMs: number;
  /** The server's own figures from its "listening" log line. */
  phases?: { process: number; database: number; app: number };
}

/** Starts the server on `dataDir`, waits for its first answer, stops it. */
async function serverRun(command: string[], dataDir: string): Promise<ServerRun> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: SERVER,
    env: runEnv({ PORT: String(port), BILAN_DATA_DIR: dataDir, BILAN_PUBLIC_URL: `http://localhost:${port}`, LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: tsx's node child stops with it
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let alive = true;
  void exited.then(() => (alive = false));
  try {
    for (;;) {
      if (!alive) throw new Error(`the server stopped before answering:\n${output.slice(-2000)}`);
      if (performance.now() - started > 120_000) throw new Error('no answer within 120 s');
      const ok = await fetch(`http://127.0.0.1:${port}/api/meta/version`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    const answerMs = performance.now() - started;
    const line = output.split('\n').find((text) => text.includes('"startupMs"'));
    const phases = line ? (JSON.parse(line) as { startupMs: ServerRun['phases'] }).startupMs : undefined;
    return phases ? { answerMs, phases } : { answerMs };
  } finally {
    if (alive) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

async function serverFigures(variant: Variant) {
  const empty: ServerRun[] = [];
  const existing: ServerRun[] = [];
  for (let run = 1; run <= runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bilan-bench-startup-'));
    try {
      empty.push(await serverRun(MAIN[variant], dataDir));
      existing.push(await serverRun(MAIN[variant], dataDir));
      log(`server ${variant} run ${run}/${runs}: empty ${Math.round(empty.at(-1)!.answerMs)} ms, existing ${Math.round(existing.at(-1)!.answerMs)} ms`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const describe = (samples: ServerRun[]) => ({
    ...summary(samples.map((sample) => sample.answerMs)),
    phasesMedianMs: {
      process: median(samples.map((sample) => sample.phases?.process ?? Number.NaN)),
      database: median(samples.map((sample) => sample.phases?.database ?? Number.NaN)),
      app: median(samples.map((sample) => sample.phases?.app ?? Number.NaN)),
    },
  });
  return { emptyDataDir: describe(empty), existingDataDir: describe(existing) };
}

function cliFigures(variant: Variant) {
  cliRun(CLI[variant]); // a first run fills the caches (the file system's; tsx's transform cache)
  const samples = Array.from({ length: runs }, () => cliRun(CLI[variant]));
  log(`cli --help ${variant}: ${samples.map((sample) => Math.round(sample.wallMs)).join(', ')} ms`);
  return { wall: summary(samples.map((s) => s.wallMs)), cpu: summary(samples.map((s) => s.cpuMs)) };
}

const machine = machineInfo();
log('bringing the compiled build up to date (apps/server/scripts/build.mjs --if-stale)');
execFileSync(process.execPath, [join(SERVER, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });

const cli = { compiled: cliFigures('compiled'), tsx: cliFigures('tsx') };
const server = { compiled: await serverFigures('compiled'), tsx: await serverFigures('tsx') };

const verdict = (target: number, value: number) => ({ targetMs: target, medianMs: value, met: value <= target });
const result = {
  benchmark: 'startup',
  issue: '18 §3',
  machine,
  loadAverageAtEnd: loadAverage(),
  runs,
  cliHelp: cli,
  serverFirstAnswer: server,
  targets: {
    cliHelp: verdict(TARGETS.cliHelpMs, cli.compiled.wall.medianMs),
    serverEmptyDataDir: verdict(TARGETS.serverEmptyMs, server.compiled.emptyDataDir.medianMs),
    serverExistingDataDir: verdict(TARGETS.serverExistingMs, server.compiled.existingDataDir.medianMs),
  },
};
for (const [name, target] of Object.entries(result.targets)) {
  if (!target.met) log(`target missed: ${name} ${target.medianMs} ms > ${target.targetMs} ms`);
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
