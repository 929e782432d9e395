/**
 * Bills and expenses found by number, amount, reference or text (issue 17 §1, decision 033), for
 * the search of the command palette. Payables' own tables only: the bills, with their cents, and
 * their words (migration 0044).
 */
import { currencyCodeById } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { allWordsMatch, amountCents, searchWords } from '../../db/search.js';
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
 * (a decimal string, in the bill's own currency), those whose reference number is `reference`,
 * and those whose description has each word of `text` inside one of its words (any case; words
 * of 1 character are ignored). More than 15 integer digits match no amount. No errors of its own:
 * it rejects only when the database does.
 */
export async function searchBills(
  tx: Tx,
  instanceId: string,
  query: { number?: number | undefined; amount?: string | undefined; reference?: string | undefined; text?: string | undefined },
  limit: number,
): Promise<BillHit[]> {
  // One statement, the parts a UNION of their own newest `limit`: one round trip whatever was typed.
  const params: unknown[] = [instanceId, limit];
  const parts: string[] = [];
  if (query.number !== undefined) {
    params.push(query.number);
    parts.push(`SELECT id FROM payable WHERE instance_id = $1 AND id = $${params.length}`);
  }
  const cents = query.amount === undefined ? null : amountCents(query.amount);
  if (cents !== null) {
    params.push(cents);
    parts.push(`(SELECT id FROM payable WHERE instance_id = $1 AND amount_cents = $${params.length}::bigint ORDER BY date DESC, id DESC LIMIT $2)`);
  }
  if (query.reference !== undefined) {
    params.push(query.reference);
    parts.push(`(SELECT id FROM payable WHERE instance_id = $1 AND reference_number = $${params.length} LIMIT $2)`);
  }
  const words = query.text === undefined ? [] : await searchWords(tx, query.text);
  if (words.length > 0) {
    const match = allWordsMatch(words, { table: 'payable_word', key: 'payable_id', doc: 't.id' }, params);
    parts.push(`(SELECT t.id FROM payable t WHERE t.instance_id = $1 AND ${match} ORDER BY t.date DESC, t.id DESC LIMIT $2)`);
  }
  if (parts.length === 0) return [];
  const rows = await tx.query<{ uuid: string; id: number; type_id: number; date: string; description: string; amount: string; currency_id: number; status: number }>(
    `SELECT uuid, id, type_id, date, description, amount::text, currency_id, status FROM payable
      WHERE instance_id = $1 AND id IN (${parts.join(' UNION ALL ')})
      ORDER BY date DESC, id DESC LIMIT $2`,
    params,
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
