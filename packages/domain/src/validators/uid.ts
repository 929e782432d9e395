/** Swiss enterprise identification number, UID (eCH-0097 v2 §6.1; the VAT number is the UID plus a suffix). */

// 'CHE-123.456.789' or the register's compact 'CHE123456789' (Zefix answers in that form), optionally
// followed by the VAT register suffix in one of the national languages.
const UID_PATTERN = /^CHE(?:-(\d{3})\.(\d{3})\.(\d{3})|(\d{9}))(?: (MWST|TVA|IVA))?$/;
const UID_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4] as const;

function parseUid(value: string): { digits: string; suffix: string | undefined } | undefined {
  const match = UID_PATTERN.exec(value);
  if (!match) return undefined;
  const [, a, b, c, compact, suffix] = match;
  return { digits: compact ?? `${a}${b}${c}`, suffix };
}

/**
 * eCH-0097 check digit of the first 8 UID digits: 11 − (weighted sum mod 11) with weights
 * 5,4,3,2,7,6,5,4; 11 becomes 0 and 10 means no valid UID exists (undefined).
 */
export function swissUidCheckDigit(digits8: string): number | undefined {
  if (!/^\d{8}$/.test(digits8)) throw new RangeError(`"${digits8}" must be 8 digits`);
  const sum = UID_WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits8[index]), 0);
  const check = 11 - (sum % 11);
  if (check === 10) return undefined;
  return check === 11 ? 0 : check;
}

/**
 * Swiss UID / VAT number (eCH-0097): 'CHE-123.456.789' or 'CHE123456789', optionally followed by
 * ' MWST', ' TVA' or ' IVA', with a valid check digit.
 */
export function isValidSwissUid(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const uid = parseUid(value);
  if (!uid) return false;
  return swissUidCheckDigit(uid.digits.slice(0, 8)) === Number(uid.digits[8]);
}

/** Official display form 'CHE-123.456.789' (eCH-0097), suffix kept; other text is returned unchanged. */
export function formatSwissUid(value: string): string {
  const uid = parseUid(value);
  if (!uid) return value;
  const { digits, suffix } = uid;
  const formatted = `CHE-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6)}`;
  return suffix ? `${formatted} ${suffix}` : formatted;
}

/**
 * The bare UID 'CHE-123.456.789' of a valid UID or VAT number in any accepted form (suffix dropped),
 * or undefined: Swico S1 /30/ carries the UID without prefix, separators or suffix.
 */
export function swissUid(value: string | null | undefined): string | undefined {
  const uid = value ? parseUid(value.trim()) : undefined;
  if (!uid || !isValidSwissUid(value!.trim())) return undefined;
  return formatSwissUid(`CHE${uid.digits}`);
}
