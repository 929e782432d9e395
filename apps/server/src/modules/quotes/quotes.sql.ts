/** SQL of the quotes module (tables quote and quote_item of migration 0040). All queries run inside withInstance. */
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';

export type QuoteStatus = 'draft' | 'sent' | 'accepted' | 'declined';

export interface QuoteRecord extends Record<string, unknown> {
  uuid: string;
  id: number;
  company_uuid: string;
  address_id: number;
  payment_profile_id: number;
  status: QuoteStatus;
  vat_rate: string;
  currency_id: number;
  fx_rate: string;
  date_quote: string;
  valid_until: string;
  description: string;
  invoice_uuid: string | null;
  created_at: string;
}

export interface QuoteItemRecord extends Record<string, unknown> {
  id: number;
  quote_uuid: string;
  label: string;
  quantity: string;
  price: string;
  discount: string | null;
  discount_abs: string | null;
  vat_rate: string | null;
  account_id: number | null;
}

/** A line's columns as stored (the quote's currency). */
export interface QuoteItemColumns {
  label: string;
  quantity: string;
  price: string;
  discount: string | null;
  discountAbs: string | null;
  vatRate: string | null;
  accountId: number | null;
}

/** The head's columns as stored. */
export interface QuoteColumns {
  companyUuid: string;
  addressId: number;
  paymentProfileId: number;
  vatRate: string;
  currencyId: number;
  fxRate: string;
  dateQuote: string;
  validUntil: string;
  description: string;
}

const QUOTE_SELECT = `
  SELECT q.uuid, q.id, q.company_uuid, q.address_id, q.payment_profile_id, q.status, q.vat_rate::text AS vat_rate, q.currency_id,
         q.fx_rate::text AS fx_rate, q.date_quote::text AS date_quote, q.valid_until::text AS valid_until, q.description, q.invoice_uuid,
         q.created_at::text AS created_at
    FROM quote q`;

/** Quotes of the instance, newest first, optionally of one status or only `uuids`. */
export async function selectQuotes(tx: Tx, instanceId: string, filter: { status?: QuoteStatus | undefined; uuids?: readonly string[] }): Promise<QuoteRecord[]> {
  return tx.query<QuoteRecord>(
    `${QUOTE_SELECT} WHERE q.instance_id = $1 AND ($2::text IS NULL OR q.status = $2) AND ($3::uuid[] IS NULL OR q.uuid = ANY($3::uuid[]))
      ORDER BY q.date_quote DESC, q.id DESC`,
    [instanceId, filter.status ?? null, filter.uuids ?? null],
  );
}

