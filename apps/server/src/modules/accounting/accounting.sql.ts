/** Instance settings the ledger depends on: base currency and lock date. */
import type { Tx } from '../../db/database.js';

/** Currency id of the instance (its base currency: every posting's `amount` is in it). */
export async function selectInstanceCurrencyId(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
  if (!row) throw new Error(`instance ${instanceId} is not visible in its own transaction`);
  return row.currency_id;
}

/** The latest lock date (YYYY-MM-DD) or null: nothing on or before it may change (spec §2.2 "Lock"). */
export async function selectLockDate(tx: Tx, instanceId: string): Promise<string | null> {
  const [row] = await tx.query<{ lock_date: string | null }>('SELECT instance_lock_date($1) AS lock_date', [instanceId]);
  return row?.lock_date ?? null;
}
