/**
 * Party names as banks write them vs. as our records hold them (issue #5 §4 "then by amount and
 * debtor name"): a bank statement says "MUSTER SOEHNE" where the company is "Muster & Söhne AG".
 * Pure functions, no I/O.
 */

/**
 * Legal-form words dropped before comparing (Swiss Code of Obligations forms in German, French and
 * Italian, and the common foreign ones), written as they are after normalisation (no dots, no accents).
 */
const LEGAL_FORMS = new Set([
  'ag', 'sa', 'gmbh', 'sarl', 'rl', 'sagl', 'sas', 'srl', 'spa', 'kg', 'ohg', 'gbr', 'ug', 'ek', 'eg', 'ev', 'se',
  'co', 'cie', 'und', 'et', 'e', 'y', 'ltd', 'limited', 'llc', 'llp', 'lp', 'inc', 'corp', 'corporation', 'plc', 'bv', 'nv',
  'ab', 'oy', 'as', 'aps', 'asa', 'genossenschaft', 'cooperative', 'scoop',
]);

/**
 * The words of a party name, compared loosely: case, accents and umlaut spellings ('ö', 'oe', 'o'),
 * punctuation ('S.A.' = 'SA'), '&' and legal forms ignored.
 */
export function nameTokens(name: string): string[] {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    // Umlauts written out ('Soehne') compare equal to their base letter, as the accents are dropped above.
    .replace(/ae/g, 'a')
    .replace(/oe/g, 'o')
    .replace(/ue/g, 'u')
    .replace(/\./g, '')
    .replace(/[^a-z0-9]+/g, ' ');
  return plain.split(' ').filter((word) => word && !LEGAL_FORMS.has(word));
}

/**
 * Whether a bank's party name designates the same party as one of our names: the same words, the
 * same letters run together ('MusterLieferant'), or every word of the shorter name in the longer
 * ('MUSTER' for 'Simon Muster AG') when that shorter name has a word of at least 3 letters.
 */
export function isSimilarName(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = nameTokens(a);
  const right = nameTokens(b);
  if (!left.length || !right.length) return false;
  if (left.join('') === right.join('')) return true;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  const words = new Set(longer);
  return shorter.some((word) => word.length >= 3) && shorter.every((word) => words.has(word));
}
