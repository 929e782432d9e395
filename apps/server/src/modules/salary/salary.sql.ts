/** The salary module's own tables (migration 0035): salary_wage_type and salary_import. */
import type { SalaryGrouping, SalaryWageType } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

interface WageTypeRow {
  code: string;
  name: string;
  debit_account: string | null;
  credit_account: string | null;
  is_net_pay: boolean;
  [key: string]: unknown;
}

/** The saved mapping, by code; empty when the instance saved none. */
export async function selectWageTypes(tx: Tx, instanceId: string): Promise<SalaryWageType[]> {
  const rows = await tx.query<WageTypeRow>(
    'SELECT code, name, debit_account, credit_account, is_net_pay FROM salary_wage_type WHERE instance_id = $1 ORDER BY code',
    [instanceId],
  );
  return rows.map((row) => ({ code: row.code, name: row.name, debitAccount: row.debit_account, creditAccount: row.credit_account, isNetPay: row.is_net_pay }));
}

/** Replaces the saved mapping by `wageTypes` (one DELETE, one multi-row INSERT). */
export async function replaceWageTypes(tx: Tx, instanceId: string, wageTypes: readonly SalaryWageType[]): Promise<void> {
  await tx.query('DELETE FROM salary_wage_type WHERE instance_id = $1', [instanceId]);
  if (wageTypes.length === 0) return;
  await tx.query(
    `INSERT INTO salary_wage_type (instance_id, code, name, debit_account, credit_account, is_net_pay)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[])`,
    [
      instanceId,
      wageTypes.map((t) => t.code),
      wageTypes.map((t) => t.name),
      wageTypes.map((t) => t.debitAccount),
      wageTypes.map((t) => t.creditAccount),
      wageTypes.map((t) => t.isNetPay),
    ],
  );
}

export interface SalaryImportHead {
  sha256: string;
  fileName: string;
  groupBy: SalaryGrouping;
  netClaims: boolean;
  periodFrom: string;
  periodTo: string;
  totalGross: string;
  createdBy: string | null;
}

/**
 * Claims the import's key: the new import's id, or null when the same file with the same choices
 * was imported before. A parallel identical import waits on the unique key until this transaction
 * ends, then finds it taken: it books once.
 */
export async function claimImport(tx: Tx, instanceId: string, head: SalaryImportHead): Promise<number | null> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO salary_import (instance_id, id, sha256, file_name, group_by, net_claims, period_from, period_to, total_gross, created_by)
     VALUES ($1, next_ids($1, 'salary_import'), $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (instance_id, sha256) DO NOTHING RETURNING id`,
    [instanceId, head.sha256, head.fileName, head.groupBy, head.netClaims, head.periodFrom, head.periodTo, head.totalGross, head.createdBy],
  );
  return row?.id ?? null;
}

/** The earlier import of the same key (for the 409's message). */
export async function importBySha(tx: Tx, instanceId: string, sha256: string): Promise<{ id: number; createdAt: string } | undefined> {
  const [row] = await tx.query<{ id: number; created_at: string }>('SELECT id, created_at::text FROM salary_import WHERE instance_id = $1 AND sha256 = $2', [instanceId, sha256]);
  return row ? { id: row.id, createdAt: row.created_at } : undefined;
}

/** Records what the import posted. */
export async function setImportResult(tx: Tx, instanceId: string, id: number, entryIds: readonly number[], payableUuids: readonly string[]): Promise<void> {
  await tx.query('UPDATE salary_import SET entry_ids = $3, payable_uuids = $4::uuid[] WHERE instance_id = $1 AND id = $2', [instanceId, id, entryIds, payableUuids]);
}

export interface SalaryImportRow {
  id: number;
  fileName: string;
  groupBy: SalaryGrouping;
  netClaims: boolean;
  periodFrom: string;
  periodTo: string;
  totalGross: string;
  entryIds: number[];
  payableUuids: string[];
  createdAt: string;
}

/** The instance's imports, newest first. */
export async function selectImports(tx: Tx, instanceId: string): Promise<SalaryImportRow[]> {
  const rows = await tx.query<{
    id: number;
    file_name: string;
    group_by: SalaryGrouping;
    net_claims: boolean;
    period_from: string;
    period_to: string;
    total_gross: string;
    entry_ids: number[];
    payable_uuids: string[];
    created_at: Date | string;
  }>(
    `SELECT id, file_name, group_by, net_claims, period_from, period_to, total_gross::text, entry_ids, payable_uuids::text[] AS payable_uuids, created_at
       FROM salary_import WHERE instance_id = $1 ORDER BY id DESC`,
    [instanceId],
  );
  return rows.map((row) => ({
    id: row.id,
    fileName: row.file_name,
    groupBy: row.group_by,
    netClaims: row.net_claims,
    periodFrom: row.period_from,
    periodTo: row.period_to,
    totalGross: row.total_gross,
    entryIds: row.entry_ids,
    payableUuids: row.payable_uuids,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
