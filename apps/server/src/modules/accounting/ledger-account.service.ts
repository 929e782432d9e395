/**
 * Ledger accounts and account groups: the chart of accounts of an instance. Functions take the
 * caller's transaction (`db.withInstance`) so other modules can use them inside their own.
 */
import { Currency, currencyCodeById, defaultAccountType, validationMessages, type AccountFunctionTypeId, type AccountTypeId, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError, invalidField, notFoundError } from './accounting.errors.js';
import { selectInstanceCurrencyId } from './accounting.sql.js';
import {
  deleteLedgerAccount,
  insertLedgerAccount,
  isAccountNumberTaken,
  selectAccountGroups,
  selectLedgerAccounts,
  updateLedgerAccount,
  upsertAccountGroups,
  type AccountGroup,
  type LedgerAccount,
  type LedgerAccountFilter,
} from './ledger-account.sql.js';

export type { AccountGroup, LedgerAccount } from './ledger-account.sql.js';

/** A ledger account to create or change (amount-free: balances come from postings). */
export interface LedgerAccountInput {
  /** 4 to 10 digits; a number is turned into its digits. */
  number: string | number;
  name: string;
  currency: CurrencyCode;
  /** AccountType id; absent or null: by the first digit of the number (spec §9, `defaultAccountType`). */
  type?: AccountTypeId | number | null;
  /** AccountFunctionType id; null for none (on update: clears it, absent keeps it). */
  functionType?: AccountFunctionTypeId | number | null;
}

function normalizeNumber(number: string | number): string {
  const digits = String(number).trim();
  if (!/^[0-9]{4,10}$/.test(digits)) throw invalidField('number', validationMessages.accountNumberDigits);
  return digits;
}

/** Names are 1 to 200 characters (migration 0001's CHECK); said here so the answer names the field. */
function normalizeName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', validationMessages.fieldMustBeGiven);
  if (trimmed.length > 200) throw invalidField('name', 'name must have at most 200 characters');
  return trimmed;
}

const numberTaken = (number: string) =>
  new AccountingError('number_taken', `ledger account number ${number} already exists`, {
    number: `ledger account number ${number} already exists`,
  });

/** Ledger accounts of the instance sorted by number, optionally filtered (ids, numbers, text, type, function type). */
export async function listLedgerAccounts(tx: Tx, instanceId: string, filter: LedgerAccountFilter = {}): Promise<LedgerAccount[]> {
  return selectLedgerAccounts(tx, instanceId, filter);
}

/** One ledger account; 404 when the id is not one of the instance's accounts. */
export async function getLedgerAccount(tx: Tx, instanceId: string, accountId: number): Promise<LedgerAccount> {
  const [account] = await selectLedgerAccounts(tx, instanceId, { ids: [accountId] });
  if (!account) throw notFoundError('ledger_account_not_found', 'ledger account', accountId);
  return account;
}

/** Creates a ledger account; 409 (field `number`) when the number is taken. */
export async function createLedgerAccount(tx: Tx, instanceId: string, input: LedgerAccountInput): Promise<LedgerAccount> {
  const number = normalizeNumber(input.number);
  if (await isAccountNumberTaken(tx, instanceId, number)) throw numberTaken(number);
  const id = await insertLedgerAccount(tx, instanceId, {
    number,
    name: normalizeName(input.name),
    currencyId: Currency[input.currency],
    typeId: input.type ?? defaultAccountType(number),
    functionTypeId: input.functionType ?? null,
  });
  return getLedgerAccount(tx, instanceId, id);
}

/**
 * Changes the given fields of a ledger account; `type: null` resets the type to the first-digit
 * default of the (new) number, `functionType: null` clears it. 404 unknown id, 409 number taken.
 */
export async function changeLedgerAccount(
  tx: Tx,
  instanceId: string,
  accountId: number,
  patch: Partial<LedgerAccountInput>,
): Promise<LedgerAccount> {
  const current = await getLedgerAccount(tx, instanceId, accountId);
  const number = patch.number === undefined ? undefined : normalizeNumber(patch.number);
  if (number !== undefined && (await isAccountNumberTaken(tx, instanceId, number, accountId))) throw numberTaken(number);
  await updateLedgerAccount(tx, instanceId, accountId, {
    number,
    name: patch.name === undefined ? undefined : normalizeName(patch.name),
    currencyId: patch.currency === undefined ? undefined : Currency[patch.currency],
    typeId: patch.type === null ? defaultAccountType(number ?? current.number) : patch.type,
    functionTypeId: patch.functionType,
  });
  return getLedgerAccount(tx, instanceId, accountId);
}

/**
 * Deletes a ledger account that has no postings. 409 naming the account when it has postings:
 * history is corrected by entries, not by removing accounts (STYLE.md "History is append-only").
 */
