/**
 * Journal entries found by text, amount or number (issue 17 §1, decision 033), for the search of
 * the command palette. Reads accounting's own tables only: the entries, their postings' cents
 * and the entries' words (migration 0044).
 */
import type { Tx } from '../../db/database.js';
import { allWordsMatch, amountCents, searchWords } from '../../db/search.js';

export interface EntryHit {
  id: number;
  date: string;
  description: string;
  /** Where the entry came from ('manual', 'invoice', 'bill', …) and the document's key, if any. */
  source: string;
  sourceRef: string | null;
  /** The entry's total (sum of its debits), in the books' currency, 2 decimals. */
  total: string;
}

export interface EntryQuery {
  /**
   * Words, each found inside a word of the description (case-insensitive, any order); words of
   * 1 character are ignored, and a text without a longer one searches nothing.
   */
  text?: string | undefined;
  /** An amount any of the entry's postings carries, 2 decimals. */
  amount?: string | undefined;
  /** The entry's number. */
  id?: number | undefined;
}

/**
 * Up to `limit` entries matching any of the query's parts, newest first; `amount` in the books'
 * currency (more than 15 integer digits match nothing). Each part is an index read that row-level
 * security allows (integer cents, word ranges, the number), so an instance of any size answers in
 * milliseconds (bench/search). No errors of its own: it rejects only when the database does.
 */
export async function searchJournalEntries(tx: Tx, instanceId: string, query: EntryQuery, limit: number): Promise<EntryHit[]> {
  // One statement, the parts a UNION of their own newest `limit`: one round trip whatever was typed.
  const params: unknown[] = [instanceId, limit];
  const parts: string[] = [];
  if (query.id !== undefined) {
    params.push(query.id);
    parts.push(`SELECT id FROM journal_entry WHERE instance_id = $1 AND id = $${params.length}`);
  }
  const cents = query.amount === undefined ? null : amountCents(query.amount);
  if (cents !== null) {
    params.push(cents);
    parts.push(`(SELECT a.id FROM journal_entry a
                  WHERE a.instance_id = $1
                    AND a.id IN (SELECT l.entry_id FROM journal_line l WHERE l.instance_id = $1 AND l.amount_cents = $${params.length}::bigint)
                  ORDER BY a.date_ledger DESC, a.id DESC LIMIT $2)`);
  }
  const words = query.text === undefined ? [] : await searchWords(tx, query.text);
  if (words.length > 0) {
    const match = allWordsMatch(words, { table: 'journal_entry_word', key: 'entry_id', doc: 't.id' }, params);
    parts.push(`(SELECT t.id FROM journal_entry t WHERE t.instance_id = $1 AND ${match} ORDER BY t.date_ledger DESC, t.id DESC LIMIT $2)`);
  }
  if (parts.length === 0) return [];
  const rows = await tx.query<{ id: number; date_ledger: string; description: string; source: string; source_ref: string | null; total: string }>(
    `SELECT e.id, e.date_ledger, e.description, e.source, e.source_ref,
            (SELECT coalesce(sum(l.amount), 0) FROM journal_line l WHERE l.instance_id = e.instance_id AND l.entry_id = e.id AND l.direction = 1)::numeric(20, 2)::text AS total
       FROM journal_entry e WHERE e.instance_id = $1 AND e.id IN (${parts.join(' UNION ALL ')})
      ORDER BY e.date_ledger DESC, e.id DESC LIMIT $2`,
    params,
  );
  return rows.map((row) => ({ id: row.id, date: row.date_ledger, description: row.description, source: row.source, sourceRef: row.source_ref, total: row.total }));
}
