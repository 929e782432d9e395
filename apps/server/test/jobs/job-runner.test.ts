/**
 * The job runner (issue 15 §5, decision 023) on both engines: a job runs once and is completed; a
 * failing job is retried with exponential backoff on a clock the test moves (no sleeping), and
 * fails for good after its retries; jobs survive a restart of the runner (and of the database
 * connection); on PostgreSQL two runners on two connection pools run one job exactly once, and 40
 * jobs each exactly once between them.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../src/db/database.js';
import { JobRunner } from '../../src/modules/jobs/job-runner.js';
import { engine, openTestDatabase } from '../helpers.js';

let db: Database;
let url: string | undefined;
let drop: () => Promise<void>;

/** A queue of the test's own: retries 2 times, first after 10 s, doubling. */
async function createQueue(database: Database, name: string) {
  await database.asOwner((tx) =>
    tx.query(`SELECT pgboss.create_queue($1, $2::json)`, [name, JSON.stringify({ policy: 'standard', retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 60 })]),
  );
}

type JobRow = {
  state: string;
  retry_count: number;
  wait_seconds: number;
  output: { message?: string } | null;
};

/** The job as pg-boss keeps it, with the seconds until it is due (database clock). */
async function jobRow(database: Database, id: string): Promise<JobRow> {
  const [row] = await database.asOwner((tx) =>
    tx.query<JobRow>(
      `SELECT state::text, retry_count, round(extract(epoch FROM start_after - now()))::int AS wait_seconds, output FROM pgboss.job WHERE id = $1`,
      [id],
    ),
  );
  return row!;
}

/** The test's clock: `seconds` pass for the waiting jobs of `queue` (their start_after moves back). */
async function advanceClock(database: Database, queue: string, seconds: number) {
  await database.asOwner((tx) =>
    tx.query(`UPDATE pgboss.job SET start_after = start_after - make_interval(secs => $2) WHERE name = $1 AND state < 'active'`, [queue, seconds]),
  );
}

beforeAll(async () => {
  ({ db, url, drop } = await openTestDatabase());
});
afterAll(async () => drop?.());

