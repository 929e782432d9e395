import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
// The calendars speak the UI's language. Loaded with the first date field, not with the first page (issue 18 §1).
import 'dayjs/locale/de';
import 'dayjs/locale/fr';
import 'dayjs/locale/it';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DISPLAY_DATE, parseTypedDate } from '../lib/dates';

type DateFieldProps = Omit<DateInputProps, 'value' | 'onChange'> & {
  /** YYYY-MM-DD or null. */
  value: string | null;
  onChange: (value: string | null) => void;
};

/** Date input typed the Swiss way (31.12.2025) with a calendar; the value stays YYYY-MM-DD. */
export function DateField({ value, onChange, ...props }: DateFieldProps) {
  const { t, i18n } = useTranslation();
  return (
    <DatesProvider settings={{ locale: i18n.language, firstDayOfWeek: 1 }}>
      <DateInput
      valueFormat={DISPLAY_DATE}
      dateParser={parseTypedDate}
      placeholder={t('DD.MM.YYYY')}
      leftSection={<IconCalendar size={16} aria-hidden />}
      popoverProps={{ withinPortal: true }}
      {...props}
      value={value}
      onChange={(next) => onChange(next ? String(next).slice(0, 10) : null)}
      />
    </DatesProvider>
  );
}
