/**
 * Dext import (issue #5 §2, spec route /mail/import "Import Mail/Dext"): a CSV export of receipts
 * becomes pending bills or expenses, all or nothing. Accepted header (case, spaces and
 * punctuation ignored; unknown columns, of which Dext exports many, are ignored):
 *   date (or receipt date, invoice date, document date) — YYYY-MM-DD, DD.MM.YYYY or DD/MM/YYYY
 *   supplier (or supplier name, merchant, vendor) — required
 *   amount (or total, total amount, gross, gross amount) — gross, > 0, at most 2 decimals
 *   vat (or vat amount, tax, tax amount, total tax) — included in the amount, default 0
 *   currency (or currency code) — ISO code, default the instance currency
 *   exchange rate (or rate) — required for a currency other than the instance's
 *   category (or category name, account) — ledger account number or name; empty: the bill's default
 *   description (or notes, note), type — 'bill' or 'expense' (default: the `as` of the request)
 * Amounts may use ' or , as thousands separators and a decimal comma ("1'234,50").
 * Separator: ',' or ';' (Excel with Swiss/German regional settings saves CSV with ';'), decided by
 * the header line; a UTF-8 byte order mark (Excel's "CSV UTF-8") is ignored.
 */
import { parse } from 'csv-parse/sync';
import { amountTooLargeMessage, Currency, isAmountString, isValidIsoDate, isWithinAmountBound, MAX_AMOUNT, toMoney, type CurrencyCode } from '@bilan/domain';
import { AppError } from '../../http/errors.js';
import { payableError } from './payables.errors.js';
import type { Tx } from '../../db/database.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { companiesByAge, createCompany } from '../companies/companies.service.js';
import { insertPayable, type PayableInput } from './payables.service.js';

/** One problem of the file: `row` is the 1-based line of the CSV (the header is line 1). */
export interface ImportRowError {
  row: number;
  field: string;
  message: string;
}

const ALIASES: Record<string, readonly string[]> = {
  date: ['date', 'receiptdate', 'invoicedate', 'documentdate'],
  supplier: ['supplier', 'suppliername', 'merchant', 'vendor'],
  amount: ['amount', 'total', 'totalamount', 'gross', 'grossamount'],
  vat: ['vat', 'vatamount', 'tax', 'taxamount', 'totaltax'],
  currency: ['currency', 'currencycode'],
  exchangeRate: ['exchangerate', 'rate'],
  category: ['category', 'categoryname', 'account'],
  description: ['description', 'notes', 'note'],
  type: ['type'],
};
const REQUIRED = ['date', 'supplier', 'amount'] as const;
/** Rows per file: a month of receipts fits many times over; bigger files are split by the user. */
export const MAX_IMPORT_ROWS = 1000;

const normalizeHeader = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function importError(message: string, rows: ImportRowError[]): AppError {
  return payableError('import_invalid', message, undefined, { rows });
}

/**
 * The field separator of a CSV file: ';' when the header line (outside quotes) has more semicolons
 * than commas, else ','. Decided on the header because data cells may hold decimal commas.
 */
