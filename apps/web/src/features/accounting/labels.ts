import { AccountFunctionType, AccountType } from '@bilan/domain';
import { msg } from '../../lib/i18n';

const accountTypeNames: Record<keyof typeof AccountType, string> = {
  assets: msg('Assets'),
  liability: msg('Liability'),
  expenses: msg('Expenses'),
  revenue: msg('Revenue'),
  equity: msg('Equity'),
};

export const accountTypeOptions = Object.entries(AccountType).map(([name, id]) => ({
  value: String(id),
  label: accountTypeNames[name as keyof typeof AccountType],
}));

/** The type's label, an English text to show through t(). */
export const accountTypeLabel = (id: number | undefined): string =>
  accountTypeOptions.find((option) => option.value === String(id))?.label ?? '-';

const functionTypeNames: Record<keyof typeof AccountFunctionType, string> = {
  bankAccount: msg('Bank account'),
  vat: msg('VAT'),
  salesRevenue: msg('Sales revenue'),
  payable: msg('Payable'),
  receivable: msg('Receivable'),
};

export const functionTypeOptions = Object.entries(AccountFunctionType).map(([name, id]) => ({
  value: String(id),
  label: functionTypeNames[name as keyof typeof AccountFunctionType],
}));
