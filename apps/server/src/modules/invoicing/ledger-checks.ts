/**
 * What the accounting checks (issue 12 §2, accounting/checks.service.ts `CheckSources`) ask of the
 * invoices: those open at a date, and the output VAT of those sent in a period, in the books'
 * currency. Assembled into the accounting routes' port by wiring/wiring.ts.
 *
 * Dates: invoicing keeps no status history. `invoice.ledger_date` is the ledger date of the last
 * status change that posted — the sent date while the invoice is sent, the payment or denial date
 * once it is paid or denied — and the sent date of a paid or denied invoice is the ledger date of
 * its sent entry (`sent_entry_id`), asked of accounting (`entryDates`). Status changes are dated on
 * or after the sent date (postings.service.ts), so:
 * - open at D: sent on or before D, and not yet paid or denied, or paid or denied after D;
 * - sent in a period: its sent entry is dated in it (a paid or denied one was paid on or after it).
 */
import type { Money} from '@bilan/domain';
import { InvoiceStatus, formatDate, toBaseAmount, toFixedAmount, toMoney, vatAccountsFor, type MessageLanguage } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { serverText } from '../../http/server-texts.js';
import { entryDates, type DateRange, type DocumentsVat, type OpenDocument } from '../accounting/accounting.service.js';
import { invoicesByUuids, type Invoice } from './documents.service.js';
import { chargesOfInvoices } from './charges.service.js';
import { creditNotesOfInvoices, paymentsOfInvoices } from './payments.service.js';

/** An invoice that has been sent: status, last posting date and sent entry. */
interface SentRow {
  uuid: string;
  status_id: number;
  ledger_date: string;
  sent_entry_id: number;
  [key: string]: unknown;
}

/**
 * The invoices whose sent entry is dated within `from`…`to` (either bound may be open): sent ones by
 * their ledger date, paid and denied ones by their sent entry's date. One query of the invoices
 * (index invoice_status_idx) and one of the entries' dates.
 */
async function sentBetween(tx: Tx, instanceId: string, from: string | null, to: string): Promise<Invoice[]> {
  const rows = await tx.query<SentRow>(
    `SELECT uuid::text AS uuid, status_id, ledger_date::text AS ledger_date, sent_entry_id FROM invoice
      WHERE instance_id = $1 AND sent_entry_id IS NOT NULL AND ledger_date IS NOT NULL
        AND ((status_id = $4 AND ledger_date <= $3 AND ($2::date IS NULL OR ledger_date >= $2))
          OR (status_id IN ($5, $6) AND ($2::date IS NULL OR ledger_date >= $2)))`,
    [instanceId, from, to, InvoiceStatus.sent, InvoiceStatus.paid, InvoiceStatus.denied],
  );
  const closed = rows.filter((row) => row.status_id !== InvoiceStatus.sent);
  const sentOn = await entryDates(tx, instanceId, closed.map((row) => row.sent_entry_id));
  const inRange = (date: string | undefined) => date !== undefined && date <= to && (from === null || date >= from);
  const uuids = rows.filter((row) => (row.status_id === InvoiceStatus.sent ? true : inRange(sentOn.get(row.sent_entry_id)))).map((row) => row.uuid);
  return invoicesByUuids(tx, instanceId, uuids);
}

const label = (invoice: Invoice, language: MessageLanguage) =>
  serverText(language, 'Invoice {{ref}} {{company}} of {{date}}', { ref: invoice.refNumber, company: invoice.company.name, date: formatDate(invoice.dateInvoice) });

/**
 * The invoices open at `date` (sent on or before it, not paid or denied on or before it), each for
 * its receivable in the books' currency (`totalBase`, what the sent entry debited), oldest first;
 * labels in `language`.
 */
export async function openInvoicesAt(tx: Tx, instanceId: string, date: string, language: MessageLanguage = 'en'): Promise<OpenDocument[]> {
  const sent = (await sentBetween(tx, instanceId, null, date)).filter(
    (invoice) => invoice.status === InvoiceStatus.sent || (invoice.ledgerDate !== null && invoice.ledgerDate > date),
  );
  // Part payments (issue 14 §3): what payments dated on or before `date`, not reversed by then, settled.
  const payments = await paymentsOfInvoices(tx, instanceId, sent.map((invoice) => invoice.uuid));
  // Credit notes (decision 027) dated on or before `date` reduce the receivable too.
  const credits = await creditNotesOfInvoices(tx, instanceId, sent.map((invoice) => invoice.uuid));
  // Dunning fees and interest (decision 030) dated on or before `date` add to it.
  const charges = await chargesOfInvoices(tx, instanceId, sent.map((invoice) => invoice.uuid));
  return sent
    .sort((a, b) => a.dateInvoice.localeCompare(b.dateInvoice) || a.id - b.id)
    .map((invoice) => {
      const settled = (payments.get(invoice.uuid) ?? [])
        .filter((p) => p.date <= date && (p.reversed === null || p.reversed.date > date))
        .reduce((sum, p) => sum.plus(toMoney(p.amount)).plus(toMoney(p.fee)).plus(toMoney(p.writeOff)), toMoney(0));
      const credited = (credits.get(invoice.uuid) ?? []).filter((c) => c.date <= date).reduce((sum, c) => sum.plus(toMoney(c.total)), toMoney(0));
      const charged = (charges.get(invoice.uuid) ?? []).filter((c) => c.date <= date).reduce((sum, c) => sum.plus(toMoney(c.amount)), toMoney(0));
      const open = toMoney(invoice.totals.total).plus(charged).minus(settled).minus(credited);
      const amount = open.eq(toMoney(invoice.totals.total)) ? invoice.totalBase : toBaseAmount(toFixedAmount(open), invoice.fxRate);
      return { label: label(invoice, language), link: `/invoice/${invoice.uuid}/detail`, amount };
    })
    .filter((document) => !toMoney(document.amount).isZero());
}

/**
 * Output VAT of the invoices sent in `range`: per VAT line with a VAT account (not 0 %), the VAT in
 * the books' currency as the sent entry credited it (the invoice currency's VAT × fxRate, half-up
 * to the cent). A negative VAT line is posted as a debit, which the check does not compare, so it
 * is left out here too.
 */
export async function salesVatOfPeriod(tx: Tx, instanceId: string, range: DateRange): Promise<DocumentsVat> {
  const sent = await sentBetween(tx, instanceId, range.from, range.to);
  let total: Money = toMoney(0);
  let documents = 0;
  for (const invoice of sent) {
    let vat: Money = toMoney(0);
    for (const line of invoice.totals.vatLines) {
      if (!vatAccountsFor(line.rate).vat || !toMoney(line.vat).gt(0)) continue;
      vat = vat.plus(invoice.currency === invoice.baseCurrency ? toMoney(line.vat) : toMoney(toBaseAmount(toFixedAmount(line.vat), invoice.fxRate)));
    }
    if (vat.gt(0)) documents += 1;
    total = total.plus(vat);
  }
  return { amount: toFixedAmount(total), documents };
}
