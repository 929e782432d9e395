/**
 * SQL of the VAT return's own tables (migration 0024): the instance's VAT settings and its filed
 * returns. The figures' SQL over postings lives in vat-return.sql.ts.
 */
import type { VatBasis, VatFigures, VatMethod, VatPeriodKind, VatSubmissionTypeId } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** JSON columns come back parsed from pg and as text from some PGlite paths. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/** An approved net tax rate as stored (ranges null when absent). */
export interface StoredNetTaxRate {
  ratePercent: string;
  accountFrom: string | null;
  accountTo: string | null;
  /** Approved for supplies up to 2023 when it differed; absent in settings stored before it existed. */
  previousRatePercent?: string | null;
}

export interface VatSettingsRow {
  vatNumber: string;
  registrationDate: string;
  method: VatMethod;
  netTaxRates: (StoredNetTaxRate & { previousRatePercent: string | null })[];
  period: VatPeriodKind;
  basis: VatBasis;
  /** The configured settlement account; null: the default (2209, created on first filing). */
  settlementAccount: { id: number; number: string; name: string } | null;
  updatedAt: string;
  updatedBy: string | null;
}

type SettingsRecord = {
  vat_number: string;
  registration_date: string;
  method: VatMethod;
  net_tax_rates: unknown;
  period: VatPeriodKind;
  basis: VatBasis;
  account_id: number | null;
  account_number: string | null;
  account_name: string | null;
  updated_at: string;
  updated_by: string | null;
};

const toSettings = (row: SettingsRecord): VatSettingsRow => ({
  vatNumber: row.vat_number,
  registrationDate: row.registration_date,
  method: row.method,
  netTaxRates: json<StoredNetTaxRate[]>(row.net_tax_rates).map((rate) => ({ ...rate, previousRatePercent: rate.previousRatePercent ?? null })),
  period: row.period,
  basis: row.basis,
  settlementAccount: row.account_id === null ? null : { id: row.account_id, number: row.account_number!, name: row.account_name! },
  updatedAt: row.updated_at,
  updatedBy: row.updated_by,
});

/**
 * The instance's VAT settings, or undefined before they are set. `forUpdate` locks the row: filing
 * takes it first, so filings of one instance run one after the other (parallel identical calls
 * file once).
 */
export async function selectVatSettings(tx: Tx, instanceId: string, forUpdate = false): Promise<VatSettingsRow | undefined> {
  const [row] = await tx.query<SettingsRecord>(
    `SELECT s.vat_number, s.registration_date::text AS registration_date, s.method, s.net_tax_rates, s.period, s.basis,
            a.id AS account_id, a.number AS account_number, a.name AS account_name, s.updated_at::text AS updated_at, s.updated_by
       FROM vat_settings s LEFT JOIN ledger_account a ON a.instance_id = s.instance_id AND a.id = s.settlement_account_id
      WHERE s.instance_id = $1${forUpdate ? ' FOR UPDATE OF s' : ''}`,
    [instanceId],
  );
  return row ? toSettings(row) : undefined;
}

export interface VatSettingsWrite {
  vatNumber: string;
  registrationDate: string;
  method: VatMethod;
  netTaxRates: StoredNetTaxRate[];
  period: VatPeriodKind;
  basis: VatBasis;
  settlementAccountId: number | null;
  updatedBy: string | null;
}

/** Creates or replaces the instance's VAT settings. */
export async function upsertVatSettings(tx: Tx, instanceId: string, s: VatSettingsWrite): Promise<void> {
  await tx.query(
    `INSERT INTO vat_settings (instance_id, vat_number, registration_date, method, net_tax_rates, period, basis, settlement_account_id, updated_by)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)
     ON CONFLICT (instance_id) DO UPDATE SET vat_number = excluded.vat_number, registration_date = excluded.registration_date,
       method = excluded.method, net_tax_rates = excluded.net_tax_rates, period = excluded.period, basis = excluded.basis,
       settlement_account_id = excluded.settlement_account_id, updated_at = now(), updated_by = excluded.updated_by`,
    [instanceId, s.vatNumber, s.registrationDate, s.method, JSON.stringify(s.netTaxRates), s.period, s.basis, s.settlementAccountId, s.updatedBy],
  );
}

/** Tax moved from one VAT account to the settlement account by a filing (credit balance; input tax negative). */
export interface VatAccountAmount {
  accountId: number;
  amount: string;
}

