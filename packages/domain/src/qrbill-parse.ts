/**
 * Reads the payload of a Swiss QR code (SIX Implementation Guidelines QR-bill v2.3 §4, table of
 * data elements): the text a QR decoder returns from the payment part of a QR-bill.
 */
import { isAmountString } from './money.js';
import { isValidIban, normalizeIban } from './validators/iban.js';

/** An address as it appears in the payload: type S (structured) or K (combined, lines 1/2). */
export interface ParsedQrAddress {
  type: 'S' | 'K';
  name: string;
  /** S: street; K: address line 1. */
  street: string;
  /** S: building number; K: empty. */
  buildingNumber: string;
  /** S: postal code; K: empty (it is inside line 2). */
  zip: string;
  /** S: town; K: address line 2 (postal code and town). */
  city: string;
  country: string;
}

export interface ParsedQrBill {
  /** IBAN or QR-IBAN of the creditor, without spaces. */
  iban: string;
  creditor: ParsedQrAddress;
  /** Decimal string with 2 decimals, or undefined when the bill leaves the amount open. */
  amount?: string | undefined;
  currency: 'CHF' | 'EUR';
  debtor?: ParsedQrAddress | undefined;
  referenceType: 'QRR' | 'SCOR' | 'NON';
  /** QR reference (27 digits) or creditor reference (RF…), without spaces; empty with NON. */
  reference: string;
  message: string;
  billInformation: string;
  alternativeSchemes: string[];
}

export type QrBillParseResult = { ok: true; bill: ParsedQrBill } | { ok: false; error: string };

function address(lines: string[], at: number): ParsedQrAddress | undefined | 'bad' {
  const [type, name, l1, l2, zip, city, country] = lines.slice(at, at + 7).map((s) => s.trim());
  if (!type && !name) return undefined;
  if (type !== 'S' && type !== 'K') return 'bad';
  if (!name || !country || !/^[A-Z]{2}$/.test(country)) return 'bad';
  if (type === 'S') return { type, name, street: l1 ?? '', buildingNumber: l2 ?? '', zip: zip ?? '', city: city ?? '', country };
  return { type, name, street: l1 ?? '', buildingNumber: '', zip: '', city: l2 ?? '', country };
}

/**
 * Parses an SPC payload (IG v2.3 §4.2): header SPC / version 02xx / coding 1, creditor account
 * (CH/LI IBAN), creditor (7 lines, S or K), 7 empty ultimate-creditor lines, amount, currency
 * CHF/EUR, debtor (7 lines, may be empty), reference type QRR/SCOR/NON and reference, unstructured
 * message, trailer EPD, then optional bill information and up to two alternative schemes. Lines
 * are separated by CR LF or LF. Returns `{ ok: false, error }` naming the first wrong element.
 * Reference check digits are not verified here: validateQrBill does that on the proposed bill.
 */
export function parseQrBillPayload(payload: string): QrBillParseResult {
  const lines = payload.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const fail = (error: string): QrBillParseResult => ({ ok: false, error });
  if (lines[0]?.trim() !== 'SPC') return fail('not a Swiss QR-bill (QRType must be SPC)');
  if (!/^02\d\d$/.test(lines[1]?.trim() ?? '')) return fail('unsupported version (expected 0200)');
  if (lines[2]?.trim() !== '1') return fail('unsupported coding type (expected 1)');
  if (lines.length < 31) return fail('the payload is incomplete');
  const iban = normalizeIban(lines[3] ?? '');
  if (!isValidIban(iban) || !/^(CH|LI)/.test(iban)) return fail('IBAN: not a valid CH or LI IBAN');
  const creditor = address(lines, 4);
  if (!creditor || creditor === 'bad') return fail('creditor: invalid address');
  const amountText = (lines[18] ?? '').trim();
  let amount: string | undefined;
  if (amountText !== '') {
    if (!isAmountString(amountText, 2)) return fail('amount: not a decimal amount');
    amount = amountText.includes('.') ? amountText.padEnd(amountText.indexOf('.') + 3, '0') : `${amountText}.00`;
  }
  const currency = (lines[19] ?? '').trim();
  if (currency !== 'CHF' && currency !== 'EUR') return fail('currency: must be CHF or EUR');
  const debtor = address(lines, 20);
  if (debtor === 'bad') return fail('debtor: invalid address');
  const referenceType = (lines[27] ?? '').trim();
  if (referenceType !== 'QRR' && referenceType !== 'SCOR' && referenceType !== 'NON') {
    return fail('reference type: must be QRR, SCOR or NON');
  }
  const reference = (lines[28] ?? '').replace(/\s+/g, '');
  if (referenceType === 'NON' && reference !== '') return fail('reference: must be empty with NON');
  if (referenceType !== 'NON' && reference === '') return fail('reference: missing');
  if ((lines[30] ?? '').trim() !== 'EPD') return fail('trailer: must be EPD');
  return {
    ok: true,
    bill: {
      iban,
      creditor,
      amount,
      currency,
      debtor,
      referenceType,
      reference,
      message: (lines[29] ?? '').trim(),
      billInformation: (lines[31] ?? '').trim(),
      alternativeSchemes: lines.slice(32, 34).map((s) => s.trim()).filter((s) => s !== ''),
    },
  };
}
