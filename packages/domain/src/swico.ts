/**
 * Swico S1 "Billing information" of a QR-bill (SIX IG QR-bill v2.3 Annex D, Swico syntax
 * definition v1.2): `//S1/10/<invoice no>/11/<YYMMDD>/20/<customer ref>/30/<UID digits>/31/<VAT
 * date(s)>/32/<VAT>/33/<import VAT>/40/<conditions>`. Bilan writes it on its invoices and reads it
 * from the QR-bills of suppliers, so a bill is proposed with its date, due date and VAT.
 */
import { vatPercentToRate } from './format.js';
import { addDays, vatIncluded } from './invoice.js';
import { toFixedAmount, toMoney } from './money.js';
import { isCalendarDate } from './validators/date.js';
import { swissUid } from './validators/uid.js';

export interface SwicoVatRate {
  /** Percent as written, e.g. '8.1' (not a fraction). */
  rate: string;
  /** Net amount the rate applies to; absent: the rate applies to the whole amount. */
  net?: string | undefined;
}

export interface SwicoCondition {
  /** Discount in percent ('0' marks the net payment term). */
  discount: string;
  days: number;
}

export interface SwicoS1 {
  /** /10/ the invoice number. */
  invoiceNumber?: string | undefined;
  /** /11/ the invoice date, YYYY-MM-DD: the reference date of the conditions. */
  invoiceDate?: string | undefined;
  /** /20/ the customer's reference. */
  customerReference?: string | undefined;
  /** /30/ the creditor's UID, formatted CHE-123.456.789. */
  uid?: string | undefined;
  /** /31/ the service date, or its start and end. */
  vatDates?: { start: string; end: string } | undefined;
  /** /32/ one rate on the whole amount, or rates with their net amounts. */
  vat?: SwicoVatRate[] | undefined;
  /** /33/ import VAT: rate and the VAT amount itself. */
  importVat?: { rate: string; vat: string }[] | undefined;
  /** /40/ discounts and the net term. */
  conditions?: SwicoCondition[] | undefined;
}

// Bounded so every value converts with toMoney (at most 18 digits); a longer one is not a Swico number.
const NUMBER = /^\d{1,12}(\.\d{1,6})?$/;

/** YYMMDD → YYYY-MM-DD in 2000–2099 (Swico dates have two-digit years), or undefined if not a date. */
function fromYymmdd(value: string): string | undefined {
  const iso = /^\d{6}$/.test(value) ? `20${value.slice(0, 2)}-${value.slice(2, 4)}-${value.slice(4, 6)}` : '';
  return isCalendarDate(iso) ? iso : undefined;
}

const toYymmdd = (iso: string) => iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/\//g, '\\/');

/** Splits on unescaped "/" and unescapes "\/" and "\\" (Swico rules, IG Table 29). */
function splitEscaped(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length) {
      current += text[++i];
    } else if (char === '/') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** "a:b;c:d" → pairs of numbers, or undefined when any element is not one. */
function pairs(value: string, single: boolean): [string, string | undefined][] | undefined {
  const out: [string, string | undefined][] = [];
  for (const element of value.split(';').filter(Boolean)) {
    const [a, b, ...rest] = element.split(':');
    if (rest.length || !a || !NUMBER.test(a) || (b !== undefined && !NUMBER.test(b)) || (b === undefined && !single)) return undefined;
    out.push([a, b]);
  }
  return out.length ? out : undefined;
}

/**
 * Reads Swico S1 billing information; null when the text is not S1 (another syntax or none). A tag
 * whose value does not follow the syntax is left out rather than failing the whole bill: the payer
 * then enters it by hand, as without S1.
 */
