/** Debtors: open receivables per customer with ageing buckets. */
import {
  InvoiceStatus,
  daysBetween,
  toBaseAmount,
  toFixedAmount,
  toMoney,
  type CurrencyCode,
  type Money,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { listInvoices } from './documents.service.js';
import { creditNotesOfInvoices, openInvoiceAmounts } from './payments.service.js';
import { instanceDefaults } from '../instances/instances.service.js';
import { todayInSwitzerland } from '../accounting/accounting.service.js';

type Buckets = { notDue: string; d0_30: string; d31_60: string; d61_90: string; d90plus: string };

export interface DebtorRow {
  company: { uuid: string; name: string };
  invoices: number;
  /**
   * Open amounts in the books' currency by days overdue (days after the due date) at `date`:
   * not yet due, 0–30, 31–60, 61–90, > 90.
   */
  buckets: Buckets;
  total: string;
  /** The open invoices behind the row. */
  documents: {
    uuid: string;
    refNumber: string;
    dateInvoice: string;
    dateDue: string;
    daysOverdue: number;
    currency: CurrencyCode;
    total: string;
    totalBase: string;
    /** Total less part payments and write-offs (issue 14 §3), in the invoice's currency and the books'. */
    openAmount: string;
    openAmountBase: string;
    /** Credit notes of the invoice (decision 027), in the invoice's currency. */
    creditNotes: { uuid: string; number: string; date: string; total: string; entryId: number | null }[];
  }[];
}

const BUCKET_KEYS = ['notDue', 'd0_30', 'd31_60', 'd61_90', 'd90plus'] as const;

/** Bucket of an invoice `daysOverdue` days after its due date (negative: not yet due). */
function bucketOf(daysOverdue: number): number {
  if (daysOverdue < 0) return 0;
  if (daysOverdue <= 30) return 1;
  if (daysOverdue <= 60) return 2;
  if (daysOverdue <= 90) return 3;
  return 4;
}

/**
 * Open receivables (status sent) per customer with ageing buckets at `date` (default today in
 * Switzerland) by days overdue, counted from the due date; amounts in the books' currency: the open
 * amount (total less part payments and write-offs) × fxRate.
 */
export async function listDebtors(
  tx: Tx,
  instanceId: string,
  date?: string,
): Promise<{ date: string; currency: CurrencyCode; data: DebtorRow[]; totals: Buckets & { total: string } }> {
  const at = date ?? todayInSwitzerland();
  const { data: open } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent });
  const openAmounts = await openInvoiceAmounts(tx, instanceId, open);
  const credits = await creditNotesOfInvoices(tx, instanceId, open.map((invoice) => invoice.uuid));
  const zero = () => BUCKET_KEYS.map(() => toMoney(0));
  const byCompany = new Map<string, { company: { uuid: string; name: string }; sums: Money[]; documents: DebtorRow['documents'] }>();
  const grand = zero();
  for (const invoice of [...open].sort((a, b) => a.dateDue.localeCompare(b.dateDue) || a.id - b.id)) {
    const daysOverdue = daysBetween(invoice.dateDue, at);
    const bucket = bucketOf(daysOverdue);
    const entry = byCompany.get(invoice.company.uuid) ?? { company: invoice.company, sums: zero(), documents: [] };
    // Ageing of what is still open (issue 14 §3): part payments and write-offs are off the bucket.
    const openAmount = openAmounts.get(invoice.uuid) ?? invoice.totals.total;
    const openAmountBase = openAmount === invoice.totals.total ? invoice.totalBase : toBaseAmount(openAmount, invoice.fxRate);
    entry.sums[bucket] = entry.sums[bucket]!.plus(toMoney(openAmountBase));
    grand[bucket] = grand[bucket]!.plus(toMoney(openAmountBase));
    entry.documents.push({
      uuid: invoice.uuid,
      refNumber: invoice.refNumber,
      dateInvoice: invoice.dateInvoice,
      dateDue: invoice.dateDue,
      daysOverdue,
      currency: invoice.currency,
      total: invoice.totals.total,
      totalBase: invoice.totalBase,
      openAmount,
      openAmountBase,
      creditNotes: credits.get(invoice.uuid) ?? [],
    });
    byCompany.set(invoice.company.uuid, entry);
  }
  const buckets = (sums: readonly Money[]) => Object.fromEntries(BUCKET_KEYS.map((key, index) => [key, toFixedAmount(sums[index]!)])) as Buckets;
  const sum = (sums: readonly Money[]) => toFixedAmount(sums.reduce((a, b) => a.plus(b), toMoney(0)));
  const data = [...byCompany.values()]
    .map((entry) => ({ company: entry.company, invoices: entry.documents.length, buckets: buckets(entry.sums), total: sum(entry.sums), documents: entry.documents }))
    .sort((a, b) => a.company.name.localeCompare(b.company.name));
  const { currency } = await instanceDefaults(tx, instanceId);
  return { date: at, currency, data, totals: { ...buckets(grand), total: sum(grand) } };
}
