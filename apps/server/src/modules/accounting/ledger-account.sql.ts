/**
 * Data access for ledger accounts and account groups. Every query names `instance_id` explicitly
 * (row-level security hides other instances anyway; the explicit filter lets the indexes serve).
 */
import { currencyCodeById, Money, toFixedAmount, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { escapeLike } from '../../db/like.js';

/** Ledger account as answered by the API (docs/api.md "LedgerAccount"). */
export type LedgerAccount = {
  id: number;
  number: string;
  name: string;
  currency: CurrencyCode;
  type: { id: number };
  functionType: { id: number } | null;
  /** Debit minus credit of all postings, instance currency, 2 decimals. */
  balance: string;
  hasPostings: boolean;
};

type LedgerAccountRow = {
  id: number;
  number: string;
  name: string;
  currency_id: number;
  type_id: number;
  function_type_id: number | null;
  balance: string;
  has_postings: boolean;
};

export interface LedgerAccountFilter {
  ids?: readonly number[];
  numbers?: readonly string[];
  text?: string;
  type?: number;
  functionType?: number;
}

/** Currency code of a stored currency id; the column's CHECK keeps ids in the enumeration. */
export const currencyCode = (currencyId: number): CurrencyCode => currencyCodeById(currencyId) ?? 'CHF';

const toLedgerAccount = (row: LedgerAccountRow): LedgerAccount => ({
  id: row.id,
  number: row.number,
  name: row.name,
  currency: currencyCode(row.currency_id),
  type: { id: row.type_id },
  functionType: row.function_type_id === null ? null : { id: row.function_type_id },
  balance: toFixedAmount(new Money(row.balance)),
  hasPostings: row.has_postings,
});

/**
 * Ledger accounts sorted by number (text order, so sub-accounts follow their parent: 1020, 10201,
 * 1021). The balance sums the per-month table, not the postings.
 */
export async function selectLedgerAccounts(tx: Tx, instanceId: string, filter: LedgerAccountFilter = {}): Promise<LedgerAccount[]> {
  const rows = await tx.query<LedgerAccountRow>(
    `SELECT a.id, a.number, a.name, a.currency_id, a.type_id, a.function_type_id,
            coalesce((SELECT sum(b.debit - b.credit) FROM account_period_balance b
                       WHERE b.instance_id = $1 AND b.account_id = a.id), 0) AS balance,
            EXISTS (SELECT 1 FROM journal_line l WHERE l.instance_id = $1 AND l.account_id = a.id) AS has_postings
       FROM ledger_account a
      WHERE a.instance_id = $1
        AND ($2::int[] IS NULL OR a.id = ANY ($2::int[]))
        AND ($3::text[] IS NULL OR a.number = ANY ($3::text[]))
        AND ($4::text IS NULL OR a.number LIKE $4 || '%' OR a.name ILIKE '%' || $4 || '%')
        AND ($5::smallint IS NULL OR a.type_id = $5)
        AND ($6::smallint IS NULL OR a.function_type_id = $6)
      ORDER BY a.number COLLATE "C"`,
    [
      instanceId,
      filter.ids ? [...filter.ids] : null,
      filter.numbers ? [...filter.numbers] : null,
      filter.text ? escapeLike(filter.text) : null,
      filter.type ?? null,
      filter.functionType ?? null,
    ],
  );
  return rows.map(toLedgerAccount);
}


export interface LedgerAccountValues {
  number: string;
  name: string;
  currencyId: number;
  typeId: number;
  functionTypeId: number | null;
}

/** Inserts one ledger account with a fresh per-instance id; returns the id. */
export async function insertLedgerAccount(tx: Tx, instanceId: string, values: LedgerAccountValues): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO ledger_account (instance_id, id, number, name, currency_id, type_id, function_type_id)
     VALUES ($1, next_ids($1, 'ledger_account', 1), $2, $3, $4, $5, $6) RETURNING id`,
    [instanceId, values.number, values.name, values.currencyId, values.typeId, values.functionTypeId],
  );
  return row!.id;
}

/** Updates the given columns of one ledger account; returns false when it does not exist. */
export async function updateLedgerAccount(
  tx: Tx,
  instanceId: string,
  accountId: number,
  values: Partial<LedgerAccountValues>,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE ledger_account
        SET number = coalesce($3, number), name = coalesce($4, name), currency_id = coalesce($5, currency_id),
            type_id = coalesce($6, type_id),
            function_type_id = CASE WHEN $7::boolean THEN $8::smallint ELSE function_type_id END
      WHERE instance_id = $1 AND id = $2
      RETURNING id`,
    [
      instanceId,
      accountId,
      values.number ?? null,
      values.name ?? null,
      values.currencyId ?? null,
      values.typeId ?? null,
      values.functionTypeId !== undefined,
      values.functionTypeId ?? null,
    ],
  );
  return rows.length > 0;
}

/** Deletes one ledger account; its month rows go with it, postings would refuse it (foreign key). */
export async function deleteLedgerAccount(tx: Tx, instanceId: string, accountId: number): Promise<void> {
  await tx.query('DELETE FROM ledger_account WHERE instance_id = $1 AND id = $2', [instanceId, accountId]);
}

/** Number → id of every ledger account of the instance (imports map account numbers with it). */
export async function ledgerAccountIdsByNumber(tx: Tx, instanceId: string): Promise<Map<string, number>> {
  const rows = await tx.query<{ id: number; number: string }>('SELECT id, number FROM ledger_account WHERE instance_id = $1', [instanceId]);
  return new Map(rows.map((row) => [row.number, row.id]));
}

