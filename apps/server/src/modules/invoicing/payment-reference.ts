/**
 * Sent invoices by payment reference, for the bank-credit matching that wiring composes (issue 11
 * §3: banking and wiring ask invoicing instead of reading its tables).
 */
import { InvoiceStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/**
 * The uuids of the sent invoices whose stored payment reference (QRR or SCOR, no spaces, upper case)
 * is `reference`, by id, locked (`FOR UPDATE`) so a parallel import cannot pay them twice.
 */
export async function lockSentInvoicesByReference(tx: Tx, instanceId: string, reference: string): Promise<string[]> {
  const rows = await tx.query<{ uuid: string }>(
    'SELECT uuid FROM invoice WHERE instance_id = $1 AND status_id = $2 AND payment_reference = $3 ORDER BY id FOR UPDATE',
    [instanceId, InvoiceStatus.sent, reference],
  );
  return rows.map((row) => row.uuid);
}

/**
 * Of `references` (stored form: no spaces, upper case), those a sent invoice carries — one indexed
 * query for a whole statement, so only their credits go through the per-credit match (issue 14 §4).
 */
export async function sentInvoiceReferences(tx: Tx, instanceId: string, references: readonly string[]): Promise<Set<string>> {
  if (!references.length) return new Set();
  const rows = await tx.query<{ reference: string }>(
    'SELECT DISTINCT payment_reference AS reference FROM invoice WHERE instance_id = $1 AND status_id = $2 AND payment_reference = ANY($3::text[])',
    [instanceId, InvoiceStatus.sent, [...new Set(references)]],
  );
  return new Set(rows.map((row) => row.reference));
}
