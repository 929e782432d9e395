/**
 * Reference numbers (spec §5, §9) in a module of their own: the web's first page (the command
 * palette's 'INV 12') needs this and nothing else of the formatting code, whose amount formatting
 * brings decimal.js (issue 18 §1: a module goes whole into one chunk).
 */
import { REFERENCE_MIN_LENGTH, REFERENCE_PREFIX } from './constants.js';

/**
 * Reference number for display (spec §5, §9): 'BILAN' + the id zero-padded to at least 6 characters,
 * e.g. 42 → 'BILAN000042'. Throws RangeError for anything but a non-negative integer.
 */
export function formatReferenceNumber(id: number | string): string {
  const digits = typeof id === 'number' ? (Number.isSafeInteger(id) && id >= 0 ? String(id) : '') : id;
  if (!/^\d+$/.test(digits)) throw new RangeError(`reference id ${String(id)} must be a non-negative integer`);
  return `${REFERENCE_PREFIX}${digits.padStart(REFERENCE_MIN_LENGTH, '0')}`;
}
