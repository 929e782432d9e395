/**
 * Invoices found by number, payment reference or text (issue 17 §1, decision 033), for the search
 * of the command palette. Invoicing's own table only; the indexes are migration 0043's.
 */
import type { Tx } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';

export interface InvoiceHit {
  uuid: string;
  id: number;
  dateInvoice: string;
  description: string;
  /** 1 pending, 2 sent, 3 paid, 4 denied (spec §3 InvoiceStatus). */
  status: number;
}

/**
 * Up to `limit` invoices, newest first: the one numbered `number`, those whose QR or creditor
 * reference is `reference` (spaces ignored), and those whose description contains `text`.
 */
export async function searchInvoices(
  tx: Tx,
  instanceId: string,
  query: { number?: number | undefined; reference?: string | undefined; text?: string | undefined },
  limit: number,
): Promise<InvoiceHit[]> {
  const rows = await tx.query<{ uuid: string; id: number; date_invoice: string; description: string; status_id: number }>(
    `SELECT uuid, id, date_invoice, description, status_id FROM invoice
      WHERE instance_id = $1 AND id IN (
        SELECT id FROM invoice WHERE instance_id = $1 AND id = $2
        UNION ALL
        (SELECT id FROM invoice WHERE instance_id = $1 AND payment_reference = $3 LIMIT $5)
        UNION ALL
        (SELECT id FROM invoice WHERE instance_id = $1 AND $4::text IS NOT NULL AND description ILIKE $4 ORDER BY date_invoice DESC, id DESC LIMIT $5))
      ORDER BY date_invoice DESC, id DESC LIMIT $5`,
    [instanceId, query.number ?? null, query.reference ?? null, query.text === undefined ? null : containsPattern(query.text), limit],
  );
  return rows.map((row) => ({ uuid: row.uuid, id: row.id, dateInvoice: row.date_invoice, description: row.description, status: row.status_id }));
}
