import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountListQuery } from './api';

type AccountSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | null;
  onChange: (id: number | null) => void;
};

/** Searchable ledger account picker showing "number name"; a typed number and Enter take its first match. */
export function AccountSelect({ value, onChange, ...props }: AccountSelectProps) {
  const { t } = useTranslation();
  const accounts = useQuery(accountListQuery());
  const data = (accounts.data?.data ?? []).map((account) => ({
    value: String(account.id),
    label: `${account.number} ${account.name}`,
  }));
  return (
    <Select
      searchable
      clearable
      selectFirstOptionOnChange
      data={data}
      limit={200}
      nothingFoundMessage={accounts.isError ? t('Could not load the accounts') : t('No account found')}
      placeholder={accounts.isLoading ? t('Loading accounts…') : t('Number or name')}
      {...props}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : null)}
    />
  );
}
