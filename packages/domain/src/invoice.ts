/**
 * Invoice arithmetic (spec §3 "Invoice item", issue #4 §3) and invoice payment references.
 *
 * Rounding choice (documented in docs/api.md "Invoices"):
 * - a line total is quantity × price, less the percent discount or the absolute discount, rounded
 *   half-up to the cent (Rappen);
 * - net = exact sum of the line totals; VAT = net × rate rounded half-up to the cent (one VAT amount
 *   per invoice, as the invoice carries one rate);
 * - gross = net + VAT; for CHF the amount due is gross rounded to 0.05 (5 Rappen, the smallest coin;
 *   Swiss cash practice, e.g. "Rundung auf 5 Rappen" in Swiss accounting software), other currencies
 *   are not rounded. The rounding difference (at most ±0.02) is shown on the invoice and booked with
 *   the revenue, so the receivable equals exactly the amount due on the QR-bill.
 * All arithmetic is decimal.js; no binary float ever touches an amount.
 */
import { toFixedAmount, toMoney, roundTo5Rappen, type Money } from './money.js';
import { makeCreditorReference, makeQrReference } from './validators/reference.js';

export interface InvoiceLineInput {
  /** Quantity ("amount" in the working form), decimal string. */
  quantity: string;
  /** Unit price, decimal string. */
  price: string;
  /** Discount in percent (0–100), decimal string, or null. */
  discount?: string | null | undefined;
  /** Absolute discount on the line, decimal string, or null. Applied when no percent discount is given. */
  discountAbs?: string | null | undefined;
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

export interface InvoiceTotals {
  /** Sum of line totals. */
  net: string;
  /** VAT rate as a fraction ("0.081"). */
  vatRate: string;
  /** net × vatRate, half-up to the cent. */
  vat: string;
  /** net + vat. */
  gross: string;
  /** total − gross (0.00 unless CHF 5-Rappen rounding applied). */
  rounding: string;
  /** Amount due: gross, rounded to 0.05 for CHF. */
  total: string;
}

/**
 * Totals of an invoice. `vatRate` is a fraction ("0.081"); `currency` decides 5-Rappen rounding
 * (CHF only). All outputs are decimal strings with 2 decimals.
 */
export function invoiceTotals(lines: readonly InvoiceLineInput[], vatRate: string, currency = 'CHF'): InvoiceTotals {
  let net = toMoney(0);
  for (const line of lines) net = net.plus(toMoney(invoiceLineTotal(line)));
  const vat = toMoney(toFixedAmount(net.times(toMoney(vatRate))));
  const gross = net.plus(vat);
  const total = currency === 'CHF' ? roundTo5Rappen(gross) : gross;
  return {
    net: toFixedAmount(net),
    vatRate: toMoney(vatRate).toFixed(),
    vat: toFixedAmount(vat),
    gross: toFixedAmount(gross),
    rounding: toFixedAmount(total.minus(gross)),
    total: toFixedAmount(total),
  };
}

/** VAT rates an invoice may carry, as fractions: 8.1 %, 2.6 %, 3.8 %, 0 % (MWSTG art. 25). */
export const INVOICE_VAT_RATES = ['0.081', '0.026', '0.038', '0'] as const;

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
