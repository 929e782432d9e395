/** Display formatting (spec §5 "Amount display", "Reference numbers", account card names, VAT rate; §9). */
import { ACCOUNT_CARD_NAME_MAX } from './constants.js';
import { Money, isAmountString, toFixedAmount, toMoney } from './money.js';
import { isCalendarDate } from './validators/date.js';
import { displayNumberFormat } from './number-format.js';

const amountFormats = new Map<string, Intl.NumberFormat>();
function amountFormat(decimals: number): Intl.NumberFormat {
  const displayFormat = displayNumberFormat();
  const key = `${displayFormat}/${decimals}`;
  let format = amountFormats.get(key);
  if (!format) {
    // Grouped from 1'000 on in every format (it-CH would not group 4 digits otherwise).
    format = new Intl.NumberFormat(displayFormat, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: 'always' });
    amountFormats.set(key, format);
  }
  return format;
}

/**
 * Amount for display (spec §5, §9): in the display number format (fr-CH unless the user chose
 * another, issue 17 §3), exactly `decimals` fraction digits (half-up), negatives in brackets
 * without the minus, anything that is not an amount as '-'. The rounded decimal string goes to Intl
 * as a string, which formats it exactly (no float on the way). fr-CH groups thousands with U+202F
 * (narrow no-break space): '(1 234,50)'; de-CH, it-CH and en-CH with an apostrophe: "(1'234.50)".
 */
export function formatAmount(value: string | Money | null | undefined, decimals = 2): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string' ? !isAmountString(value, 12) : !value.isFinite()) return '-';
  const fixed = toFixedAmount(value, decimals);
  const isNegative = fixed.startsWith('-');
  const formatted = amountFormat(decimals).format((isNegative ? fixed.slice(1) : fixed) as `${number}`);
  return isNegative ? `(${formatted})` : formatted;
}

// Group separators of the Swiss formats: spaces (fr-CH U+202F, U+00A0) and apostrophes (' and ’).
const GROUP_SEPARATORS = /[\s\u00a0\u202f'\u2019]/g;

/**
 * An amount as a person types or pastes it, in any of the four formats or plain, to the decimal
 * string the API takes: '1 234,50', "1'234.50", '1’234.50', '1234.50', '(1 234,50)' and
 * '-1234,5' all parse. Null for anything else. Commas are always the decimal separator (no Swiss
 * format groups with them), so '1,5' is 1.5.
 */
export function parseAmountInput(text: string): string | null {
  let value = text.trim();
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1);
  }
  value = value.replace(GROUP_SEPARATORS, '').replace(/[\u2212]/g, '-');
  if (value.startsWith('-')) {
    if (negative) return null;
    negative = true;
    value = value.slice(1);
  }
  value = value.replace(',', '.');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(value)) return null;
  if (value.startsWith('.')) value = `0${value}`;
  if (value.endsWith('.')) value = value.slice(0, -1);
  return negative && /[1-9]/.test(value) ? `-${value}` : value;
}

/** The languages documents are printed in (invoices, QR-bills, VAT return). */
export type DocumentLanguage = 'de' | 'fr' | 'it' | 'en';

/** The number format of each document language (issue 15 §6): de-CH and it-CH 2'565.25, fr-CH 2 565,25, en 2,565.25. */
export const DOCUMENT_LOCALES: Readonly<Record<DocumentLanguage, string>> = { de: 'de-CH', fr: 'fr-CH', it: 'it-CH', en: 'en-US' };

const localeFormats = new Map<string, Intl.NumberFormat>();
/**
 * Amount as `locale` writes it, exactly 2 decimals (half-up), grouped from 1'000 on in every
 * language (it-CH would not group 4 digits otherwise), a negative with a minus sign. The rounded
 * decimal string goes to Intl, which formats it exactly.
 */
export function formatAmountLocale(value: string | Money, locale: string): string {
  let format = localeFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: 'always' });
    localeFormats.set(locale, format);
  }
  const fixed = toFixedAmount(value);
  const negative = fixed.startsWith('-');
  const formatted = format.format((negative ? fixed.slice(1) : fixed) as `${number}`);
  return negative ? `−${formatted}` : formatted;
}

/**
 * Account card name (spec §5, §9 "cut 23 characters"): a longer name becomes its first 23
 * characters followed by '…'. Characters are Unicode code points, so an emoji is never split.
 */
export function truncateName(name: string, max = ACCOUNT_CARD_NAME_MAX): string {
  const characters = Array.from(name);
  return characters.length > max ? `${characters.slice(0, max).join('')}…` : name;
}

/**
 * VAT rate (a fraction) from a document total and its VAT amount (spec §5 "VAT rate"), rounded
 * half-up to 3 decimals: '0.081'. The total is taken as gross, VAT included, as on Swiss invoices
 * and receipts, so the rate is vat / (total − vat). Null when vat is empty (null, undefined,
 * blank) or when the net amount is 0. Throws RangeError for a non-amount.
 */
export function vatRateFromAmounts(
  total: string | Money,
  vat: string | Money | null | undefined,
): string | null {
  if (vat === null || vat === undefined || (typeof vat === 'string' && vat.trim() === '')) return null;
  const vatAmount = toMoney(vat);
  const net = toMoney(total).minus(vatAmount);
  if (net.isZero()) return null;
  return toFixedAmount(vatAmount.dividedBy(net), 3);
}

const PERCENT_PATTERN = /^-?\d{1,18}(\.\d{1,12})?$/;
function exactDecimal(value: string, label: string): Money {
  if (!PERCENT_PATTERN.test(value)) throw new RangeError(`${label} "${value}" is not a decimal number`);
  return new Money(value);
}

/** VAT percent as typed ('8.1') to the stored fraction ('0.081'), exactly (spec §2.7 "stored as a fraction"). */
export function vatPercentToRate(percent: string): string {
  return exactDecimal(percent, 'VAT percent').dividedBy(100).toFixed();
}

/** Stored VAT fraction ('0.081') to the displayed percent ('8.1'), exactly (spec §2.7 "shown x100"). */
export function vatRateToPercent(rate: string): string {
  return exactDecimal(rate, 'VAT rate').times(100).toFixed();
}

const swissDateFormat = new Intl.DateTimeFormat('de-CH', {
  timeZone: 'Europe/Zurich', day: '2-digit', month: '2-digit', year: 'numeric',
});

/**
 * Swiss date 'dd.mm.yyyy'. A ledger date 'YYYY-MM-DD' is rearranged as written; a timestamp
 * (ISO 8601 with time) is shown as the date in Switzerland, so 23:30Z on 1 March reads 02.03.
 * Anything else gives '-', like `formatAmount`.
 */
export function formatDate(iso: string | null | undefined): string {
  if (typeof iso !== 'string') return '-';
  if (isCalendarDate(iso)) return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
  const day = iso.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) || !isCalendarDate(day)) return '-';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '-' : swissDateFormat.format(time);
}
