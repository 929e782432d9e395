/**
 * Lookups other modules make for lists and bank files (issue 11 §3: they ask companies instead of
 * joining company and payment_profile). Each answers a whole list in one query, never one per row.
 */
import { normalizeIban } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** IBANs of the given payment profiles by id, upper case without spaces; profiles without an IBAN are left out. */
export async function paymentProfileIbansById(tx: Tx, instanceId: string, ids: readonly number[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await tx.query<{ id: number; iban: string }>(
    `SELECT id, replace(upper(iban), ' ', '') AS iban FROM payment_profile WHERE instance_id = $1 AND id = ANY ($2::int[]) AND iban IS NOT NULL`,
    [instanceId, wanted],
  );
  return new Map(rows.map((row) => [row.id, row.iban]));
}

/**
 * The ledger account of `companyUuid`'s payment profile with IBAN `iban` (spaces and case ignored),
 * the first such profile that has an account; undefined when none has.
 */
export async function ledgerAccountOfIban(tx: Tx, instanceId: string, companyUuid: string, iban: string): Promise<number | undefined> {
  const [row] = await tx.query<{ account_id: number }>(
    `SELECT account_id FROM payment_profile
      WHERE instance_id = $1 AND company_uuid = $2 AND replace(upper(iban), ' ', '') = $3 AND account_id IS NOT NULL ORDER BY id LIMIT 1`,
    [instanceId, companyUuid, normalizeIban(iban)],
  );
  return row?.account_id;
}

/**
 * The IBANs (upper case, no spaces) of company `companyUuid`'s payment profiles booked on ledger
 * account `accountId`, by profile id: what a bank statement for that account must name (issue 14 §2).
 */
export async function ibansOfLedgerAccount(tx: Tx, instanceId: string, companyUuid: string, accountId: number): Promise<string[]> {
  const rows = await tx.query<{ iban: string }>(
    `SELECT replace(upper(iban), ' ', '') AS iban FROM payment_profile
      WHERE instance_id = $1 AND company_uuid = $2 AND account_id = $3 AND iban IS NOT NULL ORDER BY id`,
    [instanceId, companyUuid, accountId],
  );
  return rows.map((row) => row.iban);
}
