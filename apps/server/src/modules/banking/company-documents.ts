/**
 * The bank-transaction entries of given documents, for the company delete rule that wiring
 * composes (issue #4 §1; issue 11 §3: companies no longer reads bank tables).
 */
import type { Tx } from '../../db/database.js';

/** Ids of the entries of the bank transactions matched to one of the invoices or bills given; one query. */
export async function entriesOfMatchedDocuments(tx: Tx, instanceId: string, documents: { invoiceUuids: readonly string[]; payableIds: readonly number[] }): Promise<number[]> {
  if (documents.invoiceUuids.length === 0 && documents.payableIds.length === 0) return [];
  const rows = await tx.query<{ entry_id: number }>(
    `SELECT DISTINCT entry_id FROM bank_transaction
      WHERE instance_id = $1 AND entry_id IS NOT NULL AND (matched_invoice_uuid = ANY ($2::uuid[]) OR matched_payable_id = ANY ($3::integer[]))
      ORDER BY entry_id`,
    [instanceId, [...documents.invoiceUuids], [...documents.payableIds]],
  );
  return rows.map((row) => row.entry_id);
}
