/** Data access for VAT codes (migration 0023, decision 019). */
import type { VatCode, VatCodeKind, VatEntry, VatRateType } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

type VatCodeRow = {
  code: string;
  name: string;
  kind: VatCodeKind;
  rate_type: VatRateType;
  account_number: string | null;
  deduction_account_number: string | null;
  default_entry: VatEntry;
  ziffer_base: string | null;
  ziffer_tax: string | null;
  ziffer_deduction: string | null;
  is_active: boolean;
  has_postings: boolean;
};

export type VatCodeWithUse = VatCode & { hasPostings: boolean };

const toVatCode = (row: VatCodeRow): VatCodeWithUse => ({
  code: row.code,
  name: row.name,
  kind: row.kind,
  rateType: row.rate_type,
  accountNumber: row.account_number,
  deductionAccountNumber: row.deduction_account_number,
  defaultEntry: row.default_entry,
  zifferBase: row.ziffer_base,
  zifferTax: row.ziffer_tax,
  zifferDeduction: row.ziffer_deduction,
  isActive: row.is_active,
  hasPostings: row.has_postings,
});

const COLUMNS = `c.code, c.name, c.kind, c.rate_type, c.account_number, c.deduction_account_number, c.default_entry,
  c.ziffer_base, c.ziffer_tax, c.ziffer_deduction, c.is_active`;

/**
 * VAT codes of the instance by code, all or those of `codes`. `hasPostings` costs one index probe
 * per code (journal_line_vat_idx is partial on coded lines).
 */
export async function selectVatCodes(tx: Tx, instanceId: string, codes?: readonly string[]): Promise<VatCodeWithUse[]> {
  const rows = await tx.query<VatCodeRow>(
    `SELECT ${COLUMNS},
            EXISTS (SELECT 1 FROM journal_line l WHERE l.instance_id = c.instance_id AND l.vat_code = c.code) AS has_postings
       FROM vat_code c
      WHERE c.instance_id = $1 AND ($2::text[] IS NULL OR c.code = ANY ($2::text[]))
      ORDER BY c.code`,
    [instanceId, codes ? [...codes] : null],
  );
  return rows.map(toVatCode);
}

/** The codes named, without the use check (the posting path). */
export async function selectVatCodesForPosting(tx: Tx, instanceId: string, codes: readonly string[]): Promise<VatCode[]> {
  if (codes.length === 0) return [];
  const rows = await tx.query<VatCodeRow>(
    `SELECT ${COLUMNS}, false AS has_postings FROM vat_code c WHERE c.instance_id = $1 AND c.code = ANY ($2::text[])`,
    [instanceId, [...codes]],
  );
  return rows.map(({ has_postings: _unused, ...row }) => {
    const { hasPostings: _ignored, ...code } = toVatCode({ ...row, has_postings: false });
    return code;
  });
}

/** Inserts the Swiss seed (codes that exist are kept); returns how many were created. */
export async function seedVatCodes(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ created: number }>('SELECT seed_vat_codes($1) AS created', [instanceId]);
  return row!.created;
}

const values = (code: VatCode) => [
  code.name,
  code.kind,
  code.rateType,
  code.accountNumber,
  code.deductionAccountNumber,
  code.defaultEntry,
  code.zifferBase,
  code.zifferTax,
  code.zifferDeduction,
  code.isActive,
];

/** Inserts one code; false when the code exists already (nothing written). */
export async function insertVatCode(tx: Tx, instanceId: string, code: VatCode): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO vat_code (instance_id, code, name, kind, rate_type, account_number, deduction_account_number, default_entry,
                           ziffer_base, ziffer_tax, ziffer_deduction, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (instance_id, code) DO NOTHING
     RETURNING code`,
    [instanceId, code.code, ...values(code)],
  );
  return rows.length === 1;
}

/** Locks one code for a change (parallel updates apply one after the other); undefined when unknown. */
export async function lockVatCode(tx: Tx, instanceId: string, code: string): Promise<VatCode | undefined> {
  const rows = await tx.query<VatCodeRow>(
    `SELECT ${COLUMNS}, false AS has_postings FROM vat_code c WHERE c.instance_id = $1 AND c.code = $2 FOR UPDATE`,
    [instanceId, code],
  );
  if (!rows[0]) return undefined;
  const { hasPostings: _unused, ...vatCode } = toVatCode(rows[0]);
  return vatCode;
}

/** Writes every field of an existing code (the code itself never changes). */
export async function updateVatCode(tx: Tx, instanceId: string, code: VatCode): Promise<void> {
  await tx.query(
    `UPDATE vat_code SET name = $3, kind = $4, rate_type = $5, account_number = $6, deduction_account_number = $7,
                         default_entry = $8, ziffer_base = $9, ziffer_tax = $10, ziffer_deduction = $11, is_active = $12
      WHERE instance_id = $1 AND code = $2`,
    [instanceId, code.code, ...values(code)],
  );
}

/** Deletes an unused code; false when postings refer to it (nothing deleted). */
export async function deleteUnusedVatCode(tx: Tx, instanceId: string, code: string): Promise<boolean> {
  const rows = await tx.query(
    `DELETE FROM vat_code c WHERE c.instance_id = $1 AND c.code = $2
        AND NOT EXISTS (SELECT 1 FROM journal_line l WHERE l.instance_id = c.instance_id AND l.vat_code = c.code)
      RETURNING code`,
    [instanceId, code],
  );
  return rows.length === 1;
}
