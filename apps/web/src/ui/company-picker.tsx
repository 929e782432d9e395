/**
 * A company picker that searches the server (issue 18 §2): no form loads every company. Before
 * typing it offers the first 20 companies by name; typing asks `company/list` with `text` (name,
 * UID or city) after a pause. The chosen company stays shown whatever the search answers: its
 * name is the one the caller knows (`selectedName`, e.g. the document's customer), the one picked,
 * or else asked of `company/detail`.
 */
import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Select, type ComboboxItem, type ComboboxItemGroup, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api';

/** Companies offered at once, and per search. */
export const COMPANY_PICKER_SIZE = 20;

export interface CompanyPickerProps extends Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'searchValue' | 'onSearchChange' | 'filter'> {
  value: string | null;
  onChange: (uuid: string | null) => void;
  /** The name of `value` when the caller knows it (an existing document's company). */
  selectedName?: string | null;
  /** Leave out the workplace's own company (customers, suppliers). */
  excludeOwn?: boolean;
  /** Options shown first in their own group (e.g. the staff); the search results under `othersLabel`, without these. */
  pinned?: { group: string; items: ComboboxItem[] };
  othersLabel?: string;
}

/** Same key prefix as the companies feature (`['companies']`): a change there refreshes the picker. */
const pickerKey = (text: string) => ['companies', 'picker', text] as const;

export function CompanyPicker({ value, onChange, selectedName, excludeOwn, pinned, othersLabel, placeholder, ...rest }: CompanyPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  /** Names of the companies picked here, so the choice keeps its label when the search changes. */
  const [picked, setPicked] = useState<Record<string, string>>({});
  const knownName = value ? (picked[value] ?? pinned?.items.find((item) => item.value === value)?.label ?? selectedName ?? null) : null;
  // Showing the chosen company's name is not a search: the list then offers the first companies.
  const [typed] = useDebouncedValue(search.trim() === (knownName ?? '').trim() ? '' : search.trim(), 250);
  const list = useQuery({
    queryKey: pickerKey(typed),
    queryFn: ({ signal }) => api.post('/api/company/list', { filters: { text: typed }, pageSize: COMPANY_PICKER_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });
  const found = (list.data?.data ?? []).filter((company) => !(excludeOwn && company.isOwn));
  // The chosen company, when neither the caller nor a pick named it and the results do not hold it.
  const unnamed = value !== null && knownName === null && !found.some((company) => company.uuid === value);
  const detail = useQuery({
    queryKey: ['companies', 'picker-detail', value],
    queryFn: ({ signal }) => api.post('/api/company/detail', { id: value! }, { signal }),
    enabled: unnamed,
  });
  const chosenName = knownName ?? found.find((company) => company.uuid === value)?.name ?? detail.data?.name ?? null;

  const pinnedValues = new Set((pinned?.items ?? []).map((item) => item.value));
  const results: ComboboxItem[] = found.filter((company) => !pinnedValues.has(company.uuid)).map((company) => ({ value: company.uuid, label: company.name }));
  if (value && chosenName && !pinnedValues.has(value) && !results.some((item) => item.value === value)) results.unshift({ value, label: chosenName });
  const data: (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[] = pinned?.items.length
    ? [pinned, ...(results.length ? [{ group: othersLabel ?? t('Companies'), items: results }] : [])]
    : results;

  return (
    <Select
      {...rest}
      searchable
      data={data}
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      // The server filters (name, UID or city); the options are its answer.
      filter={({ options }) => options}
      onChange={(uuid, option) => {
        if (uuid && option) setPicked((names) => ({ ...names, [uuid]: option.label }));
        onChange(uuid);
      }}
      placeholder={list.isError ? t('Could not load the companies') : placeholder}
      nothingFoundMessage={list.isFetching ? t('Searching…') : t('No company found')}
    />
  );
}
