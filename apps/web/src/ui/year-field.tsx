/**
 * The observed year of the dashboard and the analytics (spec §3 local storage, §5 "Dashboard year"):
 * a four-digit field whose valid value is remembered, read back after a pause in typing.
 */
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { initialYear, isYear, rememberYear } from '../lib/year';
import { NumericInput } from './numeric-input';

export interface ObservedYear {
  /** What the field shows. */
  text: string;
  setText: (text: string) => void;
  /** The year to ask for: the typed text once it is a valid year and typing has paused, else null. */
  year: number | null;
}

/** The observed year, starting from `start` (e.g. a year in the URL) or the remembered one. */
export function useObservedYear(start?: string | null): ObservedYear {
  const [text, setText] = useState(() => (start && isYear(start) ? start : initialYear()));
  const [debounced] = useDebouncedValue(text, 300);
  useEffect(() => {
    if (isYear(debounced)) rememberYear(debounced);
  }, [debounced]);
  return { text, setText, year: isYear(debounced) ? Number(debounced) : null };
}

/** The 'Year' field of a page header, for `useObservedYear`. */
export function YearField({ observed }: { observed: ObservedYear }) {
  const { t } = useTranslation();
  return (
    <NumericInput
      label={t('Year')}
      value={observed.text}
      onChange={observed.setText}
      maxLength={4}
      w={100}
      size="sm"
      error={observed.text.length === 4 && !isYear(observed.text) ? t('Not a year') : undefined}
    />
  );
}
