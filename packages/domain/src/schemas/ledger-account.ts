/** Ledger account insert/update body (spec §3 "Ledger account", §9 default class; docs/api.md account/insert). */
import { z } from 'zod';
import { AccountFunctionType, AccountType, type AccountFunctionTypeId, type AccountTypeId } from '../enums.js';
import { validationMessages as m } from '../messages.js';
import { ruleError, strictObject, zCurrencyCode, zRequiredText } from '../validators/common.js';

/**
 * Default account class from the account number's first digit (spec §9): 1 assets, 2 liabilities,
 * 3 revenue, anything else expenses (the Swiss SME chart's classes 4–9 are mostly expenses).
 */
export function defaultAccountType(accountNumber: string | number): AccountTypeId {
  switch (String(accountNumber).trim()[0]) {
    case '1': return AccountType.assets;
    case '2': return AccountType.liability;
    case '3': return AccountType.revenue;
    default: return AccountType.expenses;
  }
}

const accountTypeIds = Object.values(AccountType) as [AccountTypeId, ...AccountTypeId[]];
const functionTypeIds = Object.values(AccountFunctionType) as [AccountFunctionTypeId, ...AccountFunctionTypeId[]];

/**
 * Ledger account: number of 4 to 10 digits as text (keeps leading zeros), name, currency, optional
 * type (absent or null → `defaultAccountType(number)`), optional function type.
 */
export const ledgerAccountSchema = strictObject({
  number: z.string().regex(/^\d{4,10}$/, { error: m.accountNumberDigits }),
  name: zRequiredText,
  currency: zCurrencyCode,
  type: z.literal(accountTypeIds, { error: ruleError(m.accountTypeUnknown) }).nullish(),
  functionType: z.literal(functionTypeIds, { error: ruleError(m.functionTypeUnknown) }).nullish(),
});
export type LedgerAccountInput = z.infer<typeof ledgerAccountSchema>;
