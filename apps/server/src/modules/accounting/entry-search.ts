/**
 * Journal entries found by text, amount or number (issue 17 §1, decision 033), for the search of
 * the command palette. Reads accounting's own tables only; the indexes are migration 0043's.
 */
import type { Tx } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';

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
  /** 3 or more characters found anywhere in the description (case-insensitive). */
  text?: string | undefined;
  /** An amount any of the entry's postings carries, 2 decimals. */
  amount?: string | undefined;
  /** The entry's number. */
  id?: number | undefined;
}

/**
 * Up to `limit` entries matching any of the query's parts, newest first. Each part is one indexed
 * read (trigram GIN for text, btree for amount and number), so an instance of any size answers
 * in milliseconds (bench/search).
 */
export async function searchJournalEntries(tx: Tx, instanceId: string, query: EntryQuery, limit: number): Promise<EntryHit[]> {
  const ids = new Set<number>();
  const found: { id: number; date_ledger: string }[] = [];
  const collect = (rows: { id: number; date_ledger: string }[]) => {
    for (const row of rows) {
      if (ids.has(row.id)) continue;
      ids.add(row.id);
      found.push(row);
    }
  };
  if (query.id !== undefined) {
    collect(await tx.query('SELECT id, date_ledger FROM journal_entry WHERE instance_id = $1 AND id = $2', [instanceId, query.id]));
  }
  if (query.amount !== undefined) {
    collect(
      await tx.query(
        `SELECT e.id, e.date_ledger FROM journal_entry e
          WHERE e.instance_id = $1
            AND e.id IN (SELECT l.entry_id FROM journal_line l WHERE l.instance_id = $1 AND l.amount = $2::numeric)
          ORDER BY e.date_ledger DESC, e.id DESC LIMIT $3`,
        [instanceId, query.amount, limit],
      ),
    );
  }
  if (query.text !== undefined) {
    collect(
      await tx.query(
        `SELECT id, date_ledger FROM journal_entry WHERE instance_id = $1 AND description ILIKE $2
          ORDER BY date_ledger DESC, id DESC LIMIT $3`,
        [instanceId, containsPattern(query.text), limit],
      ),
    );
  }
  if (found.length === 0) return [];
  const chosen = found.sort((a, b) => b.date_ledger.localeCompare(a.date_ledger) || b.id - a.id).slice(0, limit);
  const rows = await tx.query<{ id: number; date_ledger: string; description: string; source: string; source_ref: string | null; total: string }>(
    `SELECT e.id, e.date_ledger, e.description, e.source, e.source_ref,
            (SELECT coalesce(sum(l.amount), 0) FROM journal_line l WHERE l.instance_id = e.instance_id AND l.entry_id = e.id AND l.direction = 1)::numeric(20, 2)::text AS total
       FROM journal_entry e WHERE e.instance_id = $1 AND e.id = ANY($2::int[])
      ORDER BY e.date_ledger DESC, e.id DESC`,
    [instanceId, chosen.map((row) => row.id)],
  );
  return rows.map((row) => ({ id: row.id, date: row.date_ledger, description: row.description, source: row.source, sourceRef: row.source_ref, total: row.total }));
}
