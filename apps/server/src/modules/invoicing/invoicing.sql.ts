/** SQL of the invoicing module (tables of migrations 0005 and 0007). All queries run inside withInstance. */
import type { Row, Tx } from '../../db/database.js';
import { afterKey, countedPage, decodeCursor, limitOffset, pageOf, type CountedRow, type PageRequest } from '../../db/paging.js';
import { referenceKey, textFilter, type TextKey } from '../../db/search.js';
import { companiesNamedLike } from '../companies/companies.service.js';

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
  /** What invoicing last computed and stored (migration 0052), or null when something changed since. */
  totals: unknown;
  /** The row's version (xmin as text): storing computed totals checks it is still this one. */
  row_version: string;
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
         i.sent_entry_id, i.paid_entry_id, i.denied_entry_id, i.totals, i.xmin::text AS row_version,
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
 * matches words of the description and the customer's name (through the companies module's
 * published view, decision 037), the BILAN number and the payment reference (`invoiceTextMatch`).
 */
export async function selectInvoices(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[] },
): Promise<InvoiceRecord[]> {
  const { where, params } = await invoiceWhere(tx, instanceId, filter);
  return tx.query<InvoiceRecord>(`${INVOICE_SELECT} WHERE ${where} ORDER BY i.date_invoice DESC, i.id DESC`, params);
}

/** An invoice with what its parties show (company, address, payment profile) and the books' currency. */
export interface InvoiceWithPartiesRecord extends InvoiceRecord {
  company_name: string;
  street: string;
  house_number: string | null;
  zip: string;
  city: string;
  country_id: number;
  profile_type_id: number;
  profile_iban: string | null;
  profile_account_id: number | null;
  /** The instance's (books') currency. */
  base_currency_id: number;
}

/** A line with its revenue account's number and name. */
export interface InvoiceItemWithAccountRecord extends InvoiceItemRecord {
  account_number: string | null;
  account_name: string | null;
}

/** An invoice with its parties and its lines (null: not read, its stored totals stand; `LinesRead`). */
export interface InvoiceFullRecord extends InvoiceWithPartiesRecord {
  items: InvoiceItemWithAccountRecord[] | null;
}

/**
 * Which invoices' lines a page reads: 'all', or 'for-totals', only those of the invoices without
 * stored totals (migration 0052), whose totals are computed from them; the others' lines are null.
 */
export type LinesRead = 'all' | 'for-totals';

/**
 * The invoices of `inner` (a SELECT of invoice rows, `$1` the instance) with their parties and
 * lines in one statement, newest first: the company's name, the address and the payment profile
 * through the companies module's published views, the books' currency through the instances
 * module's, the lines' accounts through accounting's (decision 037). The lines come as JSON with
 * every decimal as text (a JSON number would pass through a binary float) and `created_at` as the
 * driver gives timestamps (ISO 8601, UTC, milliseconds).
 */
const withPartiesAndItems = (inner: string, lines: LinesRead, ...extraColumns: (string | null)[]) => `
  WITH page AS (${inner})
  SELECT page.*,${extraColumns.filter(Boolean).map((column) => ` ${column},`).join('')} c.name AS company_name, a.street, a.house_number, a.zip, a.city, a.country_id,
         p.type_id AS profile_type_id, p.iban AS profile_iban, p.account_id AS profile_account_id, b.currency_id AS base_currency_id,
         ${lines === 'all' ? '' : "CASE WHEN page.totals->>'format' = '1' AND jsonb_typeof(page.totals->'lines') = 'object' THEN NULL ELSE "}COALESCE((
           SELECT json_agg(json_build_object(
                    'id', it.id, 'invoice_uuid', it.invoice_uuid, 'label', it.label, 'quantity', it.quantity::text, 'price', it.price::text,
                    'discount', it.discount::text, 'discount_abs', it.discount_abs::text, 'currency_id', it.currency_id,
                    'fx_rate', it.fx_rate::text, 'vat_rate', it.vat_rate::text, 'account_id', it.account_id,
                    'created_at', to_char(it.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                    'account_number', la.number, 'account_name', la.name) ORDER BY it.id)
             FROM invoice_item it
             -- OFFSET 0 keeps this a probe of the account's key per line; flattened, the planner
             -- hashes the whole chart once per invoice (2 ms a page of 50).
             LEFT JOIN LATERAL (SELECT h.number, h.name FROM ledger_account_head h WHERE h.instance_id = $1 AND h.id = it.account_id OFFSET 0) la ON true
            WHERE it.instance_id = $1 AND it.invoice_uuid = page.uuid), '[]')${lines === 'all' ? '' : ' END'} AS items
    FROM page
    JOIN company_head c ON c.instance_id = $1 AND c.uuid = page.company_uuid
    JOIN address_head a ON a.instance_id = $1 AND a.id = page.address_id
    JOIN payment_profile_head p ON p.instance_id = $1 AND p.id = page.payment_profile_id
    JOIN instance_books b ON b.instance_id = $1
   ORDER BY page.date_invoice DESC, page.id DESC`;

