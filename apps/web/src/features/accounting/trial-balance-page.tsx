import { useState } from 'react';
import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { csvDialectOf, formatAmount, formatDate, toMoney } from '@bilan/domain';
import { useNumberFormat } from '../../lib/i18n';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import { saveBlob } from '../../lib/save-file';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { trialBalanceQuery, type TrialBalance } from './api';
import { trialBalanceCsv, trialBalanceFileName } from './trial-balance-csv';

function BalancedBadge({ totals }: { totals: TrialBalance['totals'] }) {
  const { t } = useTranslation();
  const difference = toMoney(totals.debit).minus(toMoney(totals.credit));
  if (difference.isZero())
    return (
      <Badge color="green" variant="light" size="lg" leftSection={<IconCircleCheck size={16} aria-hidden />}>
        {t('Balanced')}
      </Badge>
    );
  return (
    <Badge color="red" variant="light" size="lg" leftSection={<IconAlertTriangle size={16} aria-hidden />}>
      {t('Not balanced: difference {{difference}}', { difference: formatAmount(difference) })}
    </Badge>
  );
}

const startOfYear = (date: string) => `${date.slice(0, 4)}-01-01`;

/**
 * /accounting/trial-balance: every account with postings up to the date; debit = credit. With a
 * "From" date, the turnover covers the period and an opening-balance column shows what came before.
 */
export function TrialBalancePage() {
  const { t } = useTranslation();
  const [date, setDate] = useState<string | null>(today());
  const [dateFrom, setDateFrom] = useState<string | null>(null);
  const asOf = date ?? today();
  const from = dateFrom && dateFrom <= asOf ? dateFrom : null;
  const numberFormat = useNumberFormat();
  const balance = useQuery(trialBalanceQuery(asOf, from));
  const data = balance.data;
  const withOpening = data?.dateFrom != null;
  const columns = withOpening ? 6 : 5;

  const download = () => {
    if (data) saveBlob(new Blob([trialBalanceCsv(data, csvDialectOf(numberFormat))], { type: 'text/csv;charset=utf-8' }), trialBalanceFileName(data));
  };

  return (
    <Page
      title={t('Trial Balance')}
      actions={
        data ? (
          <Group gap="sm">
            <BalancedBadge totals={data.totals} />
            <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download}>
              {t('Download CSV')}
            </Button>
          </Group>
        ) : null
      }
    >
      <Group align="flex-end">
        <DateField
          label={t('From')}
          w={170}
          clearable
          placeholder={t('First posting')}
          value={dateFrom}
          onChange={setDateFrom}
          error={dateFrom && dateFrom > asOf ? t('After the "As of" date') : undefined}
        />
        <DateField label={t('As of')} w={170} value={date} onChange={setDate} />
        <Button variant="subtle" size="compact-sm" mb={6} onClick={() => setDateFrom(startOfYear(asOf))}>
          {t('This year')}
        </Button>
        {data ? (
          <Text size="sm" c="dimmed" pb={8}>
            {data.dateFrom
              ? t('Turnover from {{from}} to {{to}}, opening balances before it', { from: formatDate(data.dateFrom), to: formatDate(data.date) })
              : t('Postings up to and including {{date}}', { date: formatDate(data.date) })}
          </Text>
        ) : null}
      </Group>
      {balance.isError ? <ErrorAlert what={t('Could not load the trial balance')} error={balance.error} onRetry={() => void balance.refetch()} /> : null}
      {!data && !balance.isError ? <TableSkeleton /> : null}
      {data ? (
        <Table.ScrollContainer minWidth={700} maxHeight="calc(100vh - 260px)">
          <Table stickyHeader striped withTableBorder aria-busy={balance.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={100}>{t('Account')}</Table.Th>
                <Table.Th>{t('Name')}</Table.Th>
                {withOpening ? (
                  <Table.Th className="num" w={160}>
                    {t('Opening balance')}
                  </Table.Th>
                ) : null}
                <Table.Th className="num" w={160}>
                  {t('Debit')}
                </Table.Th>
                <Table.Th className="num" w={160}>
                  {t('Credit')}
                </Table.Th>
                <Table.Th className="num" w={160}>
                  {t('Balance')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.accounts.map((account) => (
                <Table.Tr key={account.id}>
                  <Table.Td className="amount">
                    <Anchor component={Link} to={paths.accountDetail.getHref(account.id)} size="sm">
                      {account.number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{account.name}</Table.Td>
                  {withOpening ? (
                    <Table.Td className="num">
                      <Amount value={account.openingBalance} />
                    </Table.Td>
                  ) : null}
                  <Table.Td className="num">
                    <Amount value={account.debit} />
                  </Table.Td>
                  <Table.Td className="num">
                    <Amount value={account.credit} />
                  </Table.Td>
                  <Table.Td className="num">
                    <Amount value={account.balance} />
                  </Table.Td>
                </Table.Tr>
              ))}
              {data.accounts.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns}>
                    <Text c="dimmed" size="sm">
                      {t('No postings up to this date.')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr className="totals">
                <Table.Td colSpan={2}>
                  <Group gap="xs">
                    {t('Total')} <BalancedBadge totals={data.totals} />
                  </Group>
                </Table.Td>
                {withOpening ? (
                  <Table.Td className="num">
                    <Amount value={data.totals.openingBalance} />
                  </Table.Td>
                ) : null}
                <Table.Td className="num">
                  <Amount value={data.totals.debit} />
                </Table.Td>
                <Table.Td className="num">
                  <Amount value={data.totals.credit} />
                </Table.Td>
                <Table.Td className="num">
                  <Amount value={data.totals.balance} />
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Page>
  );
}
