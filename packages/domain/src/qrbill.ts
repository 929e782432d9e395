/**
 * QR-bill data checks that `swissqrbill` leaves out (SIX Implementation Guidelines QR-bill v2.3,
 * SPS 2025). Run before rendering; an invoice whose data fails here gets no payment part.
 */
import { isAmountString, toMoney } from './money.js';
import { isQrIban, isValidIban, normalizeIban } from './validators/iban.js';
import { isValidCreditorReference, isValidQrReference } from './validators/reference.js';

/** Structured address (address type S, IG v2.3 §4.3.2; type K is refused by banks since Nov 2025). */
export interface QrBillAddress {
  name: string;
  street?: string | undefined;
  buildingNumber?: string | undefined;
  zip: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface QrBillData {
  /** IBAN or QR-IBAN of the creditor, CH or LI. */
  account: string;
  creditor: QrBillAddress;
  debtor?: QrBillAddress | undefined;
  /** Decimal string, 0.01–999999999.99, or undefined for a bill without amount. */
  amount?: string | undefined;
  currency: 'CHF' | 'EUR';
  /** QR reference (27 digits) with a QR-IBAN, creditor reference (RF…) or none with an IBAN. */
  reference?: string | undefined;
  message?: string | undefined;
  /**
   * Structured billing information (IG v2.3 §4.3.3 StrdBkgInf), e.g. Swico S1 (swico.ts): begins
   * with "//"; together with `message` at most 140 characters.
   */
  billInformation?: string | undefined;
}

/**
 * Allowed characters (IG v2.3 §4.1.1, SPS 2025): Basic Latin U+0020–U+007E, Latin-1 Supplement
 * U+00A0–U+00FF, Latin Extended-A U+0100–U+017F, Ș ș Ț ț (U+0218–U+021B) and € (U+20AC).
 */
export function isQrBillText(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    const ok =
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0x17f) ||
      (code >= 0x218 && code <= 0x21b) ||
      code === 0x20ac;
    if (!ok) return false;
  }
  return true;
}

const AMOUNT_MIN = toMoney('0.01');
const AMOUNT_MAX = toMoney('999999999.99');

function checkAddress(prefix: string, address: QrBillAddress, fail: (field: string, message: string) => void) {
  const text = (field: string, value: string | undefined, max: number, required: boolean) => {
    if (value === undefined || value.trim() === '') {
      if (required) fail(`${prefix}.${field}`, 'This field must be given');
      return;
    }
    if (value.length > max) fail(`${prefix}.${field}`, `at most ${max} characters`);
    else if (!isQrBillText(value)) fail(`${prefix}.${field}`, 'contains a character the QR-bill does not allow');
  };
  // Field lengths: IG v2.3 §4.3.2 (name 70, street 70, building number 16, postcode 16, town 35).
  text('name', address.name, 70, true);
  text('street', address.street, 70, false);
  text('buildingNumber', address.buildingNumber, 16, false);
  text('zip', address.zip, 16, true);
  text('city', address.city, 35, true);
  if (!/^[A-Z]{2}$/.test(address.country)) fail(`${prefix}.country`, 'country must be a two-letter ISO code');
}

/**
 * Validates QR-bill data; returns `{}` when valid, else a map field → message. Rules: IBAN (CH/LI);
 * QR-IBAN requires a QR reference (27 digits, recursive mod 10, not all zeros); IBAN allows a
 * creditor reference (ISO 11649 mod 97-10) or none; amount 0.01–999,999,999.99 or empty; currency
 * CHF/EUR; structured addresses; character set of §4.1.1; message ≤ 140 characters, and with the
 * billing information (which begins with "//") ≤ 140 characters together (§4.3.3).
 */
export function validateQrBill(data: QrBillData): Record<string, string> {
  const fields: Record<string, string> = {};
  const fail = (field: string, message: string) => {
    fields[field] ??= message;
  };
  const account = normalizeIban(data.account);
  if (!isValidIban(account) || !/^(CH|LI)/.test(account)) fail('account', 'The IBAN is wrongly formatted');
  checkAddress('creditor', data.creditor, fail);
  if (data.debtor) checkAddress('debtor', data.debtor, fail);
  if (data.amount !== undefined && data.amount !== '') {
    if (!isAmountString(data.amount, 2)) fail('amount', 'amount must have at most 2 decimals');
    else {
      const amount = toMoney(data.amount);
      if (amount.lt(AMOUNT_MIN) || amount.gt(AMOUNT_MAX)) fail('amount', 'amount must be between 0.01 and 999999999.99');
    }
  }
  if (data.currency !== 'CHF' && data.currency !== 'EUR') fail('currency', 'currency must be CHF or EUR');
  const reference = data.reference?.replace(/\s+/g, '') ?? '';
  if (isQrIban(account)) {
    if (!isValidQrReference(reference)) fail('reference', 'a QR-IBAN needs a valid QR reference');
  } else if (reference !== '') {
    if (/^\d+$/.test(reference)) fail('reference', 'a QR reference needs a QR-IBAN');
    else if (!isValidCreditorReference(reference)) fail('reference', 'invalid creditor reference (ISO 11649)');
  }
  if (data.message !== undefined) {
    if (data.message.length > 140) fail('message', 'at most 140 characters');
    else if (!isQrBillText(data.message)) fail('message', 'contains a character the QR-bill does not allow');
  }
  if (data.billInformation !== undefined) {
    if (!data.billInformation.startsWith('//')) fail('billInformation', 'billing information begins with "//" and its syntax prefix');
    else if (data.billInformation.length + (data.message?.length ?? 0) > 140) fail('billInformation', 'message and billing information together at most 140 characters');
    else if (!isQrBillText(data.billInformation)) fail('billInformation', 'contains a character the QR-bill does not allow');
  }
  return fields;
}
