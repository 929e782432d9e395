/** Instance settings the ledger depends on: base currency and lock date. */
import type { Tx } from '../../db/database.js';

/** Currency id of the instance (its base currency: every posting's `amount` is in it). */
export async function selectInstanceCurrencyId(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ currency_id: number | null }>('SELECT instance_currency_id($1) AS currency_id', [instanceId]);
  if (row?.currency_id == null) throw new Error(`instance ${instanceId} is not visible in its own transaction`);
  return row.currency_id;
}

/** The latest lock date (YYYY-MM-DD) or null: nothing on or before it may change (spec §2.2 "Lock"). */
export async function selectLockDate(tx: Tx, instanceId: string): Promise<string | null> {
  const [row] = await tx.query<{ lock_date: string | null }>('SELECT instance_lock_date($1) AS lock_date', [instanceId]);
  return row?.lock_date ?? null;
}

/** What validating a posting needs, read in one round trip (docs/performance.md, target (a)). */
export interface PostingContext {
  /** The instance's base currency id: every posting's `amount` is in it. */
  currencyId: number;
  /** The latest lock date (YYYY-MM-DD) or null. */
  lockDate: string | null;
  /** The requested accounts that exist in the instance, by id. */
  accounts: Map<number, { number: string; name: string }>;
}

/** Base currency, lock date and the given ledger accounts of the instance, in one statement. */
export async function selectPostingContext(tx: Tx, instanceId: string, accountIds: readonly number[]): Promise<PostingContext> {
  const [row] = await tx.query<{ currency_id: number | null; lock_date: string | null; accounts: { id: number; number: string; name: string }[] | null }>(
    `SELECT instance_currency_id($1) AS currency_id, instance_lock_date($1) AS lock_date,
            (SELECT json_agg(json_build_object('id', a.id, 'number', a.number, 'name', a.name))
               FROM ledger_account a WHERE a.instance_id = $1 AND a.id = ANY ($2::int[])) AS accounts`,
    [instanceId, [...accountIds]],
  );
  if (row?.currency_id == null) throw new Error(`instance ${instanceId} is not visible in its own transaction`);
  const accounts = typeof row.accounts === 'string' ? (JSON.parse(row.accounts) as typeof row.accounts) : row.accounts;
  return {
    currencyId: row.currency_id,
    lockDate: row.lock_date,
    accounts: new Map((accounts ?? []).map((account) => [account.id, { number: account.number, name: account.name }])),
  };
}
