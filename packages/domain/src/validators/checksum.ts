/**
 * Check-digit arithmetic shared by the IBAN, creditor reference, QR reference and postal account
 * validators. Digits are folded one at a time so no number ever exceeds 2 digits times 97: an IBAN
 * read as one integer would be far beyond Number.MAX_SAFE_INTEGER.
 */

/**
 * ISO 7064 MOD 97-10 remainder of an alphanumeric string, letters counting A = 10 … Z = 35
 * (ISO 13616 for IBAN, ISO 11649 for creditor references). NaN when a character is not 0-9/A-Z.
 */
export function mod97(value: string): number {
  let remainder = 0;
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else if (code >= 65 && code <= 90) {
      remainder = (remainder * 100 + (code - 55)) % 97;
    } else {
      return Number.NaN;
    }
  }
  return remainder;
}

// SIX QR-bill IG v2.3 §4.3.3 / PostFinance ISR manual: the "modulo 10, recursive" carry table.
const MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5] as const;

/**
 * Check digit by the recursive modulo 10 method (SIX QR-bill IG v2.3 §4.3.3, also used for Swiss
 * postal account numbers). Throws RangeError unless `digits` is only 0-9.
 */
export function mod10RecursiveCheckDigit(digits: string): number {
  if (!/^\d*$/.test(digits)) throw new RangeError(`"${digits}" must contain digits only`);
  let carry = 0;
  for (const char of digits) carry = MOD10_TABLE[(carry + Number(char)) % 10] ?? 0;
  return (10 - carry) % 10;
}
