/** IBAN validation (spec §5 "IBAN check", ISO 13616) and the QR-IBAN rule (spec §5, SIX QR-IID). */
import { QR_IBAN_IID_MAX, QR_IBAN_IID_MIN } from '../constants.js';
import { mod97 } from './checksum.js';

/**
 * IBAN length per country code, from the SWIFT IBAN Registry (release 99, 2025). The spec (§5, §9)
 * bounds lengths to 15–31, so the two registry entries beyond it are deliberately left out:
 * Saint Lucia (LC, 32) and Russia (RU, 33). Territories that borrow a code (AX → FI, GF/GP/… → FR,
 * IM/JE/GG → GB) have no entry of their own because their IBANs start with that code.
 */
export const ibanLengths: Readonly<Record<string, number>> = Object.freeze({
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27,
  BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28,
  EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23,
  GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25,
  MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18,
  NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24,
  SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23,
  TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
});

const IBAN_PATTERN = /^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/;

/** Removes all whitespace and uppercases, the form in which IBANs are compared and stored (spec §5). */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/**
 * Spec §5 "IBAN check": spaces removed, pattern 2 letters + 2 digits + 1–30 alphanumerics, known
 * country with its exact length (`ibanLengths`), MOD 97-10 remainder 1 (ISO 13616). Lowercase is accepted.
 */
export function isValidIban(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const iban = normalizeIban(value);
  if (!IBAN_PATTERN.test(iban)) return false;
  if (ibanLengths[iban.slice(0, 2)] !== iban.length) return false;
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1;
}

/**
 * Builds an IBAN from a country code and a BBAN by computing the check digits (ISO 13616); used by
 * tests and fixtures. Throws RangeError when the result would not pass `isValidIban`.
 */
export function makeIban(countryCode: string, bban: string): string {
  const country = countryCode.toUpperCase();
  const body = normalizeIban(bban);
  const check = 98 - mod97(`${body}${country}00`);
  const iban = `${country}${String(check).padStart(2, '0')}${body}`;
  if (!isValidIban(iban)) throw new RangeError(`cannot build a valid IBAN from ${countryCode} ${bban}`);
  return iban;
}

/**
 * Institution id of a Swiss/Liechtenstein IBAN: characters 5–9 of the normalized IBAN (spec §5,
 * SIX QR-IID). Undefined when those characters are not 5 digits.
 */
export function qrIid(iban: string): number | undefined {
  const iid = normalizeIban(iban).slice(4, 9);
  return /^\d{5}$/.test(iid) ? Number(iid) : undefined;
}

/**
 * QR-IBAN: a valid CH or LI IBAN whose institution id lies in 30000–31999 (spec §5 and §9; SIX
 * reserves this QR-IID range for payments with a QR reference).
 */
export function isQrIban(value: unknown): boolean {
  if (typeof value !== 'string' || !isValidIban(value)) return false;
  const country = normalizeIban(value).slice(0, 2);
  if (country !== 'CH' && country !== 'LI') return false;
  const iid = qrIid(value);
  return iid !== undefined && iid >= QR_IBAN_IID_MIN && iid <= QR_IBAN_IID_MAX;
}

/** Display form in groups of 4 (ISO 13616 "paper format"), e.g. 'CH93 0076 2011 6238 5295 7'. */
export function formatIban(value: string): string {
  return normalizeIban(value).replace(/(.{4})(?=.)/g, '$1 ');
}
