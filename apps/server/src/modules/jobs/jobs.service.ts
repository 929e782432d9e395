/**
 * What the superadmin's Jobs page shows (issue 15 §5): the queues with their settings and counts
 * per state, the latest jobs, and the latest failures with their error. Reads the pg-boss schema
 * this module owns (migration 0034) as bilan_auth, the role of the global tables; a job's data
 * names an instance and a row id only, so nothing of a tenant's content is shown.
 */
import type { Tx } from '../../db/database.js';

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface QueueOverview {
  name: string;
  policy: string;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireSeconds: number;
  counts: Record<JobState, number>;
}

export interface JobOverview {
  id: string;
  queue: string;
  state: JobState;
  retryCount: number;
  retryLimit: number;
  data: unknown;
  /** The handler's error for failed and retried jobs. */
  error: string | null;
  createdOn: string;
  startAfter: string;
  startedOn: string | null;
  completedOn: string | null;
}

type JobRow = {
  id: string;
  name: string;
  state: JobState;
  retry_count: number;
  retry_limit: number;
  data: unknown;
  output: unknown;
  created_on: string;
  start_after: string;
  started_on: string | null;
  completed_on: string | null;
};

const jobOverview = (row: JobRow): JobOverview => {
  const output = row.output as { message?: unknown } | null;
  return {
    id: row.id,
    queue: row.name,
    state: row.state,
    retryCount: row.retry_count,
    retryLimit: row.retry_limit,
    data: row.data,
    error: output && typeof output.message === 'string' && row.state !== 'completed' ? output.message : null,
    createdOn: row.created_on,
    startAfter: row.start_after,
    startedOn: row.started_on,
    completedOn: row.completed_on,
  };
};

const JOB_COLUMNS = 'id, name, state::text AS state, retry_count, retry_limit, data, output, created_on, start_after, started_on, completed_on';

/** Every queue with its settings and the number of jobs per state (archived jobs not counted). */
export async function listQueues(tx: Tx): Promise<QueueOverview[]> {
  const queues = await tx.query<{ name: string; policy: string; retry_limit: number; retry_delay: number; retry_backoff: boolean; expire_seconds: number }>(
    'SELECT name, policy, retry_limit, retry_delay, retry_backoff, expire_seconds FROM pgboss.queue ORDER BY name',
  );
  const counts = await tx.query<{ name: string; state: JobState; n: number }>('SELECT name, state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY name, state');
  return queues.map((queue) => ({
    name: queue.name,
    policy: queue.policy,
    retryLimit: queue.retry_limit,
    retryDelaySeconds: queue.retry_delay,
    retryBackoff: queue.retry_backoff,
    expireSeconds: queue.expire_seconds,
    counts: Object.fromEntries(JOB_STATES.map((state) => [state, counts.find((c) => c.name === queue.name && c.state === state)?.n ?? 0])) as Record<JobState, number>,
  }));
}

/** The latest jobs (newest first), of one queue or state when given; failures include retries that failed. */
export async function listJobs(tx: Tx, filter: { queue?: string; failuresOnly?: boolean; limit: number }): Promise<JobOverview[]> {
  const conditions = ['($1::text IS NULL OR name = $1)'];
  // A failure: failed for good, or failed and waiting for its retry.
  if (filter.failuresOnly) conditions.push("(state = 'failed' OR (state = 'retry' AND output IS NOT NULL))");
  const rows = await tx.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM pgboss.job WHERE ${conditions.join(' AND ')}
     UNION ALL
     SELECT ${JOB_COLUMNS} FROM pgboss.archive WHERE ${conditions.join(' AND ')}
     ORDER BY created_on DESC, id LIMIT $2`,
    [filter.queue ?? null, filter.limit],
  );
  return rows.map(jobOverview);
}
