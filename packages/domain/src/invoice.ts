/**
 * Invoice arithmetic (spec §3 "Invoice item", issue #4 §3) and invoice payment references.
 *
 * Rounding choice (documented in docs/api.md "Invoices"):
 * - a line total is quantity × price, less the percent discount or the absolute discount, rounded
 *   half-up to the cent (Rappen);
 * - net = exact sum of the line totals; VAT per rate = the net of the lines at that rate × rate,
 *   rounded half-up to the cent (one VAT amount per rate, as the ESTV return reports a base and a
 *   tax per rate, Ziffer 303/313/343); a line without its own rate takes the invoice's rate;
 * - gross = net + VAT; for CHF the amount due is gross rounded to 0.05 (5 Rappen, the smallest coin;
 *   Swiss cash practice, e.g. "Rundung auf 5 Rappen" in Swiss accounting software), other currencies
 *   are not rounded. The rounding difference (at most ±0.02) is shown on the invoice and booked with
 *   the revenue, so the receivable equals exactly the amount due on the QR-bill.
 * All arithmetic is decimal.js; no binary float ever touches an amount.
 */
import { amountTooLargeMessage } from './messages.js';
import { isAmountString, isWithinAmountBound, MAX_AMOUNT, toFixedAmount, toMoney, roundTo5Rappen, Money } from './money.js';
import { makeCreditorReference, makeQrReference } from './validators/reference.js';
import { vatPercentAt, vatRateTypeOf } from './vat.js';

export interface InvoiceLineInput {
  /** Quantity ("amount" in the working form), decimal string. */
  quantity: string;
  /** Unit price, decimal string. */
  price: string;
  /** Discount in percent (0–100), decimal string, or null. */
  discount?: string | null | undefined;
  /** Absolute discount on the line, decimal string, or null. Applied when no percent discount is given. */
  discountAbs?: string | null | undefined;
  /** The line's VAT rate as a fraction ("0.026"); null or absent: the invoice's rate. */
  vatRate?: string | null | undefined;
}

/**
 * Line total (spec §3): quantity × price, less the percent discount, or less the absolute discount;
 * half-up to 2 decimals. Returns a decimal string ("123.45").
 */
export function invoiceLineTotal(line: InvoiceLineInput): string {
  const gross = toMoney(line.quantity).times(toMoney(line.price));
  let total: Money;
  if (line.discount != null && line.discount !== '' && !toMoney(line.discount).isZero()) {
    total = gross.minus(gross.times(toMoney(line.discount)).dividedBy(100));
  } else if (line.discountAbs != null && line.discountAbs !== '') {
    total = gross.minus(toMoney(line.discountAbs));
  } else {
    total = gross;
  }
  return toFixedAmount(total);
}

/** Base and VAT of one rate (the ESTV return's "a" and "b" columns of Ziffer 303/313/343). */
export interface VatLine {
  /** Fraction, plain ("0.081", "0"). */
  rate: string;
  /** Net of the lines at this rate. */
  base: string;
  /** base × rate, half-up to the cent. */
  vat: string;
}

export interface InvoiceTotals {
  /** Sum of line totals. */
  net: string;
  /** The invoice's VAT rate as a fraction ("0.081"), the rate of lines without their own. */
  vatRate: string;
  /** Sum of the VAT of every rate. */
  vat: string;
  /** One entry per rate used by a line (or the invoice rate when there is no line), highest rate first. */
  vatLines: VatLine[];
  /** net + vat. */
  gross: string;
  /** total − gross (0.00 unless CHF 5-Rappen rounding applied). */
  rounding: string;
  /** Amount due: gross, rounded to 0.05 for CHF. */
  total: string;
}

/**
 * A pure function of strings, remembered: a list of invoices asks the same few rates (and supply
 * dates) for every line, and decimal.js parsing them each time was a tenth of a list page's CPU
 * (docs/performance.md). Cleared when full, so the memory stays bounded whatever the input.
 */
function remembered(fn: (key: string) => string): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = fn(key);
      if (known.size >= 4096) known.clear();
      known.set(key, value);
    }
    return value;
  };
}

/** A VAT rate as a plain fraction string ("0.0810" → "0.081"), so equal rates compare equal. Throws (RangeError) on a non-decimal. */
export const normalizeVatRate: (rate: string) => string = remembered((rate) => toMoney(rate).toFixed());

/**
 * The rate (fraction) that applies to a supply on `supplyDate` for a rate as entered: the entered
 * rate names a rate type (8.1 %, 7.7 % and 8.0 % are all the standard rate, …) and the type's
 * percentage at the supply date applies (decision 019: a 2023 supply is taxed at 7.7 %). A rate
 * that is no Swiss rate of any period is kept as entered.
 */
