/** Page views (spec §2.10): the web reports them, the superadmin Logs page lists them. */
import type { Tx } from '../../db/database.js';

/** Records one page view of `userId` in the transaction's instance. */
export async function recordPageView(tx: Tx, instanceId: string, userId: string, url: string): Promise<void> {
  await tx.query('INSERT INTO action_log (instance_id, user_id, url) VALUES ($1, $2, $3)', [instanceId, userId, url]);
}

/** A page of the page views of every instance, newest first, with the total count (bilan_auth's view). */
export async function listPageViews(
  tx: Tx,
  query: { page: number; pageSize: number },
): Promise<{ rows: { createdAt: string; url: string; userId: string | null; instanceId: string }[]; total: number }> {
  const rows = await tx.query<{ created_at: string; url: string; user_id: string | null; instance_id: string }>(
    `SELECT created_at, url, user_id, instance_id FROM action_log ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [query.pageSize, (query.page - 1) * query.pageSize],
  );
  const [count] = await tx.query<{ total: number }>('SELECT count(*)::int AS total FROM action_log');
  return { rows: rows.map((row) => ({ createdAt: row.created_at, url: row.url, userId: row.user_id, instanceId: row.instance_id })), total: count!.total };
}
