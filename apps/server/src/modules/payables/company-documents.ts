/**
 * A company's bills and the entries they posted, for the company delete rule that wiring composes
 * (issue #4 §1; issue 11 §3: companies no longer reads payable tables).
 */
import type { Tx } from '../../db/database.js';

/** A bill (or expense) of a company with the ids of its booking and payment entries (those it has). */
export interface CompanyBill {
  id: number;
  uuid: string;
  entryIds: number[];
}

/** Every bill of the company (any status), with its entries; one query. */
export async function billsOfCompany(tx: Tx, instanceId: string, companyUuid: string): Promise<CompanyBill[]> {
  const rows = await tx.query<{ id: number; uuid: string; entry_ids: (number | null)[] }>(
    'SELECT id, uuid, ARRAY[booking_entry_id, payment_entry_id] AS entry_ids FROM payable WHERE instance_id = $1 AND company_uuid = $2 ORDER BY id',
    [instanceId, companyUuid],
  );
  return rows.map((row) => ({ id: row.id, uuid: row.uuid, entryIds: row.entry_ids.filter((id): id is number => id !== null) }));
}
