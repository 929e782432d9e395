/**
 * Invoices found by number, payment reference or text (issue 17 §1, decision 033), for the search
 * of the command palette. Invoicing's own tables only: the invoices and their words (migration 0044).
 */
import type { Tx } from '../../db/database.js';
import { allWordsMatch, searchWords } from '../../db/search.js';

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
 * reference is `reference` (as stored: no spaces, upper case), and those whose description has
 * each word of `text` inside one of its words (any case; words of 1 character are ignored).
 * No errors of its own: it rejects only when the database does.
 */
export async function searchInvoices(
  tx: Tx,
  instanceId: string,
  query: { number?: number | undefined; reference?: string | undefined; text?: string | undefined },
  limit: number,
): Promise<InvoiceHit[]> {
  // One statement, the parts a UNION of their own newest `limit`: one round trip whatever was typed.
  const params: unknown[] = [instanceId, limit];
  const parts: string[] = [];
  if (query.number !== undefined) {
    params.push(query.number);
    parts.push(`SELECT id FROM invoice WHERE instance_id = $1 AND id = $${params.length}`);
  }
  if (query.reference !== undefined) {
    params.push(query.reference);
    parts.push(`(SELECT id FROM invoice WHERE instance_id = $1 AND payment_reference = $${params.length} LIMIT $2)`);
  }
  const words = query.text === undefined ? [] : await searchWords(tx, query.text);
  if (words.length > 0) {
    const match = allWordsMatch(words, { table: 'invoice_word', key: 'invoice_id', doc: 't.id' }, params);
    parts.push(`(SELECT t.id FROM invoice t WHERE t.instance_id = $1 AND ${match} ORDER BY t.date_invoice DESC, t.id DESC LIMIT $2)`);
  }
  if (parts.length === 0) return [];
  const rows = await tx.query<{ uuid: string; id: number; date_invoice: string; description: string; status_id: number }>(
    `SELECT uuid, id, date_invoice, description, status_id FROM invoice
      WHERE instance_id = $1 AND id IN (${parts.join(' UNION ALL ')})
      ORDER BY date_invoice DESC, id DESC LIMIT $2`,
    params,
  );
  return rows.map((row) => ({ uuid: row.uuid, id: row.id, dateInvoice: row.date_invoice, description: row.description, status: row.status_id }));
}