export interface VatReturnRow {
  id: number;
  dateFrom: string;
  dateTo: string;
  typeOfSubmission: VatSubmissionTypeId;
  method: VatMethod;
  basis: VatBasis;
  vatNumber: string;
  figures: VatFigures;
  accounts: VatAccountAmount[];
  lockDate: string;
  settlementEntryId: number | null;
  filedAt: string;
  filedBy: string | null;
}

type ReturnRecord = {
  id: number;
  date_from: string;
  date_to: string;
  type_of_submission: number;
  method: VatMethod;
  basis: VatBasis;
  vat_number: string;
  figures: unknown;
  accounts: unknown;
  lock_date: string;
  settlement_entry_id: number | null;
  filed_at: string;
  filed_by: string | null;
};

const returnColumns = `id, date_from::text AS date_from, date_to::text AS date_to, type_of_submission, method, basis, vat_number, figures, accounts,
  lock_date::text AS lock_date, settlement_entry_id, to_char(filed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS filed_at, filed_by`;

const toReturn = (row: ReturnRecord): VatReturnRow => ({
  id: row.id,
  dateFrom: row.date_from,
  dateTo: row.date_to,
  typeOfSubmission: row.type_of_submission as VatSubmissionTypeId,
  method: row.method,
  basis: row.basis,
  vatNumber: row.vat_number,
  figures: json<VatFigures>(row.figures),
  accounts: json<VatAccountAmount[]>(row.accounts),
  lockDate: row.lock_date,
  settlementEntryId: row.settlement_entry_id,
  filedAt: row.filed_at,
  filedBy: row.filed_by,
});

/** Filed returns whose period lies within dateFrom..dateTo (all when no range), oldest first. */
export async function selectVatReturns(tx: Tx, instanceId: string, range?: { dateFrom: string; dateTo: string }): Promise<VatReturnRow[]> {
  const rows = await tx.query<ReturnRecord>(
    `SELECT ${returnColumns} FROM vat_return
      WHERE instance_id = $1 AND ($2::date IS NULL OR (date_from >= $2::date AND date_to <= $3::date))
      ORDER BY date_from, type_of_submission, id`,
    [instanceId, range?.dateFrom ?? null, range?.dateTo ?? null],
  );
  return rows.map(toReturn);
}

/** Filed returns that overlap dateFrom..dateTo. */
export async function selectOverlappingVatReturns(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<VatReturnRow[]> {
  const rows = await tx.query<ReturnRecord>(
    `SELECT ${returnColumns} FROM vat_return WHERE instance_id = $1 AND date_from <= $3::date AND date_to >= $2::date ORDER BY date_from, id`,
    [instanceId, dateFrom, dateTo],
  );
  return rows.map(toReturn);
}

/** One filed return by id. */
export async function selectVatReturn(tx: Tx, instanceId: string, id: number): Promise<VatReturnRow | undefined> {
  const [row] = await tx.query<ReturnRecord>(`SELECT ${returnColumns} FROM vat_return WHERE instance_id = $1 AND id = $2`, [instanceId, id]);
  return row ? toReturn(row) : undefined;
}

/** A return to store: its row without `filedAt` (now). The id is reserved with next_ids(instance, 'vat_return'), as the settlement entry names it first. */
export type VatReturnWrite = Omit<VatReturnRow, 'filedAt'>;

/**
 * Stores a filed return; undefined when an original of the period (or a yearly reconciliation of
 * the year) exists already (the partial unique keys of 0024, so parallel filings store one).
 */
export async function insertVatReturn(tx: Tx, instanceId: string, r: VatReturnWrite): Promise<VatReturnRow | undefined> {
  const [row] = await tx.query<ReturnRecord>(
    `INSERT INTO vat_return (instance_id, id, date_from, date_to, type_of_submission, method, basis, vat_number, figures, accounts, lock_date, settlement_entry_id, filed_by)
     VALUES ($1, $13, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12)
     ON CONFLICT DO NOTHING RETURNING ${returnColumns}`,
    [instanceId, r.dateFrom, r.dateTo, r.typeOfSubmission, r.method, r.basis, r.vatNumber, JSON.stringify(r.figures), JSON.stringify(r.accounts), r.lockDate, r.settlementEntryId, r.filedBy, r.id],
  );
  return row ? toReturn(row) : undefined;
}
