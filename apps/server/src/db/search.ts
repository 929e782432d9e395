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
 * of `source.table`, migration 0044), and, where `also.found` says so for the word, also those
 * `also.matching` selects for the word's LIKE pattern (`%word%`, a parameter it is given): a name
 * in another module's view, which has no words table (`textFilter`). `$1` must be the
 * instance id; the ranges and patterns are appended to `params`. Throws on empty `words`.
 */
export function wordSets(
  words: readonly string[],
  source: { table: string; key: string },
  params: unknown[],
  also?: { matching: (pattern: string) => string; found: readonly boolean[] },
): string[] {
  if (words.length === 0) throw new Error('wordSets without words');
  return words.map((word, index) => {
    const [from, to] = prefixRange(word);
    params.push(from, to);
    const n = params.length;
    const described = `SELECT w.${source.key} FROM ${source.table} w WHERE w.instance_id = $1 AND w.word >= $${n - 1}::text AND w.word < $${n}::text`;
    if (!also?.found[index]) return described;
    params.push(containsPattern(word));
    return `${described} UNION ALL ${also.matching(`$${params.length}`)}`;
  });
}

/**
 * A list's text condition on `alias.id` (decision 033, addendum): the document is in every set of
 * `sets` (`wordSets`), or it is one of `keys` (SQL sets of ids: a number, a reference, an import
 * key). With keys, the word sets are intersected in one branch of a union, so either way the
 * planner reads index ranges. Null when there is neither (the text filters nothing).
 */
function textCondition(alias: string, sets: readonly string[], keys: readonly string[]): string | null {
  if (keys.length === 0) return sets.length === 0 ? null : sets.map((set) => `${alias}.id IN (${set})`).join(' AND ');
  const either = [...keys];
  if (sets.length === 1) either.push(sets[0]!);
  // The sets intersected among themselves: driven by the documents' table instead, the planner read
  // every row of it (a parallel scan of 500,000 entries, 175 ms a page, for "Strom Mai").
  else if (sets.length > 1) either.push(sets.map((set) => `(${set})`).join(' INTERSECT '));
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

/**
 * An exact key a list's text may be (a number, a reference): its value and the SQL set of the ids
 * it names, given the value's placeholder. `always`: in the condition without asking first.
 */
export interface TextKey {
  value: unknown;
  ids: (placeholder: string) => string;
  always?: boolean;
}

/**
 * The SQL condition on `alias.id` of a list's free text (decision 033, addendum; `wordSets`,
 * `textCondition`): every word of `text` in the document's words (`source.words`) or, with
 * `source.names`, in its name (SQL of the document ids whose name is LIKE a pattern placeholder),
 * or the text is one of `keys`. Null when there is nothing to match. `params[0]` must be the
 * instance id; the values are appended to `params`.
 *
 * One statement first asks which words `names` finds any document for and which keys name a
 * document of `source.table`, and the condition carries only those: a set that is a UNION has no
 * statistics, so the planner guessed 200 documents whatever the words and took the wrong plan for a
 * common one (bench:lists, invoices of a year with a word of 3,000: 15 ms a page with the unions,
 * 6.1 ms without; the bench's first page at 10 connections, p50 101–118 → 67 ms). A typed word is
 * rarely a name too, and a text rarely a key. Without the unions the planner may walk the
 * list's order and probe the words of each document, which is right where the matches are spread
 * over that order and wrong where they bunch: a list that can be that long keeps a key `always`.
 */
export async function textFilter(
  tx: Tx,
  alias: string,
  text: string,
  source: { table: string; words: { table: string; key: string }; names?: (pattern: string) => string },
  keys: readonly TextKey[],
  params: unknown[],
): Promise<string | null> {
  const words = await searchWords(tx, text);
  const { names } = source;
  const askedKeys = keys.filter((key) => !key.always);
  const asked = [
    ...(names ? words.map((word) => ({ value: containsPattern(word) as unknown, exists: names })) : []),
    ...askedKeys.map((key) => ({
      value: key.value,
      exists: (p: string) => `SELECT 1 FROM ${source.table} k WHERE k.instance_id = $1 AND k.id IN (${key.ids(p)})`,
    })),
  ];
  let found: readonly boolean[] = [];
  if (asked.length > 0) {
    // Without unions, the rest of the transaction plans each statement for its values: a word may
    // match 3 documents or 3,000, and the generic plan of a named prepared statement, made without
    // knowing which, read every invoice of a year for a word of 3,000 (11.6 ms a page against 6.1).
    // With a union the guess is the same either way, and planning each time costs 2–4 ms.
    const [row] = await tx.query<{ found: boolean[] }>(
      `SELECT found, set_config('plan_cache_mode', CASE WHEN ${keys.some((key) => key.always) ? 'true' : 'true = ANY(found)'}
                                                        THEN current_setting('plan_cache_mode') ELSE 'force_custom_plan' END, true)
         FROM (SELECT ARRAY[${asked.map((ask, index) => `EXISTS (${ask.exists(`$${index + 2}`)})`).join(', ')}]::boolean[] AS found) probe`,
      [params[0], ...asked.map((ask) => ask.value)],
    );
    found = row?.found ?? [];
  }
  const sets = words.length === 0 ? [] : wordSets(words, source.words, params, names ? { matching: names, found: found.slice(0, words.length) } : undefined);
  const foundKeys = new Set(askedKeys.filter((_, index) => found[asked.length - askedKeys.length + index]));
  const keySets = keys
    .filter((key) => key.always || foundKeys.has(key))
    .map((key) => {
      params.push(key.value);
      return key.ids(`$${params.length}`);
    });
  return textCondition(alias, sets, keySets);
}
