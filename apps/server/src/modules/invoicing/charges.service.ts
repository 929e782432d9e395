/**
 * Charges on a sent invoice (issue 15 §3, decision 030): dunning fees and late-payment interest
 * added to the invoice's receivable after it was sent. Each is posted at its date (debit receivable
 * 1100 / credit the given revenue account, no VAT: a fee for late payment is no consideration for a
 * supply) with the invoice as its source, and it is part of the invoice's open amount, so the
 * reminder's QR-bill (open + fee) is paid against the invoice in one payment, as in Bexio.
 */
import { InvoiceStatus, formatReferenceNumber, toFixedAmount, toMoney } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { controlAccount, postJournalEntry } from '../accounting/accounting.service.js';
import { loadRow } from './documents.service.js';
import { invoicingError } from './invoicing.errors.js';

export type ChargeKind = 'dunning_fee' | 'interest';

/** One charge (invoice currency). */
export interface InvoiceCharge {
  id: number;
  kind: ChargeKind;
  date: string;
  amount: string;
  entryId: number | null;
  /** What charged it (a reminder's uuid). */
  sourceRef: string | null;
}

/** A row of `CHARGE_COLUMNS`. */
export type ChargeRow = { id: number; invoice_uuid: string; kind: ChargeKind; date_charge: string; amount: string; entry_id: number | null; source_ref: string | null };
export const CHARGE_COLUMNS = 'id, invoice_uuid, kind, date_charge::text AS date_charge, amount::text AS amount, entry_id, source_ref';
export const toCharge = (row: ChargeRow): InvoiceCharge => ({
  id: row.id,
  kind: row.kind,
  date: row.date_charge,
  amount: toFixedAmount(row.amount),
  entryId: row.entry_id,
  sourceRef: row.source_ref,
});

/** The charges of the invoices, by invoice uuid, oldest first. */
export async function chargesOfInvoices(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<Map<string, InvoiceCharge[]>> {
  const out = new Map<string, InvoiceCharge[]>();
  if (invoiceUuids.length === 0) return out;
  const rows = await tx.query<ChargeRow>(
    `SELECT ${CHARGE_COLUMNS} FROM invoice_charge WHERE instance_id = $1 AND invoice_uuid = ANY($2::uuid[]) ORDER BY date_charge, id`,
    [instanceId, invoiceUuids],
  );
  for (const row of rows) out.set(row.invoice_uuid, [...(out.get(row.invoice_uuid) ?? []), toCharge(row)]);
  return out;
}

export interface ChargeInput {
  invoiceUuid: string;
  kind: ChargeKind;
  /** YYYY-MM-DD, the posting's date. */
  date: string;
  /** > 0, 2 decimals, in the invoice's currency (which must be the books' currency). */
  amount: string;
  /** The revenue account credited (e.g. 3600 for fees, 6950 for interest). */
  accountId: number;
  description: string;
  sourceRef: string | null;
}

/**
 * Adds a charge to a sent invoice in the caller's transaction and posts it: debit receivable,
 * credit `accountId`, source 'invoice' with the invoice's uuid (decision 014). Locks the invoice
 * row. 409 `status_not_allowed` unless the invoice is sent; 409 `charge_currency` for an invoice in
 * another currency than the books' (a fee is charged in the books' currency only); lock date 409.
 */
export async function addInvoiceCharge(tx: Tx, instanceId: string, userId: string | null, input: ChargeInput): Promise<InvoiceCharge> {
  const row = await loadRow(tx, instanceId, input.invoiceUuid, true);
  const ref = formatReferenceNumber(row.id);
  if (row.status_id !== InvoiceStatus.sent) throw invoicingError('status_not_allowed', `invoice ${ref} is not open: nothing is charged`, { uuid: 'not sent' });
  if (row.currency_id !== row.base_currency_id) {
    throw invoicingError('charge_currency', `invoice ${ref} is in a foreign currency: fees and interest are charged on invoices in the books' currency only`, { uuid: 'foreign currency' });
  }
  const amount = toFixedAmount(toMoney(input.amount));
  const receivable = await controlAccount(tx, instanceId, 'receivable');
  const entryId = await postJournalEntry(tx, instanceId, userId, {
    dateLedger: input.date,
    description: `${input.description} ${ref} ${row.company_name}`.slice(0, 500),
    source: 'invoice',
    sourceRef: row.uuid,
    lines: [
      { accountId: receivable, direction: 1, amount },
      { accountId: input.accountId, direction: -1, amount },
    ],
  });
  const [inserted] = await tx.query<{ id: number }>(
    `INSERT INTO invoice_charge (instance_id, invoice_uuid, kind, date_charge, amount, entry_id, source_ref) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [instanceId, row.uuid, input.kind, input.date, amount, entryId, input.sourceRef],
  );
  return { id: inserted!.id, kind: input.kind, date: input.date, amount, entryId, sourceRef: input.sourceRef };
}

/** Locks the invoice row (FOR UPDATE) for a change made by another module; 404 unknown invoice. */
export async function lockInvoice(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await loadRow(tx, instanceId, uuid, true);
}
