/**
 * The one job runner (issue 15 §5, decision 023): pg-boss 10 on the application's own database
 * connection, so it runs on PGlite (the embedded default) and on PostgreSQL alike. Its schema and
 * queues come from the migrations (0034); pg-boss starts with `migrate: false`.
 *
 * - Once with several app servers: pg-boss fetches with `FOR UPDATE SKIP LOCKED`, so a job is
 *   handed to one runner; a runner that dies mid-job leaves it active until its `expire_in` passes,
 *   then pg-boss's maintenance hands it out again. Handlers must therefore be safe to run again
 *   (the mail delivery claims its message row conditionally before sending).
 * - Survives restarts: jobs are rows; a new runner on the same database fetches what is due.
 * - Retries with backoff: the queue's retry limit, delay and backoff (pg-boss: delay × 2^retries).
 * - Clock: pg-boss compares `start_after` with the database's `now()`. The runner polls on a timer
 *   in production; tests call `drain()` themselves and move a waiting job's time with
 *   `advanceClock()` (test helper below), so no test sleeps through a backoff.
 */
import PgBoss from 'pg-boss';
import type { Database, Tx } from '../../db/database.js';

/** The queues of migration 0034 and later ones; a queue is schema (a partition of pgboss.job). */
export type QueueName = 'mail-delivery' | (string & { readonly queue?: never });

/** A job as handed to a handler: its id, queue, data (JSON) and how many times it already failed. */
export interface Job<T = unknown> {
  id: string;
  queue: string;
  data: T;
  retryCount: number;
}

export type JobHandler<T = unknown> = (job: Job<T>) => Promise<void>;

export interface EnqueueOptions {
  /** Not before this many seconds from now (database clock). */
  startAfterSeconds?: number;
  /** pg-boss singleton key: with the queue's policy, at most one waiting job per key. */
  singletonKey?: string;
}

export interface JobRunnerOptions {
  /** Seconds between polls of each queue (default 2). 0 = no timer: the caller calls `drain()`. */
  pollSeconds?: number;
  /** Errors of the polling loop (a handler's error fails its job and is not reported here). */
  onError?: (error: unknown) => void;
  /** Name of this runner in the logs and in tests (default: the process id). */
  name?: string;
}

/** pg-boss's `db` adapter over a transaction of ours: pg-boss's SQL inside a Bilan transaction. */
const txAdapter = (tx: Tx) => ({
  executeSql: async (text: string, values?: unknown[]) => ({ rows: await tx.query(text, values) }),
});

// pg-boss wraps its maintenance scripts in BEGIN … COMMIT; the adapter gives each call its own
// transaction already (as bilan_auth), so the wrapper is dropped and the script runs inside ours.
const WRAPPED_SCRIPT = /^\s*BEGIN;([\s\S]*)COMMIT;\s*$/;

/**
 * The adapter pg-boss runs all its own statements through: one transaction per statement as
 * `bilan_auth` (the role of the global tables, granted the pgboss schema in 0034); scripts of
 * several statements (maintenance) run with `exec`.
 */
function databaseAdapter(db: Database) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const script = WRAPPED_SCRIPT.exec(text);
      if (script && !values?.length) {
        await db.withAuth((tx) => tx.exec(script[1]!));
        return { rows: [] };
      }
      return { rows: await db.withAuth((tx) => tx.query(text, values)) };
    },
  };
}

export class JobRunner {
  readonly name: string;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<unknown> | undefined;
  private stopped = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly db: Database,
    private readonly options: JobRunnerOptions,
  ) {
    this.name = options.name ?? `runner-${process.pid}`;
  }

  /**
   * Starts pg-boss on `db` (checks that migration 0034's schema version is the one pg-boss 10.4
   * expects; throws otherwise) with its maintenance (expiry of crashed jobs, archive, clean-up),
   * without cron schedules. Handlers are added with `register`, polling with `start`.
   */
  static async create(db: Database, options: JobRunnerOptions = {}): Promise<JobRunner> {
    const boss = new PgBoss({
      db: databaseAdapter(db),
      schema: 'pgboss',
      migrate: false,
      schedule: false,
      supervise: true,
      // Maintenance every 2 minutes: a delivery whose runner died is handed out again soon after it expires.
      maintenanceIntervalSeconds: 120,
    });
    boss.on('error', (error) => options.onError?.(error));
    await boss.start();
    return new JobRunner(boss, db, options);
  }

  /** Sets the handler of `queue`; a handler that throws fails the job, which the queue retries. */
  register<T>(queue: QueueName, handler: JobHandler<T>): void {
    // The queue's producer and handler agree on the data's shape; the map forgets it.
    this.handlers.set(queue, handler as JobHandler<unknown>);
  }

  /**
   * Adds a job to `queue` inside the caller's transaction `tx` (so the job exists exactly when the
   * caller's rows do), or in its own transaction when `tx` is null. Returns the job id, or null when
   * a singleton key already has a waiting job.
   */
  async enqueue(tx: Tx | null, queue: QueueName, data: object, options: EnqueueOptions = {}): Promise<string | null> {
    const sendOptions: PgBoss.SendOptions = {
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    };
    if (tx) return this.boss.send(queue, data, { ...sendOptions, db: txAdapter(tx) });
    return this.db.withAuth((own) => this.boss.send(queue, data, { ...sendOptions, db: txAdapter(own) }));
  }

  /**
   * Fetches due jobs of every registered queue, one at a time, and runs each: completed when its
   * handler returns, failed (with the error's message) when it throws. Returns how many ran. The
   * timer calls it; tests call it to run what is due right now.
   */
  async drain(maxJobs = 100): Promise<number> {
    let ran = 0;
    for (const [queue, handler] of this.handlers) {
      while (ran < maxJobs && !this.stopped) {
        const [job] = await this.boss.fetch<object>(queue, { batchSize: 1, includeMetadata: true });
        if (!job) break;
        ran += 1;
        try {
          await handler({ id: job.id, queue, data: job.data, retryCount: job.retryCount });
          await this.boss.complete(queue, job.id);
        } catch (error) {
          await this.boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) });
        }
      }
    }
    return ran;
  }

  /** Polls every `pollSeconds` (no timer when 0). One poll at a time per runner. */
  start(): void {
    const seconds = this.options.pollSeconds ?? 2;
    if (!seconds || this.timer) return;
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = this.drain()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => (this.polling = undefined));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stops polling, waits for the job under way, and stops pg-boss (its maintenance timers). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
    await this.boss.stop({ graceful: false, wait: true, close: false });
  }
}
