/**
 * The keys the search of documents and entries reads (decision 033, migration 0044), shared by the
 * modules that search their own tables. All of them are compared with leakproof operators only
 * (int8eq, text_ge and text_lt under COLLATE "C", uuid_eq, int4eq): under row-level security
 * PostgreSQL uses a clause as an index condition only then, and otherwise scans the table.
 */
import { toFixedAmount } from '@bilan/domain';
import type { Tx } from './database.js';
import { containsPattern } from './like.js';

/**
 * Prices random reads for the rest of the transaction as they cost on an SSD or from memory
 * (random_page_cost 1.1, the usual server setting, instead of PostgreSQL's default 4 for spinning
 * disks). With the default, a word matching a few hundred documents looks cheaper to join by a
 * sequential scan of the documents than by as many primary-key probes, and the scan is what then
 * costs the milliseconds (bench/search). Call it first in a transaction that searches.
 */
export async function priceReadsForSearch(tx: Tx): Promise<void> {
  await tx.query("SELECT set_config('random_page_cost', '1.1', true)");
}

/**
 * Typed words matched at most. Each is one more semi-join, and the planner orders up to 8 of them
 * exhaustively (join_collapse_limit); a 9th word would narrow a hit list that 8 words rarely leave long.
 */
const MAX_WORDS = 8;

/** Words already asked of the database in a transaction: the modules searched in one share them. */
const wordsOfTx = new WeakMap<Tx, Map<string, Promise<string[]>>>();

/**
 * The words of a typed text as the words tables hold them: lower-cased, split on anything but
 * letters and digits, 2 or more characters (1-character words are dropped), each once; the longest
 * first, at most 8. Empty when none remains, and then there is no text to search. Asked of the
 * database (SQL `search_words`), which splits the documents too, so both sides agree whatever
 * its locale; once per transaction and text. Rejects only when the database does.
 */
export function searchWords(tx: Tx, text: string): Promise<string[]> {
  let known = wordsOfTx.get(tx);
  if (!known) wordsOfTx.set(tx, (known = new Map()));
  let words = known.get(text);
  if (!words) {
    words = tx
      .query<{ words: string[] }>('SELECT search_words($1::text) AS words', [text])
      .then(([row]) => [...(row?.words ?? [])].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_WORDS));
    known.set(text, words);
  }
  return words;
}

/**
 * `[from, to)`: the strings starting with `prefix` in code-point order (COLLATE "C"), `to` being
 * `prefix` with its last character incremented. Throws on an empty `prefix`.
 */
export function prefixRange(prefix: string): [string, string] {
  const chars = Array.from(prefix);
  const last = chars.pop();
  if (last === undefined) throw new Error('prefixRange of an empty prefix');
  const code = last.codePointAt(0)! + 1;
  // Past the last code point, "starts with prefix" is "starts with the rest, then the last code point".
  if (code > 0x10ffff) return [prefix, prefixRange(chars.join(''))[1]];
  // No string holds a lone surrogate: after U+D7FF comes U+E000.
  return [prefix, chars.join('') + String.fromCodePoint(code === 0xd800 ? 0xe000 : code)];
}

/**
 * The SQL condition "every word of `words` starts one of the document's indexed words" (a word's
 * suffixes are indexed too, so: is found inside one of its words), one EXISTS per word over
 * `table` (a words table of migration 0044) whose `key` column equals the SQL expression `doc`.
 * `$1` must be the instance id; the ranges are appended to `params`. Throws on empty `words`.
 */
export function allWordsMatch(words: readonly string[], source: { table: string; key: string; doc: string }, params: unknown[]): string {
  if (words.length === 0) throw new Error('allWordsMatch without words');
  return words
    .map((word) => {
      const [from, to] = prefixRange(word);
      params.push(from, to);
      const n = params.length;
      return `EXISTS (SELECT 1 FROM ${source.table} w WHERE w.instance_id = $1 AND w.${source.key} = ${source.doc} AND w.word >= $${n - 1}::text AND w.word < $${n}::text)`;
    })
    .join(' AND ');
}

/**
 * An amount (a decimal string, e.g. "1234.5") as the integer cents of the generated `amount_cents`
 * columns, as a string for a `::bigint` parameter; null when it is not a number or has more than
 * 15 integer digits (the search reads no more; the columns are NULL from 10^16 on). Never throws.
 */
export function amountCents(amount: string): string | null {
  let fixed: string;
  try {
    fixed = toFixedAmount(amount);
  } catch {
    return null;
  }
  return /^-?\d{1,15}\.\d{2}$/.test(fixed) ? fixed.replace('.', '') : null;
}

/**
 * The SQL sets ("SELECT id …") of the documents having each of `words`, one set a word, for a
 * list's text filter: the list keeps a document whose id is in every set (`id IN (set) AND …`, a
 * semi-join the planner may start from the words index), so a word found in any of the document's
 * fields counts. A set holds the documents with the word inside a word of the description (a range
 * of `source.table`, migration 0044), and with `alsoMatching` also those its SQL selects for the
 * word's LIKE pattern (`%word%`, a parameter it is given): a name in another module's view, which
 * has no words table. `$1` must be the instance id; the ranges and patterns are appended to
 * `params`. Throws on empty `words`.
 */
export function wordSets(
  words: readonly string[],
  source: { table: string; key: string },
  params: unknown[],
  alsoMatching?: (pattern: string) => string,
): string[] {
  if (words.length === 0) throw new Error('wordSets without words');
  return words.map((word) => {
    const [from, to] = prefixRange(word);
    params.push(from, to);
    const n = params.length;
    const described = `SELECT w.${source.key} FROM ${source.table} w WHERE w.instance_id = $1 AND w.word >= $${n - 1}::text AND w.word < $${n}::text`;
    if (!alsoMatching) return described;
    params.push(containsPattern(word));
    return `${described} UNION ALL ${alsoMatching(`$${params.length}`)}`;
  });
}

/**
 * A list's text condition on `alias.id` (decision 033, addendum): the document is in every set of
 * `sets` (`wordSets`), or it is one of `keys` (SQL sets of ids: a number, a reference, an import
 * key). With keys, the word sets are intersected in one branch of a union (each a semi-join on
 * `table`), so either way the planner reads index ranges. Null when there is neither (the text
 * filters nothing). `$1` must be the instance id.
 */
export function textCondition(alias: string, table: string, sets: readonly string[], keys: readonly string[]): string | null {
  if (keys.length === 0) return sets.length === 0 ? null : sets.map((set) => `${alias}.id IN (${set})`).join(' AND ');
  const either = [...keys];
  if (sets.length === 1) either.push(sets[0]!);
  else if (sets.length > 1) either.push(`SELECT t.id FROM ${table} t WHERE t.instance_id = $1 AND ${sets.map((set) => `t.id IN (${set})`).join(' AND ')}`);
  return `${alias}.id IN (${either.join(' UNION ALL ')})`;
}

/**
 * A payment or reference number as the documents store it (QR reference, creditor reference RF…,
 * a supplier's reference): the text without spaces, upper-cased, when it is 2 to 35 letters and
 * digits with at least one digit (every reference has some; a plain word is none); otherwise null.
 * Compared for equality only (an index probe that row-level security allows): a list's text finds
 * a reference typed whole, with or without its spaces.
 */
export function referenceKey(text: string): string | null {
  const compact = text.replace(/\s/g, '').toUpperCase();
  return /^[A-Z0-9]{2,35}$/.test(compact) && /\d/.test(compact) ? compact : null;
}
