/**
 * Reads a failed import's answer (docs/api.md "Imports"): `fields.account` lists every unknown
 * account number as 'could not map account N' joined by ', ' (spec §8) — in the UI's language, as
 * the server translates it ('Konto N konnte nicht zugeordnet werden'), so the list is read by its
 * separator, not by the English words; `fields["line N.column"]` holds one row error each. Pure,
 * so it is unit-tested without a browser.
 */

export interface ImportProblems {
  /** One 'could not map account N' per unknown number, in the server's order. */
  unmapped: string[];
  /** Row errors in line order. */
  rows: { line: number; column: string; message: string }[];
}

const ROW_KEY = /^line (\d+)\.(.+)$/;

/** Splits the server's `fields` into unknown accounts and row errors; null when it has neither. */
export function importProblems(fields: Record<string, string>): ImportProblems | null {
  // Only the unknown accounts' list sits on the bare key `account` (row errors are 'line N.column').
  const unmapped = (fields.account ?? '')
    .split(', ')
    .map((part) => part.trim())
    .filter((part) => /\d/.test(part));
  const rows = Object.entries(fields)
    .flatMap(([key, message]) => {
      const match = ROW_KEY.exec(key);
      return match ? [{ line: Number(match[1]), column: match[2]!, message }] : [];
    })
    .sort((a, b) => a.line - b.line);
  return unmapped.length || rows.length ? { unmapped, rows } : null;
}
