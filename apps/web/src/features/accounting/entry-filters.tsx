import { Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../ui/date-field';
import { AccountSelect } from './account-select';

export interface EntryFilterValues {
  dateFrom: string | null;
  dateTo: string | null;
  text: string;
  accountId: number | null;
}

export const emptyEntryFilters: EntryFilterValues = { dateFrom: null, dateTo: null, text: '', accountId: null };

interface EntryFiltersProps {
  value: EntryFilterValues;
  onChange: (value: EntryFilterValues) => void;
  withText?: boolean;
  withAccount?: boolean;
}

/** Date range, text and account filters shared by the entry list and the journal. */
export function EntryFilters({ value, onChange, withText = true, withAccount = true }: EntryFiltersProps) {
  const { t } = useTranslation();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <DateField label={t('From')} w={150} clearable value={value.dateFrom} onChange={(dateFrom) => onChange({ ...value, dateFrom })} />
      <DateField label={t('To')} w={150} clearable value={value.dateTo} onChange={(dateTo) => onChange({ ...value, dateTo })} />
      {withText ? (
        <TextInput
          label={t('Search')}
          placeholder={t('Description')}
          leftSection={<IconSearch size={16} aria-hidden />}
          w={220}
          value={value.text}
          onChange={(event) => onChange({ ...value, text: event.currentTarget.value })}
        />
      ) : null}
      {withAccount ? (
        <AccountSelect label={t('Account')} w={280} value={value.accountId} onChange={(accountId) => onChange({ ...value, accountId })} />
      ) : null}
    </Group>
  );
}

/** Filter values → request filters (empty ones left out). */
export function toRequestFilters(value: EntryFilterValues, text: string) {
  return {
    ...(value.dateFrom ? { dateFrom: value.dateFrom } : {}),
    ...(value.dateTo ? { dateTo: value.dateTo } : {}),
    ...(text.trim() ? { text: text.trim() } : {}),
    ...(value.accountId !== null ? { accountId: value.accountId } : {}),
  };
}
