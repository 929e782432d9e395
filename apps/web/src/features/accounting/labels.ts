import { AccountFunctionType, AccountType } from '@bilan/domain';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const accountTypeOptions = Object.entries(AccountType).map(([name, id]) => ({
  value: String(id),
  label: name === 'liability' ? 'Liability' : capitalize(name),
}));

export const accountTypeLabel = (id: number | undefined): string =>
  accountTypeOptions.find((option) => option.value === String(id))?.label ?? '-';

const functionTypeNames: Record<keyof typeof AccountFunctionType, string> = {
  bankAccount: 'Bank account',
  vat: 'VAT',
  salesRevenue: 'Sales revenue',
  payable: 'Payable',
  receivable: 'Receivable',
};

export const functionTypeOptions = Object.entries(AccountFunctionType).map(([name, id]) => ({
  value: String(id),
  label: functionTypeNames[name as keyof typeof AccountFunctionType],
}));
