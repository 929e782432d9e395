/**
 * Charts of accounts: the Swiss SME chart every new instance starts from, and the CSV chart import
 * (`number,name,type[,currency]` or the seed's own `number,name,kind,type`), upserting by number.
 */
import { readFileSync } from 'node:fs';
import {
  AccountFunctionType,
  AccountType,
  Currency,
  defaultAccountType,
  isCurrencyCode,
  type AccountFunctionTypeId,
  type AccountTypeId,
  type CurrencyCode,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { selectInstanceCurrencyId } from './accounting.sql.js';
import { seedVatCodes } from './vat-code.sql.js';
import { parseCsv, RowErrors, type CsvRecord } from '../../lib/csv.js';
import {
  insertLedgerAccounts,
  updateLedgerAccountsByNumber,
  upsertAccountGroups,
  type LedgerAccountBulkRow,
} from './ledger-account.sql.js';

/** Account type words of the chart files (and the AccountType names and ids, spec §3). */
const TYPE_WORDS: Record<string, AccountTypeId> = {
  asset: AccountType.assets,
  assets: AccountType.assets,
  liability: AccountType.liability,
  liabilities: AccountType.liability,
  expense: AccountType.expenses,
  expenses: AccountType.expenses,
  revenue: AccountType.revenue,
  revenues: AccountType.revenue,
  income: AccountType.revenue,
  equity: AccountType.equity,
  '1': AccountType.assets,
  '2': AccountType.liability,
  '3': AccountType.expenses,
  '4': AccountType.revenue,
  '5': AccountType.equity,
};

/**
 * Function types of the seeded Swiss SME chart: the accounts the product posts to by itself.
 * 3200 "Handelserlöse 8.1%" is the sales revenue account because it carries the standard VAT rate
 * invoices default to (spec §2.9: 8.1 %); 1020/1021 are the chart's two bank accounts.
 */
export const SWISS_SME_FUNCTION_TYPES: Readonly<Record<string, AccountFunctionTypeId>> = {
  '1020': AccountFunctionType.bankAccount,
  '1021': AccountFunctionType.bankAccount,
  '1100': AccountFunctionType.receivable,
  '2000': AccountFunctionType.payable,
  '2200': AccountFunctionType.vat,
  '3200': AccountFunctionType.salesRevenue,
};

interface ChartRow {
  line: number;
  kind: 'group' | 'account';
  number: string;
  name: string;
  /** null: not given (a new account takes the first-digit default, an existing one keeps its type). */
  typeId: AccountTypeId | null;
  /** null: not given (a new account takes the instance currency, an existing one keeps its own). */
  currencyId: number | null;
}

const CHART_COLUMNS = { required: ['number', 'name'], allowed: ['number', 'name', 'type', 'currency', 'kind'] } as const;

/** Validates chart rows; every bad value is named by line and column (400, nothing written). */
function readChart(text: string): ChartRow[] {
  const { records } = parseCsv(text, CHART_COLUMNS);
  const errors = new RowErrors();
  const seen = new Map<string, number>();
  const rows = records.flatMap((record: CsvRecord): ChartRow[] => {
    const { line, values } = record;
    const kindValue = (values.kind ?? 'account').toLowerCase();
    if (kindValue !== 'group' && kindValue !== 'account') {
      errors.add(line, 'kind', `expected group or account, found "${values.kind}"`);
      return [];
    }
    const number = values.number ?? '';
    const pattern = kindValue === 'group' ? /^[0-9]{1,3}$/ : /^[0-9]{4,10}$/;
    if (!pattern.test(number)) {
      errors.add(line, 'number', kindValue === 'group' ? 'a group number has 1 to 3 digits' : 'an account number has 4 to 10 digits');
      return [];
    }
    const key = `${kindValue}:${number}`;
    if (seen.has(key)) errors.add(line, 'number', `${number} is already on line ${seen.get(key)}`);
    seen.set(key, line);
    const name = values.name ?? '';
    if (!name) errors.add(line, 'name', 'This field is required');
    else if (name.length > 200) errors.add(line, 'name', 'at most 200 characters');
    const typeWord = (values.type ?? '').toLowerCase();
    const typeId = typeWord ? (TYPE_WORDS[typeWord] ?? null) : null;
    if (typeWord && typeId === null && kindValue === 'account') {
      errors.add(line, 'type', `unknown account type "${values.type}"; expected asset, liability, equity, revenue or expense`);
    }
    const currency = (values.currency ?? '').toUpperCase();
    if (currency && !isCurrencyCode(currency)) errors.add(line, 'currency', `unknown currency "${values.currency}"`);
    return [
      { line, kind: kindValue, number, name, typeId, currencyId: currency && isCurrencyCode(currency) ? Currency[currency] : null },
    ];
  });
  if (errors.count) throw errors.toError();
  return rows;
}

/** Writes chart rows: groups by number, then accounts by number (update existing, insert the rest). */
async function writeChart(
  tx: Tx,
  instanceId: string,
  rows: readonly ChartRow[],
  options: { keepExisting: boolean; currencyId: number; functionTypes?: Readonly<Record<string, AccountFunctionTypeId>> },
): Promise<{ created: number; updated: number }> {
  const groups = rows.filter((row) => row.kind === 'group');
  const accounts = rows.filter((row) => row.kind === 'account');
  const groupResult = await upsertAccountGroups(tx, instanceId, groups, { keepExisting: options.keepExisting });
  const existing = options.keepExisting
    ? new Set<string>()
    : await updateLedgerAccountsByNumber(
        tx,
        instanceId,
        accounts.map((row): LedgerAccountBulkRow => ({ number: row.number, name: row.name, currencyId: row.currencyId, typeId: row.typeId })),
      );
  const created = await insertLedgerAccounts(
    tx,
    instanceId,
    accounts
      .filter((row) => !existing.has(row.number))
      .map((row) => ({
        number: row.number,
        name: row.name,
        currencyId: row.currencyId ?? options.currencyId,
        typeId: row.typeId ?? defaultAccountType(row.number),
        functionTypeId: options.functionTypes?.[row.number] ?? null,
      })),
  );
  return { created: groupResult.created + created, updated: groupResult.updated + existing.size };
}

/**
 * Imports a chart of accounts from CSV (`number,name,type[,currency]` or `number,name,kind,type`),
 * upserting by number in the caller's transaction: existing accounts are renamed and get the given
 * type and currency; new ones default the type by first digit (spec §9) and the currency to the
 * instance's. Groups (`kind` = group, 1–3 digits) go to account_group. Counts accounts and groups.
 * Throws 400 naming line and column for any bad row; nothing is written then.
 */
export async function importChart(tx: Tx, instanceId: string, csvText: string): Promise<{ created: number; updated: number }> {
  const rows = readChart(csvText);
  return writeChart(tx, instanceId, rows, { keepExisting: false, currencyId: await selectInstanceCurrencyId(tx, instanceId) });
}

let swissSmeChart: ChartRow[] | undefined;

/**
 * Loads the Swiss SME chart (seed/chart-de.csv, see seed/SOURCE.md) into an instance inside the
 * caller's transaction: groups into account_group, accounts into ledger_account in `currency`, with
 * the function types of SWISS_SME_FUNCTION_TYPES. Accounts and groups whose numbers already exist
 * are left as they are, so seeding never overwrites the user's own. Returns how many were created.
 * Seeds the Swiss VAT codes as well (migration 0023, decision 019), keeping codes that exist.
 */
export async function seedSwissSmeChart(tx: Tx, instanceId: string, currency: CurrencyCode): Promise<{ created: number }> {
  swissSmeChart ??= readChart(readFileSync(new URL('./seed/chart-de.csv', import.meta.url), 'utf8'));
  const { created } = await writeChart(tx, instanceId, swissSmeChart, {
    keepExisting: true,
    currencyId: Currency[currency],
    functionTypes: SWISS_SME_FUNCTION_TYPES,
  });
  await seedVatCodes(tx, instanceId);
  return { created };
}
