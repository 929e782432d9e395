/**
 * SQL of the year-end closing (issue 12 §3, migration 0020): the instance's accounting settings and
 * the fiscal-year closings. Amounts are NUMERIC text; dates YYYY-MM-DD.
 */
import { AccountType } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** The instance's accounting settings as stored; absent row = defaults (closing.service.ts). */
export interface AccountingSettingsRow {
  fiscalYearStartMonth: number;
  /** null: the chart's 2979. */
  profitLossAccountId: number | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

type SettingsRow = { fiscal_year_start_month: number; profit_loss_account_id: number | null; updated_at: string | null; updated_by: string | null };
const toSettings = (row: SettingsRow): AccountingSettingsRow => ({
  fiscalYearStartMonth: row.fiscal_year_start_month,
  profitLossAccountId: row.profit_loss_account_id,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
});
const settingsColumns = 'fiscal_year_start_month, profit_loss_account_id, updated_at, updated_by';

/** The stored settings, or undefined when the instance still has the defaults. */
export async function selectAccountingSettings(tx: Tx, instanceId: string): Promise<AccountingSettingsRow | undefined> {
  const [row] = await tx.query<SettingsRow>(`SELECT ${settingsColumns} FROM accounting_settings WHERE instance_id = $1`, [instanceId]);
  return row ? toSettings(row) : undefined;
}

/**
 * Creates the settings row with the defaults if absent and locks it until the transaction ends:
 * closing, reopening and settings changes of one instance run one after the other (a parallel
 * repeat waits here and then sees the first one's result).
 */
export async function lockAccountingSettings(tx: Tx, instanceId: string): Promise<AccountingSettingsRow> {
  await tx.query('INSERT INTO accounting_settings (instance_id) VALUES ($1) ON CONFLICT (instance_id) DO NOTHING', [instanceId]);
  const [row] = await tx.query<SettingsRow>(`SELECT ${settingsColumns} FROM accounting_settings WHERE instance_id = $1 FOR UPDATE`, [instanceId]);
  return toSettings(row!);
}

/** Writes both settings (the row exists: lockAccountingSettings ran first). */
export async function updateAccountingSettings(
  tx: Tx,
  instanceId: string,
  settings: { fiscalYearStartMonth: number; profitLossAccountId: number | null },
  userId: string | null,
): Promise<AccountingSettingsRow> {
  const [row] = await tx.query<SettingsRow>(
    `UPDATE accounting_settings SET fiscal_year_start_month = $2, profit_loss_account_id = $3, updated_at = now(), updated_by = $4
      WHERE instance_id = $1 RETURNING ${settingsColumns}`,
    [instanceId, settings.fiscalYearStartMonth, settings.profitLossAccountId, userId],
  );
  return toSettings(row!);
}

/** A failed check acknowledged at closing, with the user's note. */
export interface CheckAcknowledgement {
  key: string;
  name: string;
  detail: string;
  note: string;
}

/** One closing of a fiscal year as stored. */
export interface FiscalYearClosingRow {
  uuid: string;
  fiscalYear: number;
  dateFrom: string;
  dateTo: string;
  status: 'closed' | 'reopened';
  closingEntryId: number | null;
  reversalEntryId: number | null;
  profitLossAccountId: number;
  /** Revenue − expenses of the year, 2 decimals, positive for a profit. */
  result: string;
  lockUuid: string | null;
  acknowledgements: CheckAcknowledgement[];
  closedAt: string;
  closedBy: string | null;
  reopenedAt: string | null;
  reopenedBy: string | null;
}

type ClosingRow = {
  uuid: string;
  fiscal_year: number;
  date_from: string;
  date_to: string;
  status: 'closed' | 'reopened';
  closing_entry_id: number | null;
  reversal_entry_id: number | null;
  profit_loss_account_id: number;
  result: string;
  lock_uuid: string | null;
  acknowledgements: CheckAcknowledgement[] | string;
  closed_at: string;
  closed_by: string | null;
  reopened_at: string | null;
  reopened_by: string | null;
};
const closingColumns = `uuid, fiscal_year, date_from, date_to, status, closing_entry_id, reversal_entry_id, profit_loss_account_id,
  result::text AS result, lock_uuid, acknowledgements, closed_at, closed_by, reopened_at, reopened_by`;
const toClosing = (row: ClosingRow): FiscalYearClosingRow => ({
  uuid: row.uuid,
  fiscalYear: row.fiscal_year,
  dateFrom: row.date_from,
  dateTo: row.date_to,
  status: row.status,
  closingEntryId: row.closing_entry_id,
  reversalEntryId: row.reversal_entry_id,
  profitLossAccountId: row.profit_loss_account_id,
  result: row.result,
  lockUuid: row.lock_uuid,
  acknowledgements: typeof row.acknowledgements === 'string' ? (JSON.parse(row.acknowledgements) as CheckAcknowledgement[]) : row.acknowledgements,
  closedAt: row.closed_at,
  closedBy: row.closed_by,
  reopenedAt: row.reopened_at,
  reopenedBy: row.reopened_by,
});

/** Every closing of the instance (closed and reopened), by fiscal year, then the newest first. */
export async function selectFiscalYearClosings(tx: Tx, instanceId: string): Promise<FiscalYearClosingRow[]> {
  const rows = await tx.query<ClosingRow>(
    `SELECT ${closingColumns} FROM fiscal_year_closing WHERE instance_id = $1 ORDER BY fiscal_year, closed_at DESC`,
    [instanceId],
  );
  return rows.map(toClosing);
}

/** The closings of one fiscal year, the newest first (at most one of them 'closed'). */
export async function selectClosingsOfYear(tx: Tx, instanceId: string, year: number): Promise<FiscalYearClosingRow[]> {
  const rows = await tx.query<ClosingRow>(
    `SELECT ${closingColumns} FROM fiscal_year_closing WHERE instance_id = $1 AND fiscal_year = $2 ORDER BY closed_at DESC`,
    [instanceId, year],
  );
  return rows.map(toClosing);
}

/** The active closing whose lock is `lockUuid`, if any. */
export async function selectClosingOfLock(tx: Tx, instanceId: string, lockUuid: string): Promise<FiscalYearClosingRow | undefined> {
  const [row] = await tx.query<ClosingRow>(
    `SELECT ${closingColumns} FROM fiscal_year_closing WHERE instance_id = $1 AND lock_uuid = $2 AND status = 'closed'`,
    [instanceId, lockUuid],
  );
  return row ? toClosing(row) : undefined;
}

/**
 * Records a closing unless the year has an active one (unique index of migration 0020, so
 * parallel inserts leave one row); undefined when it had.
 */
export async function insertFiscalYearClosing(
  tx: Tx,
  instanceId: string,
  closing: {
    fiscalYear: number;
    dateFrom: string;
    dateTo: string;
    closingEntryId: number | null;
    profitLossAccountId: number;
    result: string;
    lockUuid: string;
    acknowledgements: CheckAcknowledgement[];
    closedBy: string | null;
  },
): Promise<FiscalYearClosingRow | undefined> {
  const [row] = await tx.query<ClosingRow>(
    `INSERT INTO fiscal_year_closing (instance_id, fiscal_year, date_from, date_to, status, closing_entry_id, profit_loss_account_id, result,
                                      lock_uuid, acknowledgements, closed_by)
     VALUES ($1, $2, $3, $4, 'closed', $5, $6, $7, $8, $9::jsonb, $10)
     ON CONFLICT (instance_id, fiscal_year) WHERE status = 'closed' DO NOTHING
     RETURNING ${closingColumns}`,
    [
      instanceId,
      closing.fiscalYear,
      closing.dateFrom,
      closing.dateTo,
      closing.closingEntryId,
      closing.profitLossAccountId,
      closing.result,
      closing.lockUuid,
      JSON.stringify(closing.acknowledgements),
      closing.closedBy,
    ],
  );
  return row ? toClosing(row) : undefined;
}

/**
 * Marks an active closing reopened and lets go of its lock (conditional on status 'closed', so
 * two parallel reopens change it once); undefined when it was no longer closed.
 */
export async function markClosingReopened(tx: Tx, instanceId: string, uuid: string, userId: string | null): Promise<FiscalYearClosingRow | undefined> {
  const [row] = await tx.query<ClosingRow>(
    `UPDATE fiscal_year_closing SET status = 'reopened', lock_uuid = NULL, reopened_at = now(), reopened_by = $3
      WHERE instance_id = $1 AND uuid = $2 AND status = 'closed' RETURNING ${closingColumns}`,
    [instanceId, uuid, userId],
  );
  return row ? toClosing(row) : undefined;
}

/** Notes the reversal entry that reopening posted. */
export async function setClosingReversal(tx: Tx, instanceId: string, uuid: string, reversalEntryId: number): Promise<void> {
  await tx.query('UPDATE fiscal_year_closing SET reversal_entry_id = $3 WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid, reversalEntryId]);
}

/** Per fiscal year with month rows: whether it has postings, and its result (revenue − expenses). */
export interface FiscalYearTurnover {
  fiscalYear: number;
  hasPostings: boolean;
  /** Credit − debit of the revenue and expense accounts over the year, every entry included. */
  result: string;
}

/**
 * Postings and result per fiscal year (starting in `startMonth`), from the per-month table: a few
 * rows per account and month, whatever the number of postings. A closed year's closing entry
 * zeroes its result here (the stored closing keeps it); a reopened year's closing and its reversal
 * cancel out.
 */
export async function selectFiscalYearTurnovers(tx: Tx, instanceId: string, startMonth: number): Promise<FiscalYearTurnover[]> {
  const rows = await tx.query<{ fiscal_year: number; has_postings: boolean; result: string }>(
    `SELECT extract(year FROM b.period - make_interval(months => $2::int - 1))::int AS fiscal_year,
            bool_or(b.debit <> 0 OR b.credit <> 0) AS has_postings,
            coalesce(sum(b.credit - b.debit) FILTER (WHERE a.type_id IN (${AccountType.expenses}, ${AccountType.revenue})), 0)::text AS result
       FROM account_period_balance b
       JOIN ledger_account a ON a.instance_id = b.instance_id AND a.id = b.account_id
      WHERE b.instance_id = $1
      GROUP BY 1 ORDER BY 1`,
    [instanceId, startMonth],
  );
  return rows.map((row) => ({ fiscalYear: row.fiscal_year, hasPostings: row.has_postings, result: row.result }));
}

/** Locks dated after `date`, the latest first. */
export async function selectLocksAfter(tx: Tx, instanceId: string, date: string): Promise<{ uuid: string; lockDate: string }[]> {
  const rows = await tx.query<{ uuid: string; lock_date: string }>(
    'SELECT uuid, lock_date FROM accounting_lock WHERE instance_id = $1 AND lock_date > $2 ORDER BY lock_date DESC',
    [instanceId, date],
  );
  return rows.map((row) => ({ uuid: row.uuid, lockDate: row.lock_date }));
}
