/**
 * Document postings (issue 11 §2, decision in migrations/0014_document_postings.sql): an entry
 * whose source is a document (invoice, bill, payment, bank, …: anything but 'manual' and 'import')
 * is changed only through that document. The journal routes refuse it with 409 `document_posting`
 * naming the document; the database refuses it again (BIL03) unless the owning code runs its write
 * inside `withDocumentPostingWrite`.
 *
 * The accounting module does not read other modules' tables: the document behind an entry comes
 * from resolvers that the modules owning the documents provide, passed at construction
 * (app.ts → accountingRoutes options, assembled in wiring/wiring.ts).
 */
import type { Tx } from '../../db/database.js';

/** Sources a person may edit through the journal routes (spec §7.1 "Entries"). */
export const EDITABLE_SOURCES: readonly string[] = ['manual', 'import'];

/** True when an entry of `source` belongs to a document (the database's is_document_source). */
export const isDocumentSource = (source: string): boolean => !EDITABLE_SOURCES.includes(source);

/** The document that posted an entry, as the API answers it. */
export interface PostingDocument {
  /** 'invoice', 'bill', 'expense', 'bank transaction', or the entry's source when unresolved. */
  type: string;
  /** Human reference: the invoice number ("00042"), the bill's number and supplier, … */
  reference: string;
  uuid: string | null;
  /** Web path of the document's page, when it has one. */
  link: string | null;
}

/** What a resolver gets: the entry's head. */
export interface DocumentEntry {
  id: number;
  source: string;
  sourceRef: string | null;
}

/** Finds the document behind an entry of one source; null when it cannot. */
export type DocumentResolver = (tx: Tx, instanceId: string, entry: DocumentEntry) => Promise<PostingDocument | null>;

/** Resolvers by journal_entry.source. */
export type DocumentResolvers = Readonly<Partial<Record<string, DocumentResolver>>>;

/**
 * The document that posted `entry`, or null for a manual or imported entry. Without a resolver for
 * the source (or when it finds nothing) the answer falls back to the source and source_ref.
 */
export async function documentOfEntry(tx: Tx, instanceId: string, entry: DocumentEntry, resolvers: DocumentResolvers): Promise<PostingDocument | null> {
  if (!isDocumentSource(entry.source)) return null;
  const resolved = await resolvers[entry.source]?.(tx, instanceId, entry);
  return resolved ?? { type: entry.source, reference: entry.sourceRef ?? `entry ${entry.id}`, uuid: null, link: null };
}

/**
 * Runs `fn` with the transaction-local flag that lets it update or delete document postings
 * (migration 0014). The one way for a document's own code (a reversal, an unmatch) to change its
 * entries; the flag is back to what it was when `fn` returns (so calls nest). When `fn` throws, the
 * transaction (or the caller's savepoint) rolls back, and the flag with it.
 */
export async function withDocumentPostingWrite<T>(tx: Tx, fn: () => Promise<T>): Promise<T> {
  const [flag] = await tx.query<{ previous: string | null }>(
    "SELECT current_setting('bilan.document_posting', true) AS previous, set_config('bilan.document_posting', 'on', true)",
  );
  const result = await fn();
  await tx.query("SELECT set_config('bilan.document_posting', $1, true)", [flag?.previous === 'on' ? 'on' : 'off']);
  return result;
}
