/**
 * A stored line of an invoice-like document (a quote, a recurring invoice's template) as the API
 * answers it: the invoice item's working names (spec §3: name, amount, price), decimals without
 * trailing zeros, the VAT rate normalised and the line total (domain `invoiceLineTotal`).
 */
import { invoiceLineTotal, normalizeVatRate } from '@bilan/domain';

/** The columns such a line is stored with (quote_item, recurring_invoice_item). */
export interface DocumentLineRecord {
  id: number;
  label: string;
  quantity: string;
  price: string;
  discount: string | null;
  discount_abs: string | null;
  vat_rate: string | null;
}

export interface DocumentLine {
  id: number;
  name: string;
  amount: string;
  price: string;
  discount: string | null;
  discountAbs: string | null;
  vat: string | null;
  account: { id: number; number: string; name: string } | null;
  /** Line total in the document's currency, 2 decimals. */
  total: string;
}

/** '1.500' → '1.5', '2.000' → '2': decimals as a person writes them. */
export const trimZeros = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/** The answer of one stored line; `account` is its revenue account when it names one. */
export function documentLine(record: DocumentLineRecord, account: { id: number; number: string; name: string } | undefined): DocumentLine {
  return {
    id: record.id,
    name: record.label,
    amount: trimZeros(record.quantity),
    price: trimZeros(record.price),
    discount: record.discount === null ? null : trimZeros(record.discount),
    discountAbs: record.discount_abs,
    vat: record.vat_rate === null ? null : normalizeVatRate(record.vat_rate),
    account: account ? { id: account.id, number: account.number, name: account.name } : null,
    total: invoiceLineTotal({ quantity: record.quantity, price: record.price, discount: record.discount, discountAbs: record.discount_abs }),
  };
}