describe('job runner', () => {
  it('runs a job once and completes it; a job added inside a rolled-back transaction does not exist', async () => {
    await createQueue(db, 'test-once');
    const runner = await JobRunner.create(db, { pollSeconds: 0 });
    const seen: unknown[] = [];
    runner.register<{ n: number }>('test-once', async (job) => {
      seen.push(job.data);
    });
    const id = await runner.enqueue(null, 'test-once', { n: 1 });
    await db
      .withAuth(async (tx) => {
        await runner.enqueue(tx, 'test-once', { n: 2 });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await runner.drain()).toBe(1);
    expect(await runner.drain()).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    expect((await jobRow(db, id!)).state).toBe('completed');
    await runner.stop();
  });

  it('retries a failing job with exponential backoff on a clock the test moves, then fails it with the error', async () => {
    await createQueue(db, 'test-retry');
    const runner = await JobRunner.create(db, { pollSeconds: 0 });
    const attempts: number[] = [];
    runner.register('test-retry', async (job) => {
      attempts.push(job.retryCount);
      throw new Error(`refused on attempt ${attempts.length}`);
    });
    const id = (await runner.enqueue(null, 'test-retry', {}))!;
    expect(await runner.drain()).toBe(1);
    let row = await jobRow(db, id);
    expect(row.state).toBe('retry');
    // pg-boss backoff: retry n (from 1) after delay × 2^(n-1) × (1 + random): first after 10–20 s…
    expect(row.wait_seconds).toBeGreaterThanOrEqual(9);
    expect(row.wait_seconds).toBeLessThanOrEqual(21);
    expect(await runner.drain()).toBe(0);
    await advanceClock(db, 'test-retry', 21);
    expect(await runner.drain()).toBe(1);
    row = await jobRow(db, id);
    expect(row.state).toBe('retry');
    // …the second after 20–40 s.
    expect(row.wait_seconds).toBeGreaterThanOrEqual(19);
    expect(row.wait_seconds).toBeLessThanOrEqual(41);
    await advanceClock(db, 'test-retry', 17);
    expect(await runner.drain()).toBe(0);
    await advanceClock(db, 'test-retry', 25);
    expect(await runner.drain()).toBe(1);
    row = await jobRow(db, id);
    expect(row.state).toBe('failed');
    expect(row.output?.message).toBe('refused on attempt 3');
    expect(attempts).toEqual([0, 1, 2]);
    await advanceClock(db, 'test-retry', 3600);
    expect(await runner.drain()).toBe(0);
    await runner.stop();
  });

  it('keeps waiting jobs across a restart of the runner and the database connection', async () => {
    // PGlite: a database of its own in a directory, closed and opened again; PostgreSQL: a new pool.
    const dir = engine === 'pglite' ? mkdtempSync(join(tmpdir(), 'bilan-jobs-')) : undefined;
    if (dir) cpSync(inject('pgliteTemplate'), join(dir, 'db'), { recursive: true });
    const open = () => (dir ? openPglite(join(dir, 'db')) : openPostgres(url!));
    let first = await open();
    await createQueue(first, 'test-restart');
    const before = await JobRunner.create(first, { pollSeconds: 0 });
    await before.enqueue(null, 'test-restart', { order: 'A' });
    await before.enqueue(null, 'test-restart', { order: 'B' });
    await before.stop();
    await first.close();

    first = await open();
    const after = await JobRunner.create(first, { pollSeconds: 0 });
    const seen: unknown[] = [];
    after.register('test-restart', async (job) => {
      seen.push(job.data);
    });
    expect(await after.drain()).toBe(2);
    expect(seen).toEqual([{ order: 'A' }, { order: 'B' }]);
    await after.stop();
    await first.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the polling loop by itself when started', async () => {
    await createQueue(db, 'test-poll');
    const runner = await JobRunner.create(db, { pollSeconds: 0.2 });
    const done = new Promise<unknown>((resolve) => runner.register('test-poll', async (job) => resolve(job.data)));
    runner.start();
    await runner.enqueue(null, 'test-poll', { polled: true });
    expect(await done).toEqual({ polled: true });
    await runner.stop();
  });
});

describe.runIf(engine === 'postgres')('two runners on PostgreSQL', () => {
  it('run one job exactly once, and 40 jobs each exactly once between them', async () => {
    await createQueue(db, 'test-two');
    const second = await openPostgres(url!);
    const runs = new Map<number, string[]>();
    const runners = await Promise.all([db, second].map((database, i) => JobRunner.create(database, { pollSeconds: 0, name: `runner-${i + 1}` })));
    for (const runner of runners) {
      runner.register<{ n: number }>('test-two', async (job) => {
        // Long enough that both runners poll while the job is under way.
        await new Promise((resolve) => setTimeout(resolve, 20));
        runs.set(job.data.n, [...(runs.get(job.data.n) ?? []), runner.name]);
      });
    }
    await runners[0]!.enqueue(null, 'test-two', { n: 0 });
    const ran = await Promise.all(runners.map((runner) => runner.drain()));
    expect(ran.reduce((a, b) => a + b, 0)).toBe(1);
    expect(runs.get(0)).toHaveLength(1);

    runs.clear();
    for (let n = 1; n <= 40; n += 1) await runners[n % 2]!.enqueue(null, 'test-two', { n });
    const counts = await Promise.all(runners.map((runner) => runner.drain()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(40);
    expect([...runs.values()].every((names) => names.length === 1)).toBe(true);
    expect(runs.size).toBe(40);
    // Both took part (SKIP LOCKED hands each its own jobs).
    expect(counts.every((count) => count > 0)).toBe(true);
    for (const runner of runners) await runner.stop();
    await second.close();
  });
});
