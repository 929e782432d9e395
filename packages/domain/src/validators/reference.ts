/**
 * Payment references: the QR reference (SIX QR-bill IG v2.3 §4.3.3, spec §5 "Payment reference
 * number"), the creditor reference (ISO 11649) and the Swiss postal account number (spec §5).
 */
import { mod10RecursiveCheckDigit, mod97 } from './checksum.js';

const stripWhitespace = (value: string): string => value.replace(/\s+/g, '');

/** Check digit of a 26-digit QR reference body (SIX QR-bill IG v2.3 §4.3.3, recursive modulo 10). */
export function qrReferenceCheckDigit(digits26: string): number {
  if (!/^\d{26}$/.test(digits26)) throw new RangeError(`"${digits26}" must be 26 digits`);
  return mod10RecursiveCheckDigit(digits26);
}

/**
 * QR reference: 27 digits, last one the recursive mod-10 check digit, spaces ignored (spec §5,
 * SIX IG v2.3 §4.3.3). All zeros is refused: its check digit is right, but SIX forbids it.
 */
export function isValidQrReference(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const reference = stripWhitespace(value);
  if (!/^\d{27}$/.test(reference) || /^0+$/.test(reference)) return false;
  return qrReferenceCheckDigit(reference.slice(0, 26)) === Number(reference[26]);
}

/**
 * QR reference from a numeric base (e.g. customer and invoice number): left-padded with zeros to 26
 * digits plus the check digit (SIX IG v2.3 §4.3.3). Throws RangeError for a base that is not 1–26
 * digits or is all zeros.
 */
export function makeQrReference(base: string): string {
  const digits = stripWhitespace(base);
  if (!/^\d{1,26}$/.test(digits) || /^0+$/.test(digits)) {
    throw new RangeError(`QR reference base "${base}" must be 1 to 26 digits, not all zeros`);
  }
  const body = digits.padStart(26, '0');
  return `${body}${qrReferenceCheckDigit(body)}`;
}

/** Display form 2 + 5×5 digits (SIX IG v2.3 §3.5.4), e.g. '21 00000 00003 13947 14300 09017'. */
export function formatQrReference(value: string): string {
  const reference = stripWhitespace(value);
  if (!/^\d{27}$/.test(reference)) return value;
  return `${reference.slice(0, 2)} ${reference.slice(2).replace(/(\d{5})(?=\d)/g, '$1 ')}`;
}

const CREDITOR_REFERENCE_PATTERN = /^RF\d{2}[A-Z0-9]{1,21}$/;
const normalizeCreditorReference = (value: string): string => stripWhitespace(value).toUpperCase();

/**
 * Creditor reference (ISO 11649): 'RF', 2 check digits, 1–21 alphanumerics, MOD 97-10 remainder 1
 * over the reference with its first 4 characters moved to the end. Spaces and lowercase are accepted.
 */
export function isValidCreditorReference(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const reference = normalizeCreditorReference(value);
  if (!CREDITOR_REFERENCE_PATTERN.test(reference)) return false;
  return mod97(reference.slice(4) + reference.slice(0, 4)) === 1;
}

/**
 * Creditor reference from a base of 1–21 alphanumerics (ISO 11649: check = 98 − (base + 'RF00')
 * mod 97). Throws RangeError for any other base.
 */
export function makeCreditorReference(base: string): string {
  const body = normalizeCreditorReference(base);
  if (!/^[A-Z0-9]{1,21}$/.test(body)) {
    throw new RangeError(`creditor reference base "${base}" must be 1 to 21 letters or digits`);
  }
  const check = 98 - mod97(`${body}RF00`);
  return `RF${String(check).padStart(2, '0')}${body}`;
}

/** Display form in groups of 4 (ISO 11649 print format), e.g. 'RF18 5390 0754 7034'. */
export function formatCreditorReference(value: string): string {
  return normalizeCreditorReference(value).replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Swiss postal account number (spec §5): '0', then 1 or 2, then 6 digits, then the recursive mod-10
 * check digit over the first 8 digits. Accepted forms: 9 digits ('010001628') or dashed with the
 * middle part zero-padded to 6 digits ('01-000162-8'); the short printed form '01-162-8' is not.
 */
export function isValidPostalAccountNumber(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = /^(0[12])(?:(\d{6})(\d)|-(\d{6})-(\d))$/.exec(value);
  if (!match) return false;
  const [, prefix = '', plainMiddle, plainCheck, dashedMiddle, dashedCheck] = match;
  const middle = plainMiddle ?? dashedMiddle ?? '';
  const check = plainCheck ?? dashedCheck ?? '';
  return mod10RecursiveCheckDigit(prefix + middle) === Number(check);
}
