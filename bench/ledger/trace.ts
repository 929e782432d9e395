/** Per-statement timing of a service call: a Tx that records what runs through it. */
import { performance } from 'node:perf_hooks';
import type { Database, Row, Tx } from '../../apps/server/src/db/database.js';
import { latencyOf, timed } from './measure.js';

export interface Captured {
  text: string;
  params: readonly unknown[];
  ms: number;
}

/** A Tx that records every statement with its parameters and duration. */
export function recording(tx: Tx, sink: Captured[]): Tx {
  return {
    async query<R extends Row>(text: string, params?: readonly unknown[]) {
      const start = performance.now();
      const rows = await tx.query<R>(text, params);
      sink.push({ text, params: params ?? [], ms: performance.now() - start });
      return rows;
    },
    exec: (script) => tx.exec(script),
  };
}

export const oneLine = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

export interface Breakdown {
  /** Median milliseconds of one whole call (transaction included). */
  totalMs: number;
  statements: number;
  /** Median milliseconds per statement, in the order the service runs them. */
  queries: { sql: string; medianMs: number }[];
  /** Median of total minus the statements: BEGIN, SET role/instance, COMMIT and JavaScript. */
  otherMs: number;
}

/**
 * Runs `call` `runs` times in a tenant transaction through a recording Tx (after `warmup` runs)
 * and returns the median time per statement, plus the statements of the last run.
 */
export async function breakdown(
  db: Database,
  instanceId: string,
  call: (tx: Tx, run: number) => Promise<unknown>,
  options: { runs: number; warmup: number },
): Promise<Breakdown & { captured: Captured[] }> {
  const perQuery: number[][] = [];
  const texts: string[] = [];
  const totals: number[] = [];
  const other: number[] = [];
  let last: Captured[] = [];
  for (let run = 0; run < options.warmup + options.runs; run += 1) {
    const sink: Captured[] = [];
    const { ms } = await timed(() => db.withInstance(instanceId, (tx) => call(recording(tx, sink), run)));
    last = sink;
    if (run < options.warmup) continue;
    sink.forEach((q, i) => {
      (perQuery[i] ??= []).push(q.ms);
      texts[i] = q.text;
    });
    totals.push(ms);
    other.push(ms - sink.reduce((sum, q) => sum + q.ms, 0));
  }
  return {
    totalMs: latencyOf(totals).medianMs,
    statements: perQuery.length,
    queries: perQuery.map((samples, i) => ({ sql: oneLine(texts[i]!).slice(0, 120), medianMs: latencyOf(samples).medianMs })),
    otherMs: latencyOf(other).medianMs,
    captured: last,
  };
}