/** One page of quotes, newest first (db/paging.ts): by `page` or after `cursor` (date, number), counted up to COUNT_CAP. */
export async function selectQuotePage(
  tx: Tx,
  instanceId: string,
  status: QuoteStatus | undefined,
  page: PageRequest,
): Promise<{ rows: QuoteRecord[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, status ?? null];
  const where = 'q.instance_id = $1 AND ($2::text IS NULL OR q.status = $2)';
  const counted = await countUpTo(tx, `SELECT 1 FROM quote q WHERE ${where}`, params, page);
  const after = page.cursor ? ` AND ${afterKey(['q.date_quote', 'q.id'], ['date', 'int'], 'desc', decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
  const rows = await tx.query<QuoteRecord>(`${QUOTE_SELECT} WHERE ${where}${after} ORDER BY q.date_quote DESC, q.id DESC ${limitOffset(page)}`, params);
  const paged = pageOf(rows, page, (row) => [row.date_quote, row.id], counted);
  return { rows: paged.rows, ...counted, nextCursor: paged.nextCursor };
}

/** One quote by uuid or number; with `lock` its row is locked (FOR UPDATE) until the transaction ends. */
export async function selectQuote(tx: Tx, instanceId: string, key: string | number, lock = false): Promise<QuoteRecord | undefined> {
  const [row] = await tx.query<QuoteRecord>(
    `${QUOTE_SELECT} WHERE q.instance_id = $1 AND ${typeof key === 'number' ? 'q.id = $2' : 'q.uuid = $2'}${lock ? ' FOR UPDATE' : ''}`,
    [instanceId, key],
  );
  return row;
}

export async function selectQuoteItems(tx: Tx, instanceId: string, quoteUuids: readonly string[]): Promise<QuoteItemRecord[]> {
  return tx.query<QuoteItemRecord>(
    `SELECT id, quote_uuid, label, quantity::text AS quantity, price::text AS price, discount::text AS discount,
            discount_abs::text AS discount_abs, vat_rate::text AS vat_rate, account_id
       FROM quote_item WHERE instance_id = $1 AND quote_uuid = ANY($2::uuid[]) ORDER BY position, id`,
    [instanceId, quoteUuids],
  );
}

export async function insertQuote(tx: Tx, instanceId: string, userId: string | null, head: QuoteColumns): Promise<string> {
  const [row] = await tx.query<{ uuid: string }>(
    `INSERT INTO quote (instance_id, id, company_uuid, address_id, payment_profile_id, vat_rate, currency_id, fx_rate, date_quote, valid_until,
                        description, created_by)
     VALUES ($1, next_ids($1, 'quote'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING uuid`,
    [instanceId, head.companyUuid, head.addressId, head.paymentProfileId, head.vatRate, head.currencyId, head.fxRate, head.dateQuote, head.validUntil, head.description, userId],
  );
  return row!.uuid;
}

export async function updateQuoteHead(tx: Tx, instanceId: string, uuid: string, head: QuoteColumns): Promise<void> {
  await tx.query(
    `UPDATE quote SET company_uuid = $3, address_id = $4, payment_profile_id = $5, vat_rate = $6, currency_id = $7, fx_rate = $8,
            date_quote = $9, valid_until = $10, description = $11
      WHERE instance_id = $1 AND uuid = $2`,
    [instanceId, uuid, head.companyUuid, head.addressId, head.paymentProfileId, head.vatRate, head.currencyId, head.fxRate, head.dateQuote, head.validUntil, head.description],
  );
}

/** Replaces the quote's lines with `items`, in their order. */
export async function replaceQuoteItems(tx: Tx, instanceId: string, uuid: string, items: readonly QuoteItemColumns[]): Promise<void> {
  await tx.query('DELETE FROM quote_item WHERE instance_id = $1 AND quote_uuid = $2', [instanceId, uuid]);
  for (const [position, item] of items.entries()) {
    await tx.query(
      `INSERT INTO quote_item (instance_id, quote_uuid, position, label, quantity, price, discount, discount_abs, vat_rate, account_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [instanceId, uuid, position, item.label, item.quantity, item.price, item.discount, item.discountAbs, item.vatRate, item.accountId],
    );
  }
}

/**
 * Moves the quote from `from` to `to`; conditional on its status, so of parallel identical changes
 * one succeeds. Returns whether this call changed it.
 */
export async function updateQuoteStatus(tx: Tx, instanceId: string, uuid: string, from: QuoteStatus, to: QuoteStatus): Promise<boolean> {
  const rows = await tx.query(
    'UPDATE quote SET status = $4, status_changed_at = now() WHERE instance_id = $1 AND uuid = $2 AND status = $3 RETURNING uuid',
    [instanceId, uuid, from, to],
  );
  return rows.length === 1;
}

/** Records the invoice an accepted quote became; only when it has none yet. Returns whether it did. */
export async function setQuoteInvoice(tx: Tx, instanceId: string, uuid: string, invoiceUuid: string): Promise<boolean> {
  const rows = await tx.query(
    "UPDATE quote SET invoice_uuid = $3 WHERE instance_id = $1 AND uuid = $2 AND status = 'accepted' AND invoice_uuid IS NULL RETURNING uuid",
    [instanceId, uuid, invoiceUuid],
  );
  return rows.length === 1;
}

export async function deleteQuoteRow(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await tx.query("DELETE FROM quote WHERE instance_id = $1 AND uuid = $2 AND status = 'draft'", [instanceId, uuid]);
}
