import { useState } from 'react';
import { Anchor, Badge, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@bilan/domain';
import { saveBlob } from '../../lib/save-file';
import { errorMessage } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { Pager } from '../../ui/pager';
import { REMINDER_PAGE_SIZE, fetchReminderPdf, remindersQuery } from './api';
import { useTranslation } from 'react-i18next';

/**
 * The reminders of one invoice (issue 15 §3): level, date, fee, sent by e-mail or for print, and
 * the letter as issued, a page (REMINDER_PAGE_SIZE) at a time. Shown on the invoice detail (the
 * route composes it); nothing when none.
 */
export function ReminderHistory({ invoiceUuid }: { invoiceUuid: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const reminders = useQuery({ ...remindersQuery(invoiceUuid, page), enabled: invoiceUuid !== '' });
  const [error, setError] = useState<string | null>(null);
  const rows = reminders.data?.data ?? [];
  if (rows.length === 0) return null;
  const pdf = async (uuid: string, name: string) => {
    setError(null);
    try {
      saveBlob(await fetchReminderPdf(uuid), name);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <Paper withBorder p="md">
      <Text fw={600} mb="xs">
        {t('Reminders')}
      </Text>
      {error ? (
        <Text c="red" size="sm" role="alert">
          {t('Could not load the letter: {{error}}', { error })}
        </Text>
      ) : null}
      <Table aria-label={t('Reminders')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Level')}</Table.Th>
            <Table.Th>{t('Date')}</Table.Th>
            <Table.Th className="num">{t('Fee')}</Table.Th>
            <Table.Th className="num">{t('Amount due')}</Table.Th>
            <Table.Th>{t('Delivery')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((reminder) => (
            <Table.Tr key={reminder.uuid}>
              <Table.Td>
                {`${reminder.level} · ${reminder.title}`}
              </Table.Td>
              <Table.Td>{formatDate(reminder.date)}</Table.Td>
              <Table.Td className="num">
                <Amount value={reminder.fee} />
              </Table.Td>
              <Table.Td className="num">
                <Amount value={reminder.amountDue} />
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={reminder.delivery === 'email' ? 'blue' : 'gray'}>
                  {reminder.delivery === 'email' ? t('e-mailed') : t('for print')}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Anchor component="button" size="sm" onClick={() => void pdf(reminder.uuid, `${reminder.invoice.refNumber}-reminder-${reminder.level}.pdf`)}>
                  {t('Letter PDF')}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {reminders.data && reminders.data.total > REMINDER_PAGE_SIZE ? (
        <Pager page={page} pageSize={REMINDER_PAGE_SIZE} total={reminders.data.total} capped={reminders.data.totalCapped} onChange={setPage} />
      ) : null}
    </Paper>
  );
}