export async function removeLedgerAccount(tx: Tx, instanceId: string, accountId: number): Promise<void> {
  const account = await getLedgerAccount(tx, instanceId, accountId);
  if (account.hasPostings) {
    throw new AccountingError(
      'ledger_account_has_postings',
      `ledger account ${account.number} ${account.name} has postings and cannot be deleted`,
    );
  }
  await deleteLedgerAccount(tx, instanceId, accountId);
}

/**
 * Creates the account, or when the number exists renames it and sets currency, type and function
 * type where given (onboarding's bank accounts replace the chart's 1020 "Bank1" this way).
 * Returns the account as the API shows it.
 */
export async function upsertLedgerAccount(tx: Tx, instanceId: string, input: LedgerAccountInput): Promise<LedgerAccount> {
  const number = normalizeNumber(input.number);
  const [existing] = await selectLedgerAccounts(tx, instanceId, { numbers: [number] });
  if (!existing) return createLedgerAccount(tx, instanceId, { ...input, number });
  return changeLedgerAccount(tx, instanceId, existing.id, {
    name: input.name,
    currency: input.currency,
    type: input.type,
    functionType: input.functionType,
  });
}

/**
 * The id of the chart account `account.number`, created with the chart's name in the books' currency
 * `currency` when the instance does not have it yet. Postings the system derives (VAT rates the Swiss
 * SME chart lacks, decision 008; exchange differences 6942/6952, decision 012) use it so a customised
 * chart never blocks them. 400 as `upsertLedgerAccount` for an invalid number.
 */
export async function chartAccountId(
  tx: Tx,
  instanceId: string,
  account: { number: string; name: string },
  currency: CurrencyCode,
  functionType: AccountFunctionTypeId | null = null,
): Promise<number> {
  const [existing] = await selectLedgerAccounts(tx, instanceId, { numbers: [account.number] });
  if (existing) return existing.id;
  return insertLedgerAccount(tx, instanceId, {
    number: normalizeNumber(account.number),
    name: normalizeName(account.name),
    currencyId: Currency[currency],
    typeId: defaultAccountType(account.number),
    functionTypeId: functionType,
  });
}

/** The Swiss SME chart's cash account (Kasse), which onboarding's proposed bank code 1000 meets. */
const CASH_ACCOUNT_NUMBER = '1000';
/** Post and bank accounts of the Swiss SME chart (group 100, 1010–1029): a bank account may take them over. */
const isChartBankNumber = (number: string) => /^10[12]\d$/.test(number);

/**
 * Frees `number` for a bank account of onboarding (spec §2.9 proposes 1000 'Bank', 1000 + count
 * for later ones). The Swiss SME chart has 1000 Kasse (cash) and 1020/1021 for banks: a chart
 * bank account is taken over (the caller renames it); the cash account moves to the first free
 * number after 1000 that `reserved` does not hold, so cash is never lost; any other account is
 * refused (400 on `field`) rather than turned into a bank. Returns where the cash account went.
 */
export async function makeRoomForBankAccount(
  tx: Tx,
  instanceId: string,
  number: string,
  reserved: ReadonlySet<string>,
  field: string,
): Promise<{ movedCashTo?: string }> {
  const [existing] = await selectLedgerAccounts(tx, instanceId, { numbers: [number] });
  if (!existing || existing.functionType?.id === 1 || isChartBankNumber(number)) return {};
  if (number !== CASH_ACCOUNT_NUMBER || existing.hasPostings) {
    throw invalidField(field, `${existing.number} is already '${existing.name}' in the chart of accounts; bank accounts are usually 1020–1029`);
  }
  for (let candidate = Number(number) + 1; candidate <= 1019; candidate++) {
    const target = String(candidate);
    if (reserved.has(target) || (await isAccountNumberTaken(tx, instanceId, target))) continue;
    await updateLedgerAccount(tx, instanceId, existing.id, { number: target });
    return { movedCashTo: target };
  }
  throw invalidField(field, 'No free number between 1001 and 1019 is left for the cash account (Kasse); choose another number');
}

/** Account groups of the instance sorted by number. */
export async function listAccountGroups(tx: Tx, instanceId: string): Promise<AccountGroup[]> {
  return selectAccountGroups(tx, instanceId);
}

/** Creates an account group (1–3 digits: class, group, sub-group); 409 when the number exists. */
export async function createAccountGroup(tx: Tx, instanceId: string, input: { number: string; name: string }): Promise<AccountGroup> {
  const name = normalizeName(input.name);
  const { created, ids } = await upsertAccountGroups(tx, instanceId, [{ number: input.number, name }], { keepExisting: true });
  if (created === 0) {
    const message = `account group number ${input.number} already exists`;
    throw new AccountingError('number_taken', message, { number: message });
  }
  return { id: ids[0]!, number: input.number, name };
}

/** The books' currency (the instance's base currency: every posting's `amount` is in it). */
export async function booksCurrency(tx: Tx, instanceId: string): Promise<CurrencyCode> {
  return currencyCodeById(await selectInstanceCurrencyId(tx, instanceId)) ?? 'CHF';
}
