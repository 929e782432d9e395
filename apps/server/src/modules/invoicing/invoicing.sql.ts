/** SQL of the invoicing module (tables of migrations 0005 and 0007). All queries run inside withInstance. */
import type { Tx } from '../../db/database.js';

export interface InvoiceRow extends Record<string, unknown> {
  uuid: string;
  id: number;
  company_uuid: string;
  company_name: string;
  address_id: number;
  street: string;
  house_number: string | null;
  zip: string;
  city: string;
  country_id: number;
  payment_profile_id: number;
  profile_type_id: number;
  profile_iban: string | null;
  profile_account_id: number | null;
  status_id: number;
  vat_rate: string;
  currency_id: number;
  /** The instance's (books') currency. */
  base_currency_id: number;
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

export interface InvoiceItemRow extends Record<string, unknown> {
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
  account_number: string | null;
  account_name: string | null;
  created_at: string;
}

const INVOICE_SELECT = `
  SELECT i.uuid, i.id, i.company_uuid, c.name AS company_name, i.address_id, a.street, a.house_number, a.zip, a.city,
         a.country_id, i.payment_profile_id, p.type_id AS profile_type_id, p.iban AS profile_iban,
         p.account_id AS profile_account_id, i.status_id, i.vat_rate::text AS vat_rate, i.currency_id,
         n.currency_id AS base_currency_id, i.fx_rate::text AS fx_rate, i.date_invoice, i.date_due, i.description, i.payment_reference, i.bank_ref, i.ledger_date,
         i.sent_entry_id, i.paid_entry_id, i.denied_entry_id,
         EXISTS (SELECT 1 FROM invoice_share s WHERE s.instance_id = i.instance_id AND s.invoice_uuid = i.uuid) AS shared
    FROM invoice i
    JOIN company c ON c.instance_id = i.instance_id AND c.uuid = i.company_uuid
    JOIN address a ON a.instance_id = i.instance_id AND a.id = i.address_id
    JOIN payment_profile p ON p.instance_id = i.instance_id AND p.id = i.payment_profile_id
    JOIN instance n ON n.id = i.instance_id`;

export interface InvoiceFilter {
  status?: number | undefined;
  companyUuid?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  text?: string | undefined;
}

/** Invoices matching the filter, newest first. `uuids` restricts to those invoices. */
export async function selectInvoices(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter & { uuids?: readonly string[]; ids?: readonly number[] },
  page?: { offset: number; limit: number },
): Promise<InvoiceRow[]> {
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
  if (filter.dateFrom) add('i.date_invoice >= ?', filter.dateFrom);
  if (filter.dateTo) add('i.date_invoice <= ?', filter.dateTo);
  if (filter.text) {
    params.push(`%${filter.text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const p = `$${params.length}`;
    where.push(`(c.name ILIKE ${p} OR i.description ILIKE ${p} OR ('BILAN' || lpad(i.id::text, 6, '0')) ILIKE ${p} OR i.payment_reference ILIKE ${p})`);
  }
  let sql = `${INVOICE_SELECT} WHERE ${where.join(' AND ')} ORDER BY i.date_invoice DESC, i.id DESC`;
  if (page) sql += ` OFFSET ${page.offset} LIMIT ${page.limit}`;
  return tx.query<InvoiceRow>(sql, params);
}

// The line's revenue account is shown by number and name (read from the accounting module's chart).
const ITEM_SELECT = `
  SELECT it.id, it.invoice_uuid, it.label, it.quantity::text AS quantity, it.price::text AS price, it.discount::text AS discount,
         it.discount_abs::text AS discount_abs, it.currency_id, it.fx_rate::text AS fx_rate, it.vat_rate::text AS vat_rate,
         it.account_id, la.number AS account_number, la.name AS account_name, it.created_at
    FROM invoice_item it
    LEFT JOIN ledger_account la ON la.instance_id = it.instance_id AND la.id = it.account_id`;

export async function selectItems(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<InvoiceItemRow[]> {
  return tx.query<InvoiceItemRow>(
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

export async function selectItem(tx: Tx, instanceId: string, id: number): Promise<InvoiceItemRow | undefined> {
  const [row] = await tx.query<InvoiceItemRow>(
    `${ITEM_SELECT} WHERE it.instance_id = $1 AND it.id = $2`,
    [instanceId, id],
  );
  return row;
}
