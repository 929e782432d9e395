/** Invoice import from rows (issue #4 §3, audit §1). */
import {
  DEFAULT_PAYMENT_TERM_DAYS,
  addDays,
  fieldErrors,
  invoiceImportRowSchema,
  isValidSwissUid,
  type InvoiceImportRow,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { invoicingError } from './invoicing.errors.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { addressesById, findCompanyUuids, listAddresses } from '../companies/companies.service.js';
import { insertInvoice, invoiceProfiles, type Invoice, type InvoiceData, type ItemData } from './documents.service.js';
import { checkInvoice } from './invoice-checks.js';
import { instanceDefaults } from '../instances/instances.service.js';

export interface ImportError {
  /** 1-based row of the request's `data`. */
  row: number;
  field: string;
  message: string;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The customer of an import row: a uuid, a Swiss UID (CHE-123.456.789, with or without MWST/TVA/IVA)
 * or the exact name (case and surrounding blanks ignored). Exactly one of the instance's companies
 * other than the own company must match; the answer is its uuid or the row's message.
 */
async function findCustomer(tx: Tx, instanceId: string, ownCompanyUuid: string | null, key: string): Promise<{ uuid: string } | { message: string }> {
  const value = key.trim();
  let found: string[];
  let what: string;
  if (UUID_PATTERN.test(value)) {
    what = 'uuid';
    found = await findCompanyUuids(tx, instanceId, { uuid: value });
  } else if (/^CHE/i.test(value) && isValidSwissUid(value)) {
    what = 'UID';
    found = await findCompanyUuids(tx, instanceId, { uidDigits: value.replace(/\D/g, '') });
  } else {
    what = 'name';
    found = await findCompanyUuids(tx, instanceId, { name: value });
  }
  const rows = found.filter((uuid) => uuid !== ownCompanyUuid).map((uuid) => ({ uuid }));
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0) return { message: `no customer with this ${what}` };
  return { message: `${rows.length} customers have this ${what}: give the UID or the uuid` };
}

/** The given address if it is one of the customer's, else (none given) the customer's first; asked of companies. */
async function customerAddress(tx: Tx, instanceId: string, customerUuid: string, addressId: number | undefined): Promise<{ id: number } | undefined> {
  if (addressId === undefined) return (await listAddresses(tx, instanceId, customerUuid)).sort((a, b) => a.id - b.id)[0];
  const address = (await addressesById(tx, instanceId, [addressId])).get(addressId);
  return address?.company.uuid === customerUuid ? address : undefined;
}

/**
 * Header fields of an import row that all rows of one invoice must share when they give them. `vat`
 * is the row's own rate, as on the form's lines (issue 15 §6: mixed rates within one invoice).
 */
const HEADER_FIELDS = ['addressId', 'paymentProfileId', 'dateInvoice', 'dateDue', 'currency', 'fxRate', 'description'] as const;

/**
 * Imports invoices from rows (one per line; rows with the same `invoice` key form one invoice), all
 * or nothing (issue #4 §3, audit §1). Every field of every row is checked with the domain schema
 * (`invoiceImportRowSchema`, the line fields of `invoiceItemSchema`) and the rules of
 * `insertInvoice`; every problem is reported against its row (1-based) and field, and with any
 * problem nothing is written and the answer is 400 `{ error, fields: { 'data.N.field' }, rows }`.
 * The customer is found by uuid, UID or exact name (one match, else a row error); a missing address
 * is the customer's first; a missing payment profile the own company's first active IBAN/QR bill one.
 * Each row's `vat` is its line's rate (rows without one take the invoice's: the first rate given in
 * the invoice's rows, else the instance's).
 */
export async function importInvoices(tx: Tx, instanceId: string, userId: string | null, rows: readonly unknown[]): Promise<{ created: Invoice[] }> {
  const errors: ImportError[] = [];
  const add = (row: number, field: string, message: string) => {
    if (!errors.some((error) => error.row === row && error.field === field)) errors.push({ row, field, message });
  };
  const settings = await instanceDefaults(tx, instanceId);
  const [defaultProfile] = await invoiceProfiles(tx, instanceId, settings.ownCompanyUuid);
  const customers = new Map<string, { uuid: string } | { message: string }>();
  const accounts = new Map<string, { id: number } | undefined>();
  const groups = new Map<string, { rows: number[]; first: InvoiceImportRow; companyUuid: string; data: InvoiceData }>();

  for (const [index, raw] of rows.entries()) {
    const number = index + 1;
    const parsed = invoiceImportRowSchema.safeParse(raw);
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) add(number, field === '_' ? 'row' : field, message);
      continue;
    }
    const row = parsed.data;
    const key = row.company ?? row.companyUuid;
    if (key === undefined || key === '') {
      add(number, 'company', 'give the customer: its name, UID or uuid');
      continue;
    }
    if (row.company !== undefined && row.companyUuid !== undefined) {
      add(number, 'companyUuid', 'give the customer once: company or companyUuid');
      continue;
    }
    const field = row.company !== undefined ? 'company' : 'companyUuid';
    if (!customers.has(key)) customers.set(key, await findCustomer(tx, instanceId, settings.ownCompanyUuid, key));
    const customer = customers.get(key)!;
    if ('message' in customer) {
      add(number, field, customer.message);
      continue;
    }
    const item: ItemData = {
      name: row.name,
      amount: row.amount,
      price: row.price,
      discount: row.discount,
      discountAbs: row.discountAbs,
      vat: row.vat,
    };
    let group = groups.get(row.invoice);
    if (!group) {
      const address = await customerAddress(tx, instanceId, customer.uuid, row.addressId);
      if (!address) {
        add(number, row.addressId ? 'addressId' : field, row.addressId ? 'the address must be one of the customer' : 'the customer has no address');
        continue;
      }
      group = {
        rows: [],
        first: row,
        companyUuid: customer.uuid,
        data: {
          company: { uuid: customer.uuid },
          address: { id: address.id },
          paymentProfile: { id: row.paymentProfileId ?? defaultProfile?.id ?? 0 },
          vat: row.vat,
          currency: row.currency,
          fxRate: row.fxRate,
          dateInvoice: row.dateInvoice,
          dateDue: row.dateDue,
          description: row.description,
          items: [],
        },
      };
      groups.set(row.invoice, group);
    } else {
      const first = group.rows[0]!;
      if (group.companyUuid !== customer.uuid) {
        add(number, field, `invoice ${row.invoice} has another customer on row ${first}`);
        continue;
      }
      const differing = HEADER_FIELDS.find((name) => row[name] !== undefined && String(row[name]) !== String(group!.first[name] ?? ''));
      if (differing) {
        add(number, differing, `differs from row ${first} of invoice ${row.invoice}`);
        continue;
      }
    }
    if (row.account) {
      if (!accounts.has(row.account)) accounts.set(row.account, (await listLedgerAccounts(tx, instanceId, { numbers: [row.account] }))[0]);
      const account = accounts.get(row.account);
      if (!account) {
        add(number, 'account', `no ledger account ${row.account}`);
        continue;
      }
      item.account = { id: account.id };
    }
    group.rows.push(number);
    group.data.items!.push(item);
    group.data.vat ??= row.vat;
  }

  // The invoice rules, per invoice; fields named by the row they come from.
  const rowField: Record<string, string> = {
    'company.uuid': 'companyUuid',
    'address.id': 'addressId',
    'paymentProfile.id': 'paymentProfileId',
    'account.id': 'account',
  };
  for (const group of groups.values()) {
    const data = group.data;
    const vat = data.vat ?? settings.vatRate ?? '0.081';
    const currency = data.currency ?? 'CHF';
    const dateDue = data.dateDue ?? addDays(data.dateInvoice, DEFAULT_PAYMENT_TERM_DAYS);
    try {
      await checkInvoice(tx, instanceId, { ...data, vat, currency, fxRate: data.fxRate, dateDue, items: data.items ?? [] });
    } catch (error) {
      if (!(error instanceof AppError) || !error.fields) throw error;
      for (const [path, message] of Object.entries(error.fields)) {
        const item = /^items\.(\d+)\.(.+)$/.exec(path);
        const row = item ? group.rows[Number(item[1])]! : group.rows[0]!;
        const name = item ? item[2]! : path;
        add(row, rowField[name] ?? name, message);
      }
    }
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const first = errors[0]!;
    throw invoicingError(
      'import_invalid',
      `${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}, nothing was imported; row ${first.row}: ${first.field}: ${first.message}`,
      Object.fromEntries(errors.map((error) => [`data.${error.row - 1}.${error.field}`, error.message])),
      { rows: errors },
    );
  }
  const created: Invoice[] = [];
  for (const group of groups.values()) created.push(await insertInvoice(tx, instanceId, userId, group.data));
  return { created };
}