export function vatRateAt(rate: string, supplyDate: string): string {
  return rateAt(`${rate}|${supplyDate}`);
}

const rateAt = remembered((key) => {
  const bar = key.lastIndexOf('|');
  const rate = key.slice(0, bar);
  const supplyDate = key.slice(bar + 1);
  const type = vatRateTypeOf(rate);
  return type === undefined ? normalizeVatRate(rate) : normalizeVatRate(toMoney(vatPercentAt(type, supplyDate)).dividedBy(100).toFixed());
});

/**
 * Totals of an invoice. `vatRate` is the invoice's rate (a fraction, "0.081"), used by lines without
 * their own `vatRate`; `currency` decides 5-Rappen rounding (CHF only). With `supplyDate` (the
 * invoice date) each rate is the one in force for that supply (`vatRateAt`): 8.1 % on an invoice
 * dated 2023 is computed at 7.7 %. Amounts are decimal strings with 2 decimals.
 */
export function invoiceTotals(lines: readonly InvoiceLineInput[], vatRate: string, currency = 'CHF', supplyDate?: string): InvoiceTotals {
  return totalsOfLineTotals(
    lines.map((line) => ({ total: invoiceLineTotal(line), vatRate: line.vatRate })),
    vatRate,
    currency,
    supplyDate,
  );
}

/**
 * `invoiceTotals` from line totals already computed by `invoiceLineTotal` (an invoice's answer
 * shows each line's total and the invoice's totals: each line is computed once).
 */
export function totalsOfLineTotals(
  lines: readonly { total: string; vatRate?: string | null | undefined }[],
  vatRate: string,
  currency = 'CHF',
  supplyDate?: string,
): InvoiceTotals {
  const applied = (rate: string) => (supplyDate ? vatRateAt(rate, supplyDate) : normalizeVatRate(rate));
  const invoiceRate = applied(vatRate);
  let net = toMoney(0);
  const bases = new Map<string, Money>();
  for (const line of lines) {
    const lineTotal = toMoney(line.total);
    const rate = line.vatRate == null || line.vatRate === '' ? invoiceRate : applied(line.vatRate);
    net = net.plus(lineTotal);
    bases.set(rate, (bases.get(rate) ?? toMoney(0)).plus(lineTotal));
  }
  if (bases.size === 0) bases.set(invoiceRate, toMoney(0));
  let vat = toMoney(0);
  const vatLines = [...bases.entries()]
    .sort(([a], [b]) => toMoney(b).comparedTo(toMoney(a)))
    .map(([rate, base]): VatLine => {
      const tax = base.times(toMoney(rate)).toDecimalPlaces(2, Money.ROUND_HALF_UP);
      vat = vat.plus(tax);
      return { rate, base: toFixedAmount(base), vat: toFixedAmount(tax) };
    });
  const gross = net.plus(vat);
  const total = currency === 'CHF' ? roundTo5Rappen(gross) : gross;
  return {
    net: toFixedAmount(net),
    vatRate: invoiceRate,
    vat: toFixedAmount(vat),
    vatLines,
    gross: toFixedAmount(gross),
    rounding: toFixedAmount(total.minus(gross)),
    total: toFixedAmount(total),
  };
}

/** VAT rates an invoice may carry, as fractions: 8.1 %, 2.6 %, 3.8 %, 0 % (MWSTG art. 25). */
export const INVOICE_VAT_RATES = ['0.081', '0.026', '0.038', '0'] as const;

/** A ledger account the product posts to by itself: number and name as in the Swiss SME chart. */
export interface ChartAccount {
  number: string;
  name: string;
}

/**
 * Revenue and output VAT account of each Swiss rate (docs/decisions/008-vat-rates-to-accounts.md).
 * 8.1 % and 2.6 % are the accounts of the Swiss SME chart (3200/2200, 3201/2201, labelled with their
 * rate). The chart has none for 3.8 % (accommodation, MWSTG art. 25 al. 4) and 0 % (exempt supplies
 * such as exports, art. 23): they take the next free numbers of the same groups, 3202/2202 and 3203,
 * and are created on first use. 0 % owes no tax, so it has no VAT account. Keys are normalized rates.
 */
