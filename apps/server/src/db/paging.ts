/**
 * Paging in SQL for every list (issue 18 §2, decision 036): a page is either an offset (`page`,
 * 1-based — what a page-number control needs) or a keyset `cursor` (the sort key of the last row
 * of the previous page — constant cost however deep, for API clients walking a whole list). Counts
 * stop at COUNT_CAP: above it the answer says `totalCapped` instead of scanning every row of an
 * instance on every page.
 */
import { fieldError } from '../http/errors.js';
import type { Tx } from './database.js';

/** Rows a page when the request names none, and the most it may ask for. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Counts are exact up to this many rows; above, `total` is COUNT_CAP and `totalCapped` true. */
export const COUNT_CAP = 10_000;

export interface PageRequest {
  pageSize: number;
  /** 1-based; ignored when `cursor` is given. */
  page?: number | undefined;
  /** `nextCursor` of the previous answer. */
  cursor?: string | undefined;
}

/** Types of the values a cursor carries, checked when it comes back (a client may send anything). */
export type KeyPart = 'date' | 'int' | 'text' | 'timestamp' | 'uuid';
export type KeyValue = string | number;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ][0-9:.]+(Z|[+-]\d{2}(:?\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a cursor's key part is a value of its type (what the SQL casts it to must not fail). */
const PART_CHECKS: Record<KeyPart, (value: unknown) => boolean> = {
  int: (value) => Number.isSafeInteger(value),
  date: (value) => typeof value === 'string' && DATE.test(value),
  timestamp: (value) => typeof value === 'string' && TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)),
  uuid: (value) => typeof value === 'string' && UUID.test(value),
  text: (value) => typeof value === 'string' && value.length <= 1000,
};

/** A list's count as answered: exact up to COUNT_CAP, else COUNT_CAP and `totalCapped`. */
export interface Counted {
  total: number;
  totalCapped: boolean;
}

/**
 * The opaque cursor of a row's sort key: base64url of its JSON. With `counted`, the cursor also
 * carries the count of the walk's first page, so the next pages answer it without counting again.
 */
export const encodeCursor = (key: readonly KeyValue[], counted?: Counted): string =>
  Buffer.from(JSON.stringify(counted ? [...key, { n: counted.total, c: counted.totalCapped }] : key)).toString('base64url');

const refusedCursor = () => fieldError('cursor', "cursor is not one of this list's cursors");

function parseCursor(cursor: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refusedCursor();
  }
  if (!Array.isArray(parsed)) throw refusedCursor();
  return parsed;
}

/** The count a cursor carries (see `encodeCursor`), or null for a cursor without one. */
function carriedCount(cursor: string): Counted | null {
  const last: unknown = parseCursor(cursor).at(-1);
  if (typeof last !== 'object' || last === null) return null;
  const { n, c } = last as { n?: unknown; c?: unknown };
  if (!Number.isSafeInteger(n) || (n as number) < 0 || (n as number) > COUNT_CAP || typeof c !== 'boolean') throw refusedCursor();
  return { total: n as number, totalCapped: c };
}

/**
 * The sort key a cursor carries, each part checked against `parts` (a carried count after them is
 * left to `countUpTo`).
 * @throws 400 on field `cursor` ('cursor is not one of this list's cursors') for anything else.
 */
export function decodeCursor(cursor: string, parts: readonly KeyPart[]): KeyValue[] {
  const parsed = parseCursor(cursor);
  const last: unknown = parsed.at(-1);
  const key = parsed.length === parts.length + 1 && typeof last === 'object' && last !== null ? parsed.slice(0, -1) : parsed;
  if (key.length !== parts.length || !key.every((value: unknown, i) => PART_CHECKS[parts[i]!](value))) throw refusedCursor();
  return key as KeyValue[];
}

/**
 * The SQL of a row comparison of `columns` with `key`, e.g. `(a, b) < ($3::date, $4::int)`: the
 * values are appended to `params`, `types` cast them. A row comparison is what an index on the
 * same columns reads as one range.
 */
