/** Instance settings the ledger depends on: base currency and lock date. */
import type { VatCode } from '@bilan/domain';
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
  /** The requested VAT codes that exist in the instance, by code (kind and whether active). */
  vatCodes: Map<string, Pick<VatCode, 'kind' | 'isActive'>>;
}

/** Base currency, lock date, the given ledger accounts and VAT codes of the instance, in one statement. */
export async function selectPostingContext(
  tx: Tx,
  instanceId: string,
  accountIds: readonly number[],
  vatCodes: readonly string[] = [],
): Promise<PostingContext> {
  const [row] = await tx.query<{
    currency_id: number | null;
    lock_date: string | null;
    accounts: { id: number; number: string; name: string }[] | null;
    vat_codes: { code: string; kind: VatCode['kind']; is_active: boolean }[] | null;
  }>(
    `SELECT instance_currency_id($1) AS currency_id, instance_lock_date($1) AS lock_date,
            (SELECT json_agg(json_build_object('id', a.id, 'number', a.number, 'name', a.name))
               FROM ledger_account a WHERE a.instance_id = $1 AND a.id = ANY ($2::int[])) AS accounts,
            CASE WHEN cardinality($3::text[]) > 0 THEN
              (SELECT json_agg(json_build_object('code', c.code, 'kind', c.kind, 'is_active', c.is_active))
                 FROM vat_code c WHERE c.instance_id = $1 AND c.code = ANY ($3::text[])) END AS vat_codes`,
    [instanceId, [...accountIds], [...vatCodes]],
  );
  if (row?.currency_id == null) throw new Error(`instance ${instanceId} is not visible in its own transaction`);
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  const accounts = parse(row.accounts);
  const codes = parse(row.vat_codes);
  return {
    currencyId: row.currency_id,
    lockDate: row.lock_date,
    accounts: new Map((accounts ?? []).map((account) => [account.id, { number: account.number, name: account.name }])),
    vatCodes: new Map((codes ?? []).map((code) => [code.code, { kind: code.kind, isActive: code.is_active }])),
  };
}

/** One accounting lock as stored (spec §7.1 "Locks"). */
export interface AccountingLock {
  uuid: string;
  /** YYYY-MM-DD: nothing dated on or before it may change. */
  lockDate: string;
  /** The journal entry whose ledger date gave the lock date, when created from an entry. */
  endEntryId: number | null;
  /** ISO timestamp. */
  createdAt: string;
  /** app_user id of the creator (null for a lock set outside a session, e.g. by a migration). */
  createdBy: string | null;
}

const lockColumns = 'uuid, lock_date, end_entry_id, created_at, created_by';
type LockRow = { uuid: string; lock_date: string; end_entry_id: number | null; created_at: string; created_by: string | null };
const toLock = (row: LockRow): AccountingLock => ({
  uuid: row.uuid,
  lockDate: row.lock_date,
  endEntryId: row.end_entry_id,
  createdAt: row.created_at,
  createdBy: row.created_by,
});

/** The instance's locks, the latest lock date first (the one in force), then the newest. */
export async function selectAccountingLocks(tx: Tx, instanceId: string): Promise<AccountingLock[]> {
  const rows = await tx.query<LockRow>(
    `SELECT ${lockColumns} FROM accounting_lock WHERE instance_id = $1 ORDER BY lock_date DESC, created_at DESC`,
    [instanceId],
  );
  return rows.map(toLock);
}

/**
 * Inserts a lock unless one with the same date exists (unique key of migration 0017, so parallel
 * inserts leave one row); undefined when it existed.
 */
export async function insertAccountingLock(
  tx: Tx,
  instanceId: string,
  lock: { lockDate: string; endEntryId: number | null; createdBy: string | null },
): Promise<AccountingLock | undefined> {
  const [row] = await tx.query<LockRow>(
    `INSERT INTO accounting_lock (instance_id, lock_date, end_entry_id, created_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (instance_id, lock_date) DO NOTHING RETURNING ${lockColumns}`,
    [instanceId, lock.lockDate, lock.endEntryId, lock.createdBy],
  );
  return row ? toLock(row) : undefined;
}

/** Deletes one lock of the instance and returns it; undefined when there is none with that uuid. */
export async function deleteAccountingLock(tx: Tx, instanceId: string, uuid: string): Promise<AccountingLock | undefined> {
  const [row] = await tx.query<LockRow>(`DELETE FROM accounting_lock WHERE instance_id = $1 AND uuid = $2 RETURNING ${lockColumns}`, [instanceId, uuid]);
  return row ? toLock(row) : undefined;
}