export function parseSwicoS1(text: string): SwicoS1 | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('//S1/')) return null;
  const parts = splitEscaped(trimmed.slice('//S1/'.length));
  const s1: SwicoS1 = {};
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const tag = parts[i]!;
    const value = parts[i + 1]!.trim();
    if (!value) continue;
    switch (tag) {
      case '10':
        s1.invoiceNumber = value;
        break;
      case '11':
        s1.invoiceDate = fromYymmdd(value);
        break;
      case '20':
        s1.customerReference = value;
        break;
      case '30':
        // Digits only (IG Table 28); a UID with a wrong check digit is left out.
        if (/^\d{9}$/.test(value)) s1.uid = swissUid(`CHE${value}`);
        break;
      case '31': {
        const start = fromYymmdd(value.slice(0, 6));
        const end = value.length === 12 ? fromYymmdd(value.slice(6)) : value.length === 6 ? start : undefined;
        if (start && end) s1.vatDates = { start, end };
        break;
      }
      case '32': {
        const list = pairs(value, true);
        // A bare rate stands alone; a list gives every rate its net amount.
        if (list && (list.length === 1 || list.every(([, net]) => net !== undefined))) s1.vat = list.map(([rate, net]) => (net === undefined ? { rate } : { rate, net }));
        break;
      }
      case '33': {
        const list = pairs(value, false);
        if (list) s1.importVat = list.map(([rate, vat]) => ({ rate, vat: vat! }));
        break;
      }
      case '40': {
        const list = pairs(value, false);
        if (list && list.every(([, days]) => /^\d{1,4}$/.test(days!))) s1.conditions = list.map(([discount, days]) => ({ discount, days: Number(days) }));
        break;
      }
    }
  }
  return s1;
}

/** Writes Swico S1 billing information: tags in ascending order, empty ones left out (IG Table 29). */
export function encodeSwicoS1(s1: SwicoS1): string {
  const tags: [string, string | undefined][] = [
    ['10', s1.invoiceNumber && escape(s1.invoiceNumber)],
    ['11', s1.invoiceDate && toYymmdd(s1.invoiceDate)],
    ['20', s1.customerReference && escape(s1.customerReference)],
    ['30', s1.uid?.replace(/\D/g, '')],
    ['31', s1.vatDates && (s1.vatDates.start === s1.vatDates.end ? toYymmdd(s1.vatDates.start) : toYymmdd(s1.vatDates.start) + toYymmdd(s1.vatDates.end))],
    ['32', s1.vat?.map((v) => (v.net === undefined ? v.rate : `${v.rate}:${v.net}`)).join(';')],
    ['33', s1.importVat?.map((v) => `${v.rate}:${v.vat}`).join(';')],
    ['40', s1.conditions?.map((c) => `${c.discount}:${c.days}`).join(';')],
  ];
  return `//S1${tags
    .filter((tag): tag is [string, string] => !!tag[1])
    .map(([tag, value]) => `/${tag}/${value}`)
    .join('')}`;
}

/** A number as Swico writes it: '8.10' → '8.1', '100.00' → '100', '0.30' → '0.3'. */
export const swicoNumber = (value: string): string => toMoney(value).toFixed();

/**
 * The due date: the invoice date plus the days of the 0 % condition (Swico: "0:30" = 30 days net);
 * undefined without both.
 */
export function swicoDueDate(s1: SwicoS1): string | undefined {
  const net = s1.conditions?.find((c) => toMoney(c.discount).isZero());
  return s1.invoiceDate && net ? addDays(s1.invoiceDate, net.days) : undefined;
}

/**
 * The VAT the bill contains, 2 decimals: with one rate on the whole gross `amount`, amount × rate /
 * (100 + rate); with a list, the sum of net × rate / 100 per rate (each rounded to the cent); plus
 * any import VAT. Undefined without VAT details (or without an amount for a bare rate).
 */
export function swicoVatAmount(s1: SwicoS1, amount: string | undefined): string | undefined {
  if (!s1.vat && !s1.importVat) return undefined;
  let vat = toMoney(0);
  for (const line of s1.vat ?? []) {
    if (line.net === undefined) {
      if (amount === undefined) return undefined;
      vat = vat.plus(toMoney(vatIncluded(amount, vatPercentToRate(line.rate))));
    } else {
      vat = vat.plus(toMoney(toFixedAmount(toMoney(line.net).times(toMoney(line.rate)).dividedBy(100))));
    }
  }
  for (const line of s1.importVat ?? []) vat = vat.plus(toMoney(line.vat));
  return toFixedAmount(vat);
}