export function keyCompare(columns: readonly string[], types: readonly string[], op: '<' | '<=' | '>' | '>=', key: readonly KeyValue[], params: unknown[]): string {
  const placeholders = key.map((value, i) => {
    params.push(value);
    return `$${params.length}::${types[i]}`;
  });
  return `(${columns.join(', ')}) ${op} (${placeholders.join(', ')})`;
}

/** "After this key" in the list's order: `<` for a descending list, `>` for an ascending one. */
export const afterKey = (columns: readonly string[], types: readonly string[], order: 'asc' | 'desc', key: readonly KeyValue[], params: unknown[]): string =>
  keyCompare(columns, types, order === 'desc' ? '<' : '>', key, params);

/**
 * How many rows `selectOne` (a `SELECT 1 FROM … WHERE …`) finds, counting no further than
 * COUNT_CAP + 1: cheap at any size, exact below the cap. With `page`, a cursor that carries the
 * count of its walk's first page (`pageOf` with `counted`) answers that count without a query:
 * 10,001 index entries less to read on every later page of a long list (issue 18 §2).
 * @throws 400 on field `cursor` for a carried count that is not one.
 */
export async function countUpTo(tx: Tx, selectOne: string, params: readonly unknown[], page?: PageRequest): Promise<Counted> {
  const carried = page?.cursor ? carriedCount(page.cursor) : null;
  if (carried) return carried;
  const [row] = await tx.query<{ n: number }>(cappedCountSql(selectOne), params);
  return cappedCount(row!.n);
}

const cappedCountSql = (selectOne: string) => `SELECT count(*)::int AS n FROM (${selectOne} LIMIT ${COUNT_CAP + 1}) counted`;
const cappedCount = (n: number): Counted => (n > COUNT_CAP ? { total: COUNT_CAP, totalCapped: true } : { total: n, totalCapped: false });

/** What a page read by `countedPage` carries in each row. */
export interface CountedRow extends Record<string, unknown> {
  counted_up_to?: number;
}

/**
 * A page and its `countUpTo` count in one statement: one round trip less on the first page of a
 * walk (issue 18 §2). `read` gets a select-list item `counted_up_to` to add to the statement that
 * reads the page (an uncorrelated subquery on `selectOne`, which PostgreSQL runs once), or null
 * when the cursor carries the count; it may append its own values (a cursor's key) to `params`.
 * An empty page (past the last one) has no row to carry the count: it is counted apart.
 */
export async function countedPage<R extends CountedRow>(
  tx: Tx,
  selectOne: string,
  params: unknown[],
  page: PageRequest,
  read: (countColumn: string | null) => Promise<R[]>,
): Promise<{ rows: R[]; counted: Counted }> {
  // The count's statement takes the filter's values only, not what `read` appends.
  const countParams = [...params];
  const carried = page.cursor ? carriedCount(page.cursor) : null;
  const rows = await read(carried ? null : `(${cappedCountSql(selectOne)}) AS counted_up_to`);
  const n = rows[0]?.counted_up_to;
  const counted = carried ?? (typeof n === 'number' ? cappedCount(n) : await countUpTo(tx, selectOne, countParams, page));
  return { rows, counted };
}

/**
 * `LIMIT`/`OFFSET` of a page, asking one row more than the page holds so the answer knows whether
 * a next page exists. With a cursor the offset is 0 (the keyset condition does the skipping).
 */
export function limitOffset(page: PageRequest): string {
  const offset = page.cursor ? 0 : ((page.page ?? 1) - 1) * page.pageSize;
  return `LIMIT ${page.pageSize + 1} OFFSET ${offset}`;
}

/**
 * The page's rows (without the extra one) and the cursor of the next page, null on the last. With
 * `counted` (this list's `countUpTo` answer), the cursor carries it to the next pages: `total` on
 * a walk's later pages is the count of its first page.
 */
export function pageOf<R>(
  rows: readonly R[],
  page: PageRequest,
  keyOf: (row: R) => KeyValue[],
  counted?: Counted,
): { rows: R[]; nextCursor: string | null } {
  const more = rows.length > page.pageSize;
  const kept = more ? rows.slice(0, page.pageSize) : [...rows];
  return { rows: kept, nextCursor: more ? encodeCursor(keyOf(kept.at(-1)!), counted) : null };
}
