/**
 * Bills and expenses found by number, amount, reference or text (issue 17 §1, decision 033), for
 * the search of the command palette. Payables' own table only; the indexes are migration 0043's.
 */
import { currencyCodeById } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';
import { payableStatusName } from './payables.service.js';

export interface BillHit {
  uuid: string;
  id: number;
  /** 0 bill, 1 expense (spec §3 PayableType). */
  type: number;
  date: string;
  description: string;
  /** The bill's total in its currency, 2 decimals. */
  amount: string;
  currency: string;
  statusName: string;
}

/**
 * Up to `limit` bills and expenses, newest first: the one numbered `number`, those of `amount`
 * (in their own currency), those whose reference number is `reference`, and those whose
 * description contains `text`.
 */
export async function searchBills(
  tx: Tx,
  instanceId: string,
  query: { number?: number | undefined; amount?: string | undefined; reference?: string | undefined; text?: string | undefined },
  limit: number,
): Promise<BillHit[]> {
  const rows = await tx.query<{ uuid: string; id: number; type_id: number; date: string; description: string; amount: string; currency_id: number; status: number }>(
    `SELECT uuid, id, type_id, date, description, amount::text, currency_id, status FROM payable
      WHERE instance_id = $1 AND id IN (
        SELECT id FROM payable WHERE instance_id = $1 AND id = $2
        UNION ALL
        (SELECT id FROM payable WHERE instance_id = $1 AND amount = $3::numeric ORDER BY date DESC, id DESC LIMIT $6)
        UNION ALL
        (SELECT id FROM payable WHERE instance_id = $1 AND reference_number = $4 LIMIT $6)
        UNION ALL
        (SELECT id FROM payable WHERE instance_id = $1 AND $5::text IS NOT NULL AND description ILIKE $5 ORDER BY date DESC, id DESC LIMIT $6))
      ORDER BY date DESC, id DESC LIMIT $6`,
    [instanceId, query.number ?? null, query.amount ?? null, query.reference ?? null, query.text === undefined ? null : containsPattern(query.text), limit],
  );
  return rows.map((row) => ({
    uuid: row.uuid,
    id: row.id,
    type: row.type_id,
    date: row.date,
    description: row.description,
    amount: row.amount,
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    statusName: payableStatusName[row.status] ?? String(row.status),
  }));
}
