/**
 * Cross-module wiring, loaded once at app start (`import './modules/wiring/wiring.js'` in app.ts):
 * the modules leave extension points so none imports the other's internals, and this file plugs
 * them together.
 * - Company ap-ar (spec §2.2 `/company/{uuid}/ap-ar`): receivables from sent invoices, payables
 *   from open bills (pending, approved, in a transaction group).
 * - Bank statement credits (camt.053/054, issue #5 §4) → sent invoices, paid through the invoicing
 *   module's own status change (issue #4 §3: debit bank / credit receivable at the booking date).
 */
import { currencyCodeById, InvoiceStatus, Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { AP_AR_SOURCES, type ApArSource, type OpenAmount, type OpenItem } from '../companies/ap-ar.service.js';
import { setInvoiceMatcher, type InvoiceMatcher } from '../banking/bank-import.service.js';
import { changeStatus, getInvoice, listInvoices } from '../invoicing/invoicing.service.js';
import { OPEN_STATUSES } from '../payables/payables.service.js';

/**
 * Sent invoices of the company (spec §4: sent = open receivable). Amount = the receivable in the
 * books' currency, 2 decimals (`totalBase`: an EUR invoice's total × its fxRate, issue #4 audit §6).
 */
export const invoiceReceivables: ApArSource = {
  requires: ['invoice', 'invoice_item'],
  query: async (tx, instanceId, companyUuid) => {
    const { data } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent, companyUuid });
    return data.map(
      (invoice): OpenItem => ({
        kind: 'receivable',
        document: 'invoice',
        uuid: invoice.uuid,
        id: invoice.id,
        reference: invoice.refNumber,
        date: invoice.dateInvoice,
        dueDate: invoice.dateDue,
        amount: invoice.totalBase,
        currency: invoice.baseCurrency,
        link: `/invoice/${invoice.uuid}/detail`,
      }),
    );
  },
  // The company list: all sent invoices once (open ones only, so few), kept for the listed companies.
  amounts: async (tx, instanceId, companyUuids) => {
    const listed = new Set(companyUuids);
    const { data } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent });
    return data
      .filter((invoice) => listed.has(invoice.company.uuid))
      .map((invoice): OpenAmount => ({ companyUuid: invoice.company.uuid, kind: 'receivable', amount: invoice.totals.total }));
  },
};

type OpenBillRow = { uuid: string; id: number; company_uuid: string; company_name: string; reference_number: string | null; date: string; due_date: string | null; amount: string; exchange_rate: string };

/** Open bills (pending, approved, in a transaction group) of the given companies, by date. */
async function openBills(tx: Tx, instanceId: string, companyUuids: readonly string[]): Promise<OpenBillRow[]> {
  return tx.query<OpenBillRow>(
    `SELECT p.uuid, p.id, p.company_uuid, c.name AS company_name, p.reference_number, p.date::text AS date, p.due_date::text AS due_date,
            p.amount::text AS amount, p.exchange_rate::text AS exchange_rate
       FROM payable p JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
      WHERE p.instance_id = $1 AND p.company_uuid = ANY($2::uuid[]) AND p.status = ANY($3::smallint[]) ORDER BY p.date, p.id`,
    [instanceId, companyUuids, OPEN_STATUSES],
  );
}

/** Gross × exchange rate: the bill in the instance currency, 2 decimals half-up. */
const billAmountBase = (row: OpenBillRow): string => toFixedAmount(new Money(row.amount).times(row.exchange_rate));

/**
 * Open bills of the company (pending, approved, in a transaction group). Amount = gross amount ×
 * exchange rate, i.e. in the instance currency, 2 decimals. The web app has no bill detail page
 * (routes/bills.tsx: list, add, creditors), so the link opens the open-bills list searched for the
 * bill's reference number, or for the supplier when the bill has none.
 */
