import { useState } from 'react';
import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatAmount, formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { debtorsQuery, type Buckets, type DebtorDocument } from './api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { msg } from '../../lib/i18n';

const BUCKETS: { key: keyof Buckets; label: string }[] = [
  { key: 'notDue', label: msg('Not yet due') },
  { key: 'd0_30', label: msg('0–30 days') },
  { key: 'd31_60', label: msg('31–60 days') },
  { key: 'd61_90', label: msg('61–90 days') },
  { key: 'd90plus', label: msg('> 90 days') },
];

function overdue(document: DebtorDocument, t: TFunction): string {
  if (document.daysOverdue < 0) return t('due {{date}}', { date: formatDate(document.dateDue) });
  if (document.daysOverdue === 0) return t('due today');
  return t('{{days}} days overdue', { days: document.daysOverdue });
}

/**
 * /invoice/debtors: open receivables (sent invoices) per customer in the books' currency, aged by
 * days overdue since the due date. A row links to the customer's ap-ar page and to its invoices.
 */
export function DebtorsPage() {
  const { t } = useTranslation();
  const [date, setDate] = useState<string | null>(null);
  const debtors = useQuery(debtorsQuery(date ?? undefined));
  const columns = BUCKETS.length + 3;
  return (
    <Page title={t('Debtors')}>
      <Group align="end">
        <DateField label={t('Age at')} value={date} onChange={setDate} clearable placeholder={t('Today')} w={170} />
        {debtors.data ? (
          <Text size="sm" c="dimmed">
            {t('Open invoices at {{date}}, in {{currency}}, aged by days overdue since their due date.', { date: formatDate(debtors.data.date), currency: debtors.data.currency })}
          </Text>
        ) : null}
      </Group>
      {debtors.isError ? <ErrorAlert what={t('Could not load the debtors')} error={debtors.error} onRetry={() => void debtors.refetch()} /> : null}
      {!debtors.data && !debtors.isError ? <TableSkeleton /> : null}
      {debtors.data ? (
        <Table withTableBorder striped aria-label={t('Debtors')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Customer')}</Table.Th>
              <Table.Th>{t('Invoices')}</Table.Th>
              {BUCKETS.map((bucket) => (
                <Table.Th key={bucket.key} className="num">
                  {t(bucket.label)}
                </Table.Th>
              ))}
              <Table.Th className="num">{t('Total open')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {debtors.data.data.map((row) => (
              <Table.Tr key={row.company.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={paths.company.getHref(row.company.uuid, 'ap-ar')} size="sm" fw={600}>
                    {row.company.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Stack gap={0}>
                    {row.documents.map((document) => (
                      <Text size="sm" key={document.uuid}>
                        <Anchor component={Link} to={paths.invoiceDetail.getHref(document.uuid)} size="sm">
                          {document.refNumber}
                        </Anchor>{' '}
                        <Text span size="xs" c={document.daysOverdue > 0 ? 'red' : 'dimmed'}>
                          {overdue(document, t)}
                          {document.openAmount !== document.total ? ` · ${t('open {{open}} of {{total}}', { open: formatAmount(document.openAmount), total: formatAmount(document.total) })}` : ''}
                          {document.currency !== debtors.data.currency ? ` · ${document.currency} ${formatAmount(document.openAmount)}` : ''}
                          {document.creditNotes.map((note) => ` · ${t('credit note {{number}} {{amount}}', { number: note.number, amount: formatAmount(note.total) })}`).join('')}
                        </Text>
                      </Text>
                    ))}
                    <Anchor component={Link} to={`${paths.invoices.getHref()}?filterStatus=2&company=${row.company.uuid}`} size="xs">
                      {t('All {{invoices}} open', { invoices: row.invoices })}
                    </Anchor>
                  </Stack>
                </Table.Td>
                {BUCKETS.map((bucket) => (
                  <Table.Td key={bucket.key} className="num">
                    <Amount value={row.buckets[bucket.key]} />
                  </Table.Td>
                ))}
                <Table.Td className="num">
                  <Amount value={row.total} fw={600} />
                </Table.Td>
              </Table.Tr>
            ))}
            {debtors.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text c="dimmed" size="sm">
                    {t('No open invoices.')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            <Table.Tr className="totals">
              <Table.Td colSpan={2}>{t('Total {{currency}}', { currency: debtors.data.currency })}</Table.Td>
              {BUCKETS.map((bucket) => (
                <Table.Td key={bucket.key} className="num">
                  <Amount value={debtors.data.totals[bucket.key]} />
                </Table.Td>
              ))}
              <Table.Td className="num">
                <Amount value={debtors.data.totals.total} fw={700} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}