export function csvDelimiter(text: string): ',' | ';' {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of header) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** "1'234,50", "1,234.50", "12.5" → "1234.50" style decimal text, or null when not a number. */
export function normalizeAmount(text: string): string | null {
  let value = text.replace(/[\s'’\u00a0\u202f]/g, '');
  if (value.includes(',') && value.includes('.')) value = value.replace(/,/g, '');
  else if (value.includes(',')) value = value.replace(',', '.');
  if (!isAmountString(value, 2)) return null;
  return toMoney(value).toFixed(2);
}

/** YYYY-MM-DD, DD.MM.YYYY (Swiss) or DD/MM/YYYY (Dext's day-first export) → ISO date, or null. */
export function normalizeDate(text: string): string | null {
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : null;
  const dayFirst = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(text);
  const value = iso ?? (dayFirst ? `${dayFirst[3]}-${dayFirst[2]!.padStart(2, '0')}-${dayFirst[1]!.padStart(2, '0')}` : null);
  return value && isValidIsoDate(value) ? value : null;
}

/**
 * Imports the CSV `text` into pending bills (type 0: the supplier company is matched by name or
 * created) or expenses (type 1: the supplier goes into the description). Throws a 400
 * `{ error, rows: [{ row, field, message }] }` listing every bad row; the caller's transaction
 * then writes nothing.
 */
export async function importReceipts(tx: Tx, instanceId: string, text: string, defaultType: 'bill' | 'expense') {
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: csvDelimiter(text), skip_empty_lines: true, trim: true, relax_column_count: true }) as string[][];
  } catch (error) {
    throw importError(`the file is not valid CSV: ${(error as Error).message}`, []);
  }
  const [head, ...body] = records;
  if (!head) throw importError('the file is empty; expected a header row', []);
  const columns: Record<string, number> = {};
  head.forEach((name, index) => {
    const key = Object.keys(ALIASES).find((k) => ALIASES[k]!.includes(normalizeHeader(name)));
    if (key && columns[key] === undefined) columns[key] = index;
  });
  const missing = REQUIRED.filter((k) => columns[k] === undefined);
  if (missing.length) {
    throw importError(`missing column(s): ${missing.join(', ')}`, missing.map((field) => ({ row: 1, field, message: 'column missing' })));
  }
  if (!body.length) throw importError('the file has no receipts', []);
  if (body.length > MAX_IMPORT_ROWS) throw importError(`at most ${MAX_IMPORT_ROWS} receipts per file`, []);

  const accounts = await listLedgerAccounts(tx, instanceId);
  const companies = await companiesByAge(tx, instanceId);
  const companyByName = new Map<string, string>();
  for (const c of companies) if (!companyByName.has(c.name.trim().toLowerCase())) companyByName.set(c.name.trim().toLowerCase(), c.uuid);

  const errors: ImportRowError[] = [];
  const inputs: { row: number; supplier: string; input: PayableInput }[] = [];
  body.forEach((record, index) => {
    const row = index + 2;
    const cell = (key: string) => (columns[key] === undefined ? '' : (record[columns[key]!] ?? '').trim());
    const fail = (field: string, message: string) => errors.push({ row, field, message });
    const date = normalizeDate(cell('date'));
    if (!date) fail('date', 'date must be YYYY-MM-DD, DD.MM.YYYY or DD/MM/YYYY');
    const supplier = cell('supplier');
    if (!supplier) fail('supplier', 'This field must be given');
    else if (supplier.length > 200) fail('supplier', 'at most 200 characters');
    const amount = normalizeAmount(cell('amount'));
    if (!amount || toMoney(amount).lte(0)) fail('amount', 'amount must be a positive number with at most 2 decimals');
    else if (!isWithinAmountBound(amount)) fail('amount', amountTooLargeMessage(MAX_AMOUNT));
    const vat = cell('vat') ? normalizeAmount(cell('vat')) : '0.00';
    if (!vat || toMoney(vat).lt(0)) fail('vat', 'VAT must be a number ≥ 0 with at most 2 decimals');
    else if (amount && toMoney(vat).gt(toMoney(amount))) fail('vat', 'VAT cannot exceed the amount');
    const currencyText = cell('currency').toUpperCase();
    const currency = currencyText ? (currencyText in Currency ? (currencyText as CurrencyCode) : null) : undefined;
    if (currency === null) fail('currency', `unknown currency '${cell('currency')}'`);
    const rateText = cell('exchangeRate') ? normalizeAmountRate(cell('exchangeRate')) : undefined;
    if (rateText === null) fail('exchangeRate', 'exchange rate must be a positive number');
    const category = cell('category');
    let expenseAccountId: number | null = null;
    if (category) {
      const number = /^(\d{4,10})\b/.exec(category)?.[1];
      const account = accounts.find((a) => a.number === number) ?? accounts.find((a) => a.name.trim().toLowerCase() === category.toLowerCase());
      if (account) expenseAccountId = account.id;
      else fail('category', `no ledger account '${category}' (give its number or name)`);
    }
    const typeText = (cell('type') || defaultType).toLowerCase();
    if (typeText !== 'bill' && typeText !== 'expense') fail('type', "type must be 'bill' or 'expense'");
    if (errors.some((e) => e.row === row)) return;
    const isExpense = typeText === 'expense';
    const note = cell('description');
    inputs.push({
      row,
      supplier,
      input: {
        type: isExpense ? 1 : 0,
        companyUuid: null,
        paymentProfileId: null,
        date: date!,
        dueDate: null,
        amount: amount!,
        vatAmount: vat!,
        currency: currency ?? null,
        exchangeRate: rateText ?? null,
        expenseAccountId,
        referenceNumber: null,
        message: null,
        description: (isExpense ? [supplier, note].filter(Boolean).join(' – ') : note).slice(0, 500),
      },
    });
  });
  if (errors.length) throw importError(`${errors.length} error(s) in ${new Set(errors.map((e) => e.row)).size} row(s); nothing imported`, errors);

  const created: { id: number; uuid: string; type: number }[] = [];
  let companiesCreated = 0;
  for (const { row, supplier, input } of inputs) {
    if (input.type === 0) {
      const key = supplier.toLowerCase();
      let uuid = companyByName.get(key);
      if (!uuid) {
        uuid = await createCompany(tx, instanceId, { name: supplier, uid: null });
        companyByName.set(key, uuid);
        companiesCreated++;
      }
      input.companyUuid = uuid;
    }
    try {
      const bill = await insertPayable(tx, instanceId, input);
      created.push({ id: bill.id, uuid: bill.uuid, type: bill.type });
    } catch (error) {
      // resolveInput refuses before writing (foreign currency without rate…): report the row.
      if (!(error instanceof AppError) || error.code !== 'validation') throw error;
      for (const [field, message] of Object.entries(error.fields ?? { row: error.message })) errors.push({ row, field: field.replace(/\.(uuid|id)$/, ''), message });
    }
  }
  if (errors.length) throw importError(`${errors.length} error(s) in ${new Set(errors.map((e) => e.row)).size} row(s); nothing imported`, errors);
  return {
    created: created.length,
    bills: created.filter((c) => c.type === 0).length,
    expenses: created.filter((c) => c.type === 1).length,
    companiesCreated,
    data: created.map(({ id, uuid }) => ({ id, uuid })),
  };
}

/** An exchange rate: positive decimal (up to 10 decimals), same separators as amounts. */
function normalizeAmountRate(text: string): string | null {
  const value = text.replace(/[\s'’]/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,10})?$/.test(value) || toMoney(value).lte(0)) return null;
  return value;
}