export const billPayables: ApArSource = {
  requires: ['payable'],
  query: async (tx, instanceId, companyUuid) => {
    const rows = await openBills(tx, instanceId, [companyUuid]);
    const [instance] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
    const currency = currencyCodeById(instance?.currency_id ?? 1) ?? 'CHF';
    return rows.map(
      (row): OpenItem => ({
        kind: 'payable',
        document: 'bill',
        uuid: row.uuid,
        id: row.id,
        reference: row.reference_number || `Bill ${row.id}`,
        date: row.date,
        dueDate: row.due_date,
        amount: billAmountBase(row),
        currency,
        link: `/bill?${new URLSearchParams({ filterStatus: 'true', text: row.reference_number || row.company_name })}`,
      }),
    );
  },
  amounts: async (tx, instanceId, companyUuids) =>
    (await openBills(tx, instanceId, companyUuids)).map((row): OpenAmount => ({ companyUuid: row.company_uuid, kind: 'payable', amount: billAmountBase(row) })),
};

/** QR reference (27 digits) or ISO 11649 creditor reference as stored on invoices: no spaces, upper case. */
const normalizeReference = (reference: string) => reference.replace(/\s+/g, '').toUpperCase();

/**
 * Matches a bank credit to the sent invoice with the same payment reference (QRR or SCOR, SIX IG
 * QR-bill §4.3.2 / ISO 11649) and the same amount (the invoice total in CHF), then marks it paid
 * via `changeStatus` at the booking date with the bank's reference (AcctSvcrRef, else end-to-end
 * id) as bankRef. Only invoices whose payment profile books on the statement's ledger account
 * qualify. A credit of another amount or currency, or without a known reference, stays
 * unmatched for manual matching. A status change the ledger refuses (e.g. locked period, 409) is
 * rolled back to a savepoint and leaves the credit unmatched instead of failing the whole import.
 */
export const matchInvoiceCredit: InvoiceMatcher = async (tx: Tx, instanceId, credit) => {
  if (!credit.reference || (credit.currency && credit.currency !== 'CHF')) return null;
  const reference = normalizeReference(credit.reference);
  const [exists] = await tx.query<{ ok: boolean }>("SELECT to_regclass('invoice') IS NOT NULL AS ok");
  if (!exists?.ok) return null;
  // Only invoices paid to this bank account: their payment profile's ledger account is the one the
  // statement is for, so the paid posting debits the account the money really reached.
  const candidates = await tx.query<{ uuid: string }>(
    `SELECT i.uuid FROM invoice i JOIN payment_profile pp ON pp.instance_id = i.instance_id AND pp.id = i.payment_profile_id
      WHERE i.instance_id = $1 AND i.status_id = $2 AND i.payment_reference = $3 AND pp.account_id = $4 ORDER BY i.id FOR UPDATE OF i`,
    [instanceId, InvoiceStatus.sent, reference, credit.accountId],
  );
  if (!candidates.length) return null;
  let invoice;
  for (const candidate of candidates) {
    const found = await getInvoice(tx, instanceId, candidate.uuid);
    if (new Money(found.totals.total).eq(credit.amount)) {
      invoice = found;
      break;
    }
  }
  if (!invoice) return null;
  await tx.query('SAVEPOINT invoice_match');
  try {
    const paid = await changeStatus(tx, instanceId, null, {
      uuid: invoice.uuid,
      status: InvoiceStatus.paid,
      ledgerDate: credit.bookingDate,
      bankRef: credit.accountServicerRef ?? credit.endToEndId,
    });
    await tx.query('RELEASE SAVEPOINT invoice_match');
    const entry = paid.entries.find((e) => e.kind === 'paid');
    return entry ? { invoiceUuid: paid.uuid, entryId: entry.id } : null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT invoice_match');
    return null;
  }
};

// Registered once, at import (app start; app.ts imports this file after the modules). The invoicing
// module may register its own invoice source on load (branch issue4b): then that one is kept.
if (!AP_AR_SOURCES.some((source) => source.requires.includes('invoice'))) AP_AR_SOURCES.push(invoiceReceivables);
if (!AP_AR_SOURCES.some((source) => source.requires.includes('payable'))) AP_AR_SOURCES.push(billPayables);
setInvoiceMatcher(matchInvoiceCredit);
