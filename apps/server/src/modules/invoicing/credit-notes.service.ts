/**
 * Credit notes (Gutschriften) of sales invoices (issue 15 §2, decision 027): a reduction of a sent
 * invoice, in full or per line (a quantity or an amount of each line), with its own number
 * (`GS-000001`, per instance), posted at its date as the counter-entry of the credited lines:
 * debit revenue of the original lines' accounts and debit output VAT per rate of the invoice date,
 * credit receivable, each coded with the instance's reduction code of that rate (R81/R26/R38 →
 * Ziffer 235, MWSTG art. 41) or, without one, the sales code (a negative turnover). The invoice's
 * open amount drops by the credit note's total; when nothing is open any more the invoice is paid
 * (3), so it leaves the open items, the debtors and the dunning run.
 */
import { InvoiceStatus, formatReferenceNumber, invoiceTotals, toBaseAmount, toFixedAmount, toMoney, type InvoiceTotals, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';
import { getJournalEntry, listVatCodes, postJournalEntry, todayInSwitzerland, type PostingInput } from '../accounting/accounting.service.js';
import { invoicesByUuids, itemsOf, loadRow, toInvoice, type Invoice } from './documents.service.js';
import { invoicingError, invoicingFieldError } from './invoicing.errors.js';
import { formatCreditNoteNumber, openInvoiceAmounts } from './payments.service.js';
import { sentPostings } from './postings.service.js';

export interface CreditNoteLineInput {
  /** The invoice line (InvoiceItem.id). */
  itemId: number;
  /** Quantity of the line's unit to credit (> 0, ≤ 4 decimals); the amount is the line total × quantity / line quantity. */
  quantity?: string | null | undefined;
  /** Net amount of the line to credit (> 0, 2 decimals), instead of a quantity. */
  amount?: string | null | undefined;
}

export interface CreditNoteInput {
  /** YYYY-MM-DD, on or after the invoice was sent; default today (Switzerland). */
  date?: string | null | undefined;
  reason?: string | null | undefined;
  /** Credit everything not credited yet (every line's rest); `lines` must then be absent. */
  full?: boolean | null | undefined;
  lines?: readonly CreditNoteLineInput[] | null | undefined;
  /** One-time confirmation token (the detail's `creditToken`): the same token creates one credit note. */
  token: string;
}

export interface CreditNote {
  uuid: string;
  /** 'GS-' + number padded to 6. */
  number: string;
  numberInt: number;
  invoice: { uuid: string; refNumber: string };
  company: { uuid: string; name: string };
  date: string;
  reason: string;
  currency: string;
  totals: InvoiceTotals;
  entryId: number | null;
  lines: { itemId: number; name: string; quantity: string | null; amount: string; vat: string | null }[];
  createdAt: string;
}

type NoteRow = {
  id: number;
  uuid: string;
  number: number;
  invoice_uuid: string;
  date_credit: string;
  reason: string;
  entry_id: number | null;
  created_at: string;
};

const NOTE_COLUMNS = `id, uuid, number, invoice_uuid, date_credit::text AS date_credit, reason, entry_id, created_at::text AS created_at`;

/** Credited per invoice line so far: amount and quantity (null once a line was credited by amount). */
async function creditedPerItem(tx: Tx, instanceId: string, invoiceUuid: string): Promise<Map<number, { amount: Money; quantity: Money | null }>> {
  const rows = await tx.query<{ invoice_item_id: number; amount: string; quantity: string | null }>(
    `SELECT i.invoice_item_id, i.amount::text AS amount, i.quantity::text AS quantity FROM credit_note_item i
       JOIN credit_note n ON n.instance_id = i.instance_id AND n.id = i.credit_note_id
      WHERE i.instance_id = $1 AND n.invoice_uuid = $2`,
    [instanceId, invoiceUuid],
  );
  const out = new Map<number, { amount: Money; quantity: Money | null }>();
  for (const row of rows) {
    const had = out.get(row.invoice_item_id) ?? { amount: toMoney(0), quantity: toMoney(0) };
    out.set(row.invoice_item_id, {
      amount: had.amount.plus(toMoney(row.amount)),
      quantity: had.quantity === null || row.quantity === null ? null : had.quantity.plus(toMoney(row.quantity)),
    });
  }
  return out;
}

/** The credit notes of one invoice (or of the given uuids), oldest first, with their lines and totals. */
export async function listCreditNotes(tx: Tx, instanceId: string, filter: { invoiceUuid?: string; uuids?: readonly string[] }): Promise<CreditNote[]> {
  const where: string[] = ['instance_id = $1'];
  const values: unknown[] = [instanceId];
  if (filter.invoiceUuid) {
    values.push(filter.invoiceUuid);
    where.push(`invoice_uuid = $${values.length}`);
  }
  if (filter.uuids) {
    values.push(filter.uuids);
    where.push(`uuid = ANY($${values.length}::uuid[])`);
  }
  const notes = await tx.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM credit_note WHERE ${where.join(' AND ')} ORDER BY date_credit, number`, values);
  return toCreditNotes(tx, instanceId, notes);
}

/**
 * One page of the credit notes of one invoice (`invoiceUuid`) or of every invoice, oldest first
 * (date, then number), read and counted in SQL (db/paging.ts, decision 036): by `page` or after
 * `cursor` (the date and number of the previous page's last note). `total` is counted up to
 * COUNT_CAP (a walk's later pages answer the count its cursor carries). 400 on `cursor` for a
 * cursor that is not one of this list's.
 */
export async function listCreditNotePage(
  tx: Tx,
  instanceId: string,
  filter: { invoiceUuid?: string | undefined },
  page: PageRequest,
): Promise<{ data: CreditNote[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, filter.invoiceUuid ?? null];
  const where = 'instance_id = $1 AND ($2::uuid IS NULL OR invoice_uuid = $2::uuid)';
  const counted = await countUpTo(tx, `SELECT 1 FROM credit_note WHERE ${where}`, params, page);
  const after = page.cursor ? ` AND ${afterKey(['date_credit', 'number'], ['date', 'int'], 'asc', decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
  const rows = await tx.query<NoteRow>(`SELECT ${NOTE_COLUMNS} FROM credit_note WHERE ${where}${after} ORDER BY date_credit, number ${limitOffset(page)}`, params);
  const paged = pageOf(rows, page, (row) => [row.date_credit, row.number], counted);
  return { data: await toCreditNotes(tx, instanceId, paged.rows), ...counted, nextCursor: paged.nextCursor };
}

/** Credit notes of `notes` (in their order) with their invoice's parties, lines and totals: a few queries for the whole list. */
async function toCreditNotes(tx: Tx, instanceId: string, notes: readonly NoteRow[]): Promise<CreditNote[]> {
  if (notes.length === 0) return [];
  const invoices = new Map((await invoicesByUuids(tx, instanceId, [...new Set(notes.map((n) => n.invoice_uuid))])).map((invoice) => [invoice.uuid, invoice]));
  const items = await tx.query<{ credit_note_id: number; invoice_item_id: number; quantity: string | null; amount: string }>(
    `SELECT credit_note_id, invoice_item_id, quantity::text AS quantity, amount::text AS amount FROM credit_note_item
      WHERE instance_id = $1 AND credit_note_id = ANY($2::int[]) ORDER BY id`,
    [instanceId, notes.map((n) => n.id)],
  );
  return notes.map((note) => {
    const invoice = invoices.get(note.invoice_uuid)!;
    const lines = items
      .filter((item) => item.credit_note_id === note.id)
      .map((item) => {
        const line = invoice.items.find((i) => i.id === item.invoice_item_id);
        return {
          itemId: item.invoice_item_id,
          name: line?.name ?? '',
          quantity: item.quantity === null ? null : toMoney(item.quantity).toFixed(),
          amount: toFixedAmount(item.amount),
          vat: line?.vat ?? null,
        };
      });
    return {
      uuid: note.uuid,
      number: formatCreditNoteNumber(note.number),
      numberInt: note.number,
      invoice: { uuid: invoice.uuid, refNumber: invoice.refNumber },
      company: invoice.company,
      date: note.date_credit,
      reason: note.reason,
      currency: invoice.currency,
      totals: creditTotals(invoice, lines),
      entryId: note.entry_id,
      lines,
      createdAt: new Date(note.created_at).toISOString(),
    };
  });
}

/** Totals of credited lines as an invoice of them: VAT per rate of the invoice date, 5-Rappen rounding in CHF. */
function creditTotals(invoice: Invoice, lines: readonly { amount: string; vat: string | null }[]): InvoiceTotals {
  return invoiceTotals(
    lines.map((line) => ({ quantity: '1', price: line.amount, vatRate: line.vat })),
    invoice.vat,
    invoice.currency,
    invoice.dateInvoice,
  );
}

const QUANTITY = /^\d{1,14}(\.\d{1,4})?$/;
const AMOUNT = /^\d{1,18}(\.\d{1,2})?$/;

/**
 * Creates a credit note of a sent invoice in the caller's transaction (issue 15 §2, decision 027).
 * Lines: `full` credits every line's rest; otherwise each of `lines` gives a quantity or an amount.
 * Postings at `date`: see the file comment. 400 (nothing written): `lines` missing or empty,
 * `lines.N.itemId` not of the invoice or twice, `lines.N.quantity` / `lines.N.amount` not > 0 or
 * more than what is left of the line, `lines` when the total is more than the open amount (money is
 * not owed back: reverse a payment first), `date` before the invoice was sent. 409: the invoice is
 * pending, denied or paid; lock date. The invoice row is locked first: the same `token` answers the
 * credit note it created (parallel calls included) and creates nothing.
 */
export async function createCreditNote(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  invoiceUuid: string,
  input: CreditNoteInput,
): Promise<{ creditNote: CreditNote; repeated: boolean }> {
  const row = await loadRow(tx, instanceId, invoiceUuid, true);
  const ref = formatReferenceNumber(row.id);
  const [done] = await tx.query<{ uuid: string }>('SELECT uuid FROM credit_note WHERE instance_id = $1 AND invoice_uuid = $2 AND token = $3', [
    instanceId,
    row.uuid,
    input.token,
  ]);
  if (done) return { creditNote: (await listCreditNotes(tx, instanceId, { uuids: [done.uuid] }))[0]!, repeated: true };
  if (row.status_id !== InvoiceStatus.sent) {
    const why = row.status_id === InvoiceStatus.pending ? 'pending: a pending invoice is changed, not credited' : row.status_id === InvoiceStatus.paid ? 'paid: nothing is open to credit (reverse a payment first)' : 'denied';
    throw invoicingError('status_not_allowed', `invoice ${ref} is ${why}`, { uuid: `not allowed: invoice is ${why.split(':')[0]}` });
  }
  const invoice = toInvoice(row, await itemsOf(tx, instanceId, [row.uuid]));
  const credited = await creditedPerItem(tx, instanceId, row.uuid);
  const restOf = (itemId: number, total: string) => toMoney(total).minus(credited.get(itemId)?.amount ?? toMoney(0));

  type Line = { itemId: number; name: string; quantity: string | null; amount: string; vat: string | null };
  const lines: Line[] = [];
  if (input.full) {
    if (input.lines && input.lines.length > 0) throw invoicingFieldError('credit_note_invalid', 'lines', 'give either full or lines, not both');
    for (const item of invoice.items) {
      const rest = restOf(item.id, item.total);
      if (!rest.gt(0)) continue;
      const had = credited.get(item.id);
      const quantity = had === undefined ? item.amount : had.quantity === null ? null : toMoney(item.amount).minus(had.quantity).toFixed();
      lines.push({ itemId: item.id, name: item.name, quantity, amount: toFixedAmount(rest), vat: item.vat });
    }
    if (lines.length === 0) throw invoicingFieldError('credit_note_invalid', 'full', `invoice ${ref} is credited in full already`);
  } else {
    if (!input.lines || input.lines.length === 0) throw invoicingFieldError('credit_note_invalid', 'lines', 'give the lines to credit (or full)');
    const seen = new Set<number>();
    input.lines.forEach((line, index) => {
      const at = `lines.${index}`;
      const item = invoice.items.find((i) => i.id === line.itemId);
      if (!item) throw invoicingFieldError('credit_note_invalid', `${at}.itemId`, `line ${line.itemId} is not a line of invoice ${ref}`);
      if (seen.has(item.id)) throw invoicingFieldError('credit_note_invalid', `${at}.itemId`, `line ${line.itemId} is given twice`);
      seen.add(item.id);
      const byQuantity = line.quantity != null;
      if (byQuantity === (line.amount != null)) throw invoicingFieldError('credit_note_invalid', `${at}.quantity`, 'give either a quantity or an amount');
      const field = byQuantity ? `${at}.quantity` : `${at}.amount`;
      let amount: Money;
      if (byQuantity) {
        if (!QUANTITY.test(line.quantity!) || !toMoney(line.quantity!).gt(0)) throw invoicingFieldError('credit_note_invalid', field, 'must be a quantity greater than 0 with at most 4 decimals');
        if (toMoney(item.amount).isZero()) throw invoicingFieldError('credit_note_invalid', field, 'the line has no quantity: credit an amount');
        if (toMoney(line.quantity!).gt(toMoney(item.amount))) {
          throw invoicingFieldError('credit_note_invalid', field, `${line.quantity} is more than the ${item.amount} invoiced on line "${item.name}"`);
        }
        amount = toMoney(toFixedAmount(toMoney(item.total).times(toMoney(line.quantity!)).dividedBy(toMoney(item.amount))));
      } else {
        if (!AMOUNT.test(line.amount!) || !toMoney(line.amount!).gt(0)) throw invoicingFieldError('credit_note_invalid', field, 'must be an amount greater than 0 with at most 2 decimals');
        amount = toMoney(line.amount!);
      }
      const rest = restOf(item.id, item.total);
      if (amount.gt(rest)) {
        throw invoicingFieldError(
          'credit_note_invalid',
          field,
          `${toFixedAmount(amount)} is more than what is left to credit of line "${item.name}" (${toFixedAmount(rest)} of ${item.total} ${invoice.currency})`,
        );
      }
      lines.push({ itemId: item.id, name: item.name, quantity: byQuantity ? toMoney(line.quantity!).toFixed() : null, amount: toFixedAmount(amount), vat: item.vat });
    });
  }
  const totals = creditTotals(invoice, lines);
  const open = toMoney((await openInvoiceAmounts(tx, instanceId, [invoice])).get(invoice.uuid)!);
  if (toMoney(totals.total).gt(open)) {
    throw invoicingFieldError(
      'credit_note_invalid',
      input.full ? 'full' : 'lines',
      `the credit note's total ${totals.total} is more than the open amount ${toFixedAmount(open)} ${invoice.currency} of invoice ${ref}: no money is owed back by a credit note, reverse a payment first`,
    );
  }
  const date = input.date ?? todayInSwitzerland();
  if (row.sent_entry_id !== null) {
    const sent = await getJournalEntry(tx, instanceId, row.sent_entry_id);
    if (date < sent.dateLedger) throw invoicingFieldError('credit_note_invalid', 'date', `the credit note date must be on or after the date the invoice was sent (${sent.dateLedger})`);
  }
  const reason = (input.reason ?? '').trim();
  if (reason.length > 1000) throw invoicingFieldError('credit_note_invalid', 'reason', 'at most 1000 characters');

  const [numbered] = await tx.query<{ number: number }>("SELECT next_ids($1, 'credit_note') AS number", [instanceId]);
  const number = numbered!.number;
  // The credited lines as an invoice of them: sending would credit revenue and VAT and debit the
  // receivable; the credit note posts exactly the other side, at the rates of the invoice date.
  const credit: Invoice = {
    ...invoice,
    items: lines.map((line) => ({ ...invoice.items.find((i) => i.id === line.itemId)!, total: line.amount })),
    totals,
    totalBase: toBaseAmount(totals.total, invoice.fxRate),
  };
  const codes = await listVatCodes(tx, instanceId);
  const byCode = new Map(codes.map((code) => [code.code, code]));
  const reductionOf = (code: string) => {
    const own = byCode.get(code);
    return own?.kind === 'sales' ? codes.find((c) => c.kind === 'reduction' && c.rateType === own.rateType && c.isActive)?.code : undefined;
  };
  const postings = (await sentPostings(tx, instanceId, credit)).map(
    (line): PostingInput => ({
      ...line,
      direction: (line.direction === 1 ? -1 : 1) as 1 | -1,
      vat: line.vat ? { ...line.vat, code: reductionOf(line.vat.code) ?? line.vat.code } : line.vat,
    }),
  );
  const entryId = await postJournalEntry(tx, instanceId, userId, {
    dateLedger: date,
    description: `Credit note ${formatCreditNoteNumber(number)} for invoice ${ref} ${row.company_name}`.slice(0, 500),
    source: 'invoice',
    sourceRef: row.uuid,
    lines: postings,
  });
  const [note] = await tx.query<{ id: number; uuid: string }>(
    `INSERT INTO credit_note (instance_id, number, invoice_uuid, date_credit, reason, net, vat, total, entry_id, token, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, uuid`,
    [instanceId, number, row.uuid, date, reason, totals.net, totals.vat, totals.total, entryId, input.token, userId],
  );
  for (const line of lines) {
    await tx.query('INSERT INTO credit_note_item (instance_id, credit_note_id, invoice_item_id, quantity, amount) VALUES ($1, $2, $3, $4, $5)', [
      instanceId,
      note!.id,
      line.itemId,
      line.quantity,
      line.amount,
    ]);
  }
  // Nothing open any more: the invoice is settled (paid), so it leaves the open items (decision 027).
  if (open.minus(toMoney(totals.total)).isZero()) {
    await tx.query('UPDATE invoice SET status_id = 3, paid_entry_id = $3, ledger_date = $4 WHERE instance_id = $1 AND uuid = $2 AND status_id = 2', [
      instanceId,
      row.uuid,
      entryId,
      date,
    ]);
  }
  return { creditNote: (await listCreditNotes(tx, instanceId, { uuids: [note!.uuid] }))[0]!, repeated: false };
}

/** One credit note by uuid; 404 `credit_note_not_found`. */
export async function getCreditNote(tx: Tx, instanceId: string, uuid: string): Promise<CreditNote> {
  const [note] = await listCreditNotes(tx, instanceId, { uuids: [uuid] });
  if (!note) throw invoicingError('credit_note_not_found', `credit note ${uuid} not found`, { uuid: 'not found' });
  return note;
}
