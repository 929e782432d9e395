/** Timing, statistics, progress output and machine description for the ledger benchmark. */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

const started = performance.now();

/** A progress line on stderr (stdout carries only the JSON document). */
export function log(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(7);
  process.stderr.write(`[bench ${seconds}s] ${message}\n`);
}

/** Runs `fn` once and returns its result and the wall time in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

export const round = (value: number, digits = 2): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

export interface Latency {
  /** Median wall time in milliseconds. */
  medianMs: number;
  minMs: number;
  p90Ms: number;
  maxMs: number;
  runs: number;
}

export function latencyOf(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    medianMs: round(quantile(sorted, 0.5)),
    minMs: round(sorted[0] ?? Number.NaN),
    p90Ms: round(quantile(sorted, 0.9)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
    runs: sorted.length,
  };
}

/**
 * Calls `fn` `warmup` times untimed, then up to `runs` times timed; stops early (after at least
 * `minRuns`) when the timed runs exceed `budgetMs` in total, so slow baselines do not dominate a run.
 */
export async function repeat(
  fn: () => Promise<unknown>,
  options: { runs: number; warmup: number; budgetMs?: number; minRuns?: number },
): Promise<Latency> {
  for (let i = 0; i < options.warmup; i += 1) await fn();
  const samples: number[] = [];
  let total = 0;
  for (let i = 0; i < options.runs; i += 1) {
    const { ms } = await timed(fn);
    samples.push(ms);
    total += ms;
    if (options.budgetMs !== undefined && total > options.budgetMs && samples.length >= (options.minRuns ?? 3)) break;
  }
  return latencyOf(samples);
}

/** Throughput figure: `count` items in `ms` milliseconds. */
export interface Throughput {
  count: number;
  seconds: number;
  perSecond: number;
}

export const throughput = (count: number, ms: number): Throughput => ({
  count,
  seconds: round(ms / 1000, 3),
  perSecond: round(count / (ms / 1000), 1),
});

/** The 1, 5 and 15 minute load averages, rounded. */
export const loadAverage = (): number[] => os.loadavg().map((value) => round(value));

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    ramGiB: round(os.totalmem() / 1024 ** 3, 1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    /** 1, 5 and 15 minute load averages when the run started: other work on the machine skews the figures. */
    loadAverage: loadAverage(),
  };
}