/** True when an account number is taken by another account of the instance. */
export async function isAccountNumberTaken(tx: Tx, instanceId: string, number: string, exceptId?: number): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM ledger_account WHERE instance_id = $1 AND number = $2 AND id <> $3', [
    instanceId,
    number,
    exceptId ?? 0,
  ]);
  return rows.length > 0;
}

/** One account of a bulk write by number (chart import, seed). */
export interface LedgerAccountBulkRow {
  number: string;
  name: string;
  /** null keeps an existing account's value (an update only). */
  currencyId: number | null;
  typeId: number | null;
}

/**
 * Renames the accounts whose numbers exist, and sets type and currency where given, in one
 * statement. Returns the numbers that existed.
 */
export async function updateLedgerAccountsByNumber(tx: Tx, instanceId: string, rows: readonly LedgerAccountBulkRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const updated = await tx.query<{ number: string }>(
    `UPDATE ledger_account a
        SET name = r.name, currency_id = coalesce(r.currency_id, a.currency_id), type_id = coalesce(r.type_id, a.type_id)
       FROM unnest($2::text[], $3::text[], $4::smallint[], $5::smallint[]) AS r(number, name, currency_id, type_id)
      WHERE a.instance_id = $1 AND a.number = r.number
      RETURNING a.number`,
    [instanceId, rows.map((r) => r.number), rows.map((r) => r.name), rows.map((r) => r.currencyId), rows.map((r) => r.typeId)],
  );
  return new Set(updated.map((row) => row.number));
}

/**
 * Inserts ledger accounts with ids from one `next_ids` call, in one statement; numbers that already
 * exist are skipped. Returns how many were inserted.
 */
export async function insertLedgerAccounts(tx: Tx, instanceId: string, rows: readonly LedgerAccountValues[]): Promise<number> {
  if (rows.length === 0) return 0;
  const [last] = await tx.query<{ last: number }>(`SELECT next_ids($1, 'ledger_account', $2) AS last`, [instanceId, rows.length]);
  const inserted = await tx.query(
    `INSERT INTO ledger_account (instance_id, id, number, name, currency_id, type_id, function_type_id)
     SELECT $1, $2 + r.ord::int - 1, r.number, r.name, r.currency_id, r.type_id, r.function_type_id
       FROM unnest($3::text[], $4::text[], $5::smallint[], $6::smallint[], $7::smallint[])
            WITH ORDINALITY AS r(number, name, currency_id, type_id, function_type_id, ord)
     ON CONFLICT (instance_id, number) DO NOTHING
     RETURNING id`,
    [
      instanceId,
      last!.last - rows.length + 1,
      rows.map((r) => r.number),
      rows.map((r) => r.name),
      rows.map((r) => r.currencyId),
      rows.map((r) => r.typeId),
      rows.map((r) => r.functionTypeId),
    ],
  );
  return inserted.length;
}

export type AccountGroup = {
  id: number;
  number: string;
  name: string;
};

/** Account groups sorted by number (text order: 1, 10, 100, 106, 11, …, as the chart nests them). */
export async function selectAccountGroups(tx: Tx, instanceId: string): Promise<AccountGroup[]> {
  return tx.query<{ id: number; number: string; name: string }>(
    'SELECT id, number, name FROM account_group WHERE instance_id = $1 ORDER BY number COLLATE "C"',
    [instanceId],
  );
}

/** Inserts or renames account groups by number in one statement; returns created/updated counts. */
export async function upsertAccountGroups(
  tx: Tx,
  instanceId: string,
  rows: readonly { number: string; name: string }[],
  options: { keepExisting?: boolean } = {},
): Promise<{ created: number; updated: number; ids: number[] }> {
  if (rows.length === 0) return { created: 0, updated: 0, ids: [] };
  const [last] = await tx.query<{ last: number }>(`SELECT next_ids($1, 'account_group', $2) AS last`, [instanceId, rows.length]);
  const result = await tx.query<{ id: number; inserted: boolean }>(
    `INSERT INTO account_group AS g (instance_id, id, number, name)
     SELECT $1, $2 + r.ord::int - 1, r.number, r.name
       FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS r(number, name, ord)
     ON CONFLICT (instance_id, number) DO ${options.keepExisting ? 'NOTHING' : 'UPDATE SET name = excluded.name'}
     RETURNING id, (xmax = 0) AS inserted`,
    [instanceId, last!.last - rows.length + 1, rows.map((r) => r.number), rows.map((r) => r.name)],
  );
  const created = result.filter((r) => r.inserted).length;
  return { created, updated: result.length - created, ids: result.map((r) => r.id) };
}

/** Number, name, currency and type of ledger accounts (reports), sorted by number. */
export type LedgerAccountHead = {
  id: number;
  number: string;
  name: string;
  currency: CurrencyCode;
  typeId: number;
};

/** Number, name, currency and type of the given (or all) ledger accounts, sorted by number; unknown ids are left out. */
export async function selectLedgerAccountHeads(tx: Tx, instanceId: string, ids?: readonly number[]): Promise<LedgerAccountHead[]> {
  const rows = await tx.query<{ id: number; number: string; name: string; currency_id: number; type_id: number }>(
    `SELECT id, number, name, currency_id, type_id FROM ledger_account
      WHERE instance_id = $1 AND ($2::int[] IS NULL OR id = ANY ($2::int[]))
      ORDER BY number COLLATE "C"`,
    [instanceId, ids ? [...ids] : null],
  );
  return rows.map((row) => ({ id: row.id, number: row.number, name: row.name, currency: currencyCode(row.currency_id), typeId: row.type_id }));
}
