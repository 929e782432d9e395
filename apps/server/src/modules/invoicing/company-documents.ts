/**
 * A company's invoices and the entries they posted, for the company delete rule that wiring
 * composes (issue #4 §1; issue 11 §3: companies no longer reads invoice tables).
 */
import type { Tx } from '../../db/database.js';

/** An invoice of a company with the ids of its sent, paid and denied entries (those it has). */
export interface CompanyInvoice {
  uuid: string;
  entryIds: number[];
}

/** Every invoice of the company (any status), with its entries; one query. */
export async function invoicesOfCompany(tx: Tx, instanceId: string, companyUuid: string): Promise<CompanyInvoice[]> {
  const rows = await tx.query<{ uuid: string; entry_ids: (number | null)[] }>(
    'SELECT uuid, ARRAY[sent_entry_id, paid_entry_id, denied_entry_id] AS entry_ids FROM invoice WHERE instance_id = $1 AND company_uuid = $2 ORDER BY id',
    [instanceId, companyUuid],
  );
  return rows.map((row) => ({ uuid: row.uuid, entryIds: row.entry_ids.filter((id): id is number => id !== null) }));
}
