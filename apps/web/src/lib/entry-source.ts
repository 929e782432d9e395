/**
 * What booked a journal entry (its `source`, server document-posting.ts and the modules that post),
 * in words a bookkeeper reads. Unknown sources show as they are.
 */
import { msg, translate } from './i18n';

const SOURCE_LABELS: Readonly<Record<string, string>> = {
  manual: msg('manual entry'),
  import: msg('journal import'),
  invoice: msg('invoice'),
  bill: msg('bill'),
  payment: msg('payment'),
  bank: msg('bank statement'),
  salary: msg('salary'),
  closing: msg('year-end closing'),
  vat: msg('VAT settlement'),
};

/** 'invoice' → 'Rechnung' in German; an unknown source unchanged. */
export const entrySourceLabel = (source: string): string => (SOURCE_LABELS[source] ? translate(SOURCE_LABELS[source]) : source);
