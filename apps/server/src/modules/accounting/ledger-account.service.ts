/**
 * Ledger accounts and account groups: the chart of accounts of an instance. Functions take the
 * caller's transaction (`db.withInstance`) so other modules can use them inside their own.
 */
import { Currency, defaultAccountType, validationMessages, type AccountFunctionTypeId, type AccountTypeId, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError, invalidField, notFoundError } from './accounting.errors.js';
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