export const SWISS_VAT_ACCOUNTS: Readonly<Record<string, { revenue: ChartAccount; vat: ChartAccount | null }>> = {
  '0.081': { revenue: { number: '3200', name: 'Handelserlöse 8.1%' }, vat: { number: '2200', name: 'Geschuldete MWST (8.1%)' } },
  '0.026': { revenue: { number: '3201', name: 'Handelserlöse 2.6%' }, vat: { number: '2201', name: 'Geschuldete MWST (2.6%)' } },
  '0.038': { revenue: { number: '3202', name: 'Beherbergungserlöse 3.8%' }, vat: { number: '2202', name: 'Geschuldete MWST (3.8%)' } },
  '0': { revenue: { number: '3203', name: 'Erlöse steuerbefreit 0%' }, vat: null },
};

/**
 * The accounts of a VAT rate, by its rate type (decision 019): a rate of an earlier period books on
 * the accounts of its type (7.7 % like 8.1 %, 2.5 % like 2.6 %, 3.7 % like 3.8 %). A rate that is
 * no Swiss rate of any period books like the standard rate: revenue 3200, VAT 2200.
 */
export function vatAccountsFor(rate: string): { revenue: ChartAccount; vat: ChartAccount | null } {
  const key = normalizeVatRate(rate);
  if (toMoney(key).isZero()) return SWISS_VAT_ACCOUNTS['0']!;
  const type = vatRateTypeOf(key);
  const byType = { standard: '0.081', reduced: '0.026', accommodation: '0.038', zero: '0' } as const;
  return SWISS_VAT_ACCOUNTS[byType[type ?? 'standard']]!;
}

/** Currencies of a Swiss QR-bill (SIX IG v2.3 §4.3.3 "Ccy": CHF or EUR), so the invoice currencies. */
export const INVOICE_CURRENCIES = ['CHF', 'EUR'] as const;
export type InvoiceCurrency = (typeof INVOICE_CURRENCIES)[number];

/** Default payment term: the due date is the invoice date plus 30 days. */
export const DEFAULT_PAYMENT_TERM_DAYS = 30;

/**
 * The VAT included in a gross amount at `rate` (a fraction): gross × rate / (1 + rate), half-up to
 * the cent (Swiss VAT is computed on the consideration, MWSTG art. 24; prices include it here).
 */
export function vatIncluded(gross: string, rate: string): string {
  const r = toMoney(rate);
  return toFixedAmount(toMoney(gross).times(r).dividedBy(r.plus(1)));
}

/** `date` (YYYY-MM-DD) plus `days` calendar days, in UTC so no time zone shifts the day. */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * An amount in the invoice currency converted to the books' currency: amount × fxRate, half-up to
 * the cent (the rounding postJournalEntry applies to originalAmount × exchangeRate).
 */
export function toBaseAmount(amount: string, fxRate: string): string {
  return toFixedAmount(toMoney(amount).times(toMoney(fxRate)));
}

/**
 * Line rules across fields (the schema checks each field alone): quantity × price within
 * MAX_AMOUNT; either a percent or an absolute discount, not both; an absolute discount at most
 * quantity × price. Returns field → message.
 */
export function invoiceItemProblems(item: { amount: string; price: string; discount?: string | null | undefined; discountAbs?: string | null | undefined }): Record<string, string> {
  const problems: Record<string, string> = {};
  // Values the schema refuses are its to report; this only judges well-formed amounts.
  if (!isAmountString(item.amount, 4) || !isAmountString(item.price, 4)) return problems;
  // Each factor is within MAX_AMOUNT, their product need not be: the line's posting must fit too.
  if (!isWithinAmountBound(toMoney(item.amount).times(toMoney(item.price)))) {
    problems.price = `the line amount (quantity × price) ${amountTooLargeMessage(MAX_AMOUNT).replace(/^amount /, '')}`;
    return problems;
  }
  const given = (value: string | null | undefined): value is string => isAmountString(value, 4) && !toMoney(value).isZero();
  if (given(item.discount) && given(item.discountAbs)) {
    problems.discountAbs = 'give either a percent or an absolute discount, not both';
  } else if (given(item.discountAbs) && toMoney(item.discountAbs).gt(toMoney(item.amount).times(toMoney(item.price)))) {
    problems.discountAbs = 'the discount cannot exceed the line amount';
  }
  return problems;
}

/**
 * QR reference of an invoice (SIX IG v2.3 §4.3.3): the invoice id left-padded to 26 digits plus the
 * recursive mod-10 check digit. 27 digits.
 */
export function invoiceQrReference(invoiceId: number): string {
  return makeQrReference(String(invoiceId));
}

/** Creditor reference (ISO 11649) of an invoice: RF + check digits + the display reference 'BILAN000042'. */
export function invoiceCreditorReference(invoiceId: number): string {
  return makeCreditorReference(`BILAN${String(invoiceId).padStart(6, '0')}`);
}
