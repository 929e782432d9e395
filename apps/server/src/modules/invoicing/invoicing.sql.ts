/** SQL of the invoicing module (tables of migrations 0005 and 0007). All queries run inside withInstance. */
import type { Tx } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';

/**
 * The invoice's own columns. Its company, address, payment profile and the books' currency belong
 * to other modules and are asked of them (documents.service.ts `withParties`, issue 11 §3).
 */
export interface InvoiceRecord extends Record<string, unknown> {
  uuid: string;
  id: number;
  company_uuid: string;
  address_id: number;
  payment_profile_id: number;
  status_id: number;
  vat_rate: string;
  currency_id: number;
  fx_rate: string;
  date_invoice: string;
  date_due: string;
  description: string;
  payment_reference: string;
  bank_ref: string | null;
  ledger_date: string | null;
  sent_entry_id: number | null;
  paid_entry_id: number | null;
  denied_entry_id: number | null;
  shared: boolean;
}

/** A line's own columns; its revenue account's number and name are asked of accounting. */
export interface InvoiceItemRecord extends Record<string, unknown> {
  id: number;
  invoice_uuid: string;
  label: string;
  quantity: string;
  price: string;
  discount: string | null;
  discount_abs: string | null;
  currency_id: number;
  fx_rate: string;
  vat_rate: string | null;
  account_id: number | null;
  created_at: string;
}

const INVOICE_SELECT = `
  SELECT i.uuid, i.id, i.company_uuid, i.address_id, i.payment_profile_id, i.status_id, i.vat_rate::text AS vat_rate, i.currency_id,
         i.fx_rate::text AS fx_rate, i.date_invoice, i.date_due, i.description, i.payment_reference, i.bank_ref, i.ledger_date,
         i.sent_entry_id, i.paid_entry_id, i.denied_entry_id,
         EXISTS (SELECT 1 FROM invoice_share s WHERE s.instance_id = i.instance_id AND s.invoice_uuid = i.uuid) AS shared
    FROM invoice i`;

export interface InvoiceFilter {
  status?: number | undefined;
  companyUuid?: string | undefined;
  /** Invoices of any of these companies (the company list's open amounts: one page of companies). */
  companyUuids?: readonly string[] | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  text?: string | undefined;
}

/**
 * Invoices matching the filter, newest first. `uuids` / `ids` restrict to those invoices; the text
 * also matches the invoices of `namedCompanyUuids` (the companies whose name contains it, asked of
 * companies by the caller).
 */
export async function selectInvoices(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[]; namedCompanyUuids?: readonly string[] },
): Promise<InvoiceRecord[]> {
  const { where, params } = invoiceWhere(instanceId, filter);
  return tx.query<InvoiceRecord>(`${INVOICE_SELECT} WHERE ${where} ORDER BY i.date_invoice DESC, i.id DESC`, params);
}

/**
 * One page of `selectInvoices` (newest first, db/paging.ts): by `page` or after `cursor` (date,
 * id), with the number matching counted up to COUNT_CAP.
 */
export async function selectInvoicePage(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { namedCompanyUuids?: readonly string[] },
  page: PageRequest,
): Promise<{ rows: InvoiceRecord[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { where, params } = invoiceWhere(instanceId, filter);
  const counted = await countUpTo(tx, `SELECT 1 FROM invoice i WHERE ${where}`, params, page);
  const after = page.cursor ? ` AND ${afterKey(['i.date_invoice', 'i.id'], ['date', 'int'], 'desc', decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
  const rows = await tx.query<InvoiceRecord>(
    `${INVOICE_SELECT} WHERE ${where}${after} ORDER BY i.date_invoice DESC, i.id DESC ${limitOffset(page)}`,
    params,
  );
  const paged = pageOf(rows, page, (row) => [row.date_invoice, row.id], counted);
  return { rows: paged.rows, ...counted, nextCursor: paged.nextCursor };
}

function invoiceWhere(
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[]; namedCompanyUuids?: readonly string[] },
): { where: string; params: unknown[] } {
  const where = ['i.instance_id = $1'];
  const params: unknown[] = [instanceId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.uuids) add('i.uuid = ANY(?::uuid[])', filter.uuids);
  if (filter.ids) add('i.id = ANY(?::int[])', filter.ids);
  if (filter.status !== undefined) add('i.status_id = ?', filter.status);
  if (filter.companyUuid) add('i.company_uuid = ?', filter.companyUuid);
  if (filter.companyUuids) add('i.company_uuid = ANY(?::uuid[])', filter.companyUuids);
  if (filter.dateFrom) add('i.date_invoice >= ?', filter.dateFrom);
  if (filter.dateTo) add('i.date_invoice <= ?', filter.dateTo);
  if (filter.text) {
    params.push(containsPattern(filter.text));
    const p = `$${params.length}`;
    params.push(filter.namedCompanyUuids ?? []);
    const named = `$${params.length}`;
    where.push(
      `(i.company_uuid = ANY(${named}::uuid[]) OR i.description ILIKE ${p} OR ('BILAN' || lpad(i.id::text, 6, '0')) ILIKE ${p} OR i.payment_reference ILIKE ${p})`,
    );
  }
  return { where: where.join(' AND '), params };
}

const ITEM_SELECT = `
  SELECT it.id, it.invoice_uuid, it.label, it.quantity::text AS quantity, it.price::text AS price, it.discount::text AS discount,
         it.discount_abs::text AS discount_abs, it.currency_id, it.fx_rate::text AS fx_rate, it.vat_rate::text AS vat_rate,
         it.account_id, it.created_at
    FROM invoice_item it`;

export async function selectItems(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<InvoiceItemRecord[]> {
  return tx.query<InvoiceItemRecord>(
    `${ITEM_SELECT} WHERE it.instance_id = $1 AND it.invoice_uuid = ANY($2::uuid[]) ORDER BY it.id`,
    [instanceId, invoiceUuids],
  );
}

export interface ItemColumns {
  label: string;
  quantity: string;
  price: string;
  discount: string | null;
  discountAbs: string | null;
  currencyId: number;
  fxRate: string;
  /** Fraction, or null for the invoice's rate. */
  vatRate: string | null;
  accountId: number | null;
}

export async function insertItem(tx: Tx, instanceId: string, invoiceUuid: string, item: ItemColumns): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO invoice_item (instance_id, id, invoice_uuid, label, quantity, price, discount, discount_abs, currency_id, fx_rate, vat_rate, account_id)
     VALUES ($1, next_ids($1, 'invoice_item'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [instanceId, invoiceUuid, item.label, item.quantity, item.price, item.discount, item.discountAbs, item.currencyId, item.fxRate, item.vatRate, item.accountId],
  );
  return row!.id;
}

export async function updateItem(tx: Tx, instanceId: string, id: number, item: ItemColumns): Promise<void> {
  await tx.query(
    `UPDATE invoice_item SET label = $3, quantity = $4, price = $5, discount = $6, discount_abs = $7, currency_id = $8, fx_rate = $9,
            vat_rate = $10, account_id = $11
      WHERE instance_id = $1 AND id = $2`,
    [instanceId, id, item.label, item.quantity, item.price, item.discount, item.discountAbs, item.currencyId, item.fxRate, item.vatRate, item.accountId],
  );
}

export async function selectItem(tx: Tx, instanceId: string, id: number): Promise<InvoiceItemRecord | undefined> {
  const [row] = await tx.query<InvoiceItemRecord>(
    `${ITEM_SELECT} WHERE it.instance_id = $1 AND it.id = $2`,
    [instanceId, id],
  );
  return row;
}