/** `selectInvoices` with parties and lines, one statement (decision 037). */
export async function selectInvoicesFull(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[] },
): Promise<(InvoiceFullRecord & { items: InvoiceItemWithAccountRecord[] })[]> {
  const { where, params } = await invoiceWhere(tx, instanceId, filter);
  return tx.query<InvoiceFullRecord & { items: InvoiceItemWithAccountRecord[] }>(withPartiesAndItems(`${INVOICE_SELECT} WHERE ${where}`, 'all'), params);
}

/**
 * One page of `selectInvoicesFull` (newest first, db/paging.ts): by `page` or after `cursor`
 * (date, id), with the number matching counted up to COUNT_CAP (on the first page of a walk only:
 * the cursor carries it). `extraColumns`: more output columns of the same statement, SQL over
 * `page` (the invoice's row) with `$1` the instance, e.g. what settled each invoice (payments.service
 * `listInvoicePageWithPayments`): one round trip for the whole page. `lines`: `LinesRead`.
 */
export async function selectInvoicePage<E extends Row = Row>(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter,
  page: PageRequest,
  extraColumns: string | null = null,
  lines: LinesRead = 'all',
): Promise<{ rows: (InvoiceFullRecord & E)[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { where, params } = await invoiceWhere(tx, instanceId, filter);
  const { rows, counted } = await countedPage(tx, `SELECT 1 FROM invoice i WHERE ${where}`, params, page, (countColumn) => {
    const after = page.cursor ? ` AND ${afterKey(['i.date_invoice', 'i.id'], ['date', 'int'], 'desc', decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
    return tx.query<InvoiceFullRecord & E & CountedRow>(
      withPartiesAndItems(`${INVOICE_SELECT} WHERE ${where}${after} ORDER BY i.date_invoice DESC, i.id DESC ${limitOffset(page)}`, lines, countColumn, extraColumns),
      params,
    );
  });
  const paged = pageOf(rows, page, (row) => [row.date_invoice, row.id], counted);
  return { rows: paged.rows, ...counted, nextCursor: paged.nextCursor };
}

async function invoiceWhere(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[] },
): Promise<{ where: string; params: unknown[] }> {
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
    const matched = await invoiceTextMatch(tx, filter.text, params);
    if (matched) where.push(matched);
  }
  return { where: where.join(' AND '), params };
}

/** A display number as typed: BILAN000042, INV42, #42 or 42 (spec §5: 'BILAN' and the id padded to 6 digits). */
const INVOICE_NUMBER = /^(?:BILAN|INV|#)?\s*(\d{1,9})$/i;

/**
 * The SQL condition on `i` (an invoice) of a list's free text (decision 033, addendum): every word
 * of 2 or more characters of `text` found inside a word of the description or in the customer's
 * name (through the companies module's published view, decision 037), or the text is the invoice's
 * display number or its whole payment reference (spaces ignored). Index ranges and probes only, so
 * the list and its capped count read the matching invoices rather than every one of the instance
 * (under row security ILIKE over the invoices was a scan, 160 ms at 30,000 invoices); only the
 * customers' names are still read row by row, with LIKE on the lower-cased name the companies
 * module publishes (migration 0051), over the instance's companies (0.5 ms at 5,000). Null when
 * `text` has nothing to match (no word of 2 or more characters, no number, no reference, e.g. "-"
 * or "x"): the text then filters nothing, as a word of 1 character among others is ignored.
 */
async function invoiceTextMatch(tx: Tx, text: string, params: unknown[]): Promise<string | null> {
  const number = INVOICE_NUMBER.exec(text.trim());
  const reference = referenceKey(text);
  const keys: TextKey[] = [];
  if (number) keys.push({ value: Number(number[1]), ids: (p) => `SELECT ${p}::int` });
  if (reference) keys.push({ value: reference, ids: (p) => `SELECT r.id FROM invoice r WHERE r.instance_id = $1 AND r.payment_reference = ${p}` });
  return textFilter(tx, 'i', text, {
    table: 'invoice',
    words: { table: 'invoice_word', key: 'invoice_id' },
    names: (pattern) => `SELECT n.id FROM invoice n WHERE n.instance_id = $1 AND n.company_uuid IN (${companiesNamedLike(pattern)})`,
  }, keys, params);
}

/**
 * Stores totals computed from what a read saw (migration 0052), each only if its invoice's row is
 * still the version that read saw (`version`, its xmin) and nothing stored them meanwhile: a line
 * or input changed and committed since gave the row a new version, so the stale figures are
 * dropped. Rows another transaction holds are skipped (SKIP LOCKED), never waited for: a list read
 * neither blocks behind a writer nor deadlocks with one, and a later read stores them.
 */
export async function storeInvoiceTotals(
  tx: Tx,
  instanceId: string,
  computed: readonly { uuid: string; version: string; totals: unknown }[],
): Promise<void> {
  if (computed.length === 0) return;
  await tx.query(
    `WITH computed AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS c(uuid uuid, version text, totals jsonb)),
          still AS (SELECT i.uuid FROM invoice i JOIN computed c ON c.uuid = i.uuid
                     WHERE i.instance_id = $1 AND i.totals IS NULL AND i.xmin::text = c.version
                     ORDER BY i.uuid FOR UPDATE OF i SKIP LOCKED)
     UPDATE invoice i SET totals = c.totals FROM still JOIN computed c USING (uuid)
      WHERE i.instance_id = $1 AND i.uuid = still.uuid`,
    [instanceId, JSON.stringify(computed)],
  );
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
