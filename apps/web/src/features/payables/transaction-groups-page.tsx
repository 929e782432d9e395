import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { bankStatusLabel, groupListQuery, groupStatusColor, groupStatusLabel } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** /transaction-group: grouped bank payments, newest first. */
export function TransactionGroupsPage() {
  const { t } = useTranslation();
  const groups = useQuery(groupListQuery());
  return (
    <Page title={t('Transaction Groups')}>
      {groups.isError ? <ErrorAlert what={t('Could not load the transaction groups')} error={groups.error} onRetry={() => void groups.refetch()} /> : null}
      {!groups.data && !groups.isError ? <TableSkeleton /> : null}
      {groups.data?.data.length === 0 ? (
        <Text c="dimmed">
          <Trans
            t={t}
            i18nKey={msg('No transaction groups yet. Select approved bills on the <a>Bills</a> page to pay them together.')}
            components={{ a: <Anchor component={Link} to={paths.bills.getHref()} /> }}
          />
        </Text>
      ) : null}
      {groups.data?.data.length ? (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>{t('Group')}</Table.Th>
              <Table.Th w={120}>{t('Execution')}</Table.Th>
              <Table.Th>{t('Paid from')}</Table.Th>
              <Table.Th w={70}>{t('Bills')}</Table.Th>
              <Table.Th className="num" w={150}>
                {t('Total')}
              </Table.Th>
              <Table.Th w={120}>{t('Status')}</Table.Th>
              <Table.Th w={200}>{t('Bank')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.data.data.map((group) => (
              <Table.Tr key={group.id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.transactionGroupDetail.getHref(group.id)}>
                    TG{group.id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDate(group.executionDate)}</Table.Td>
                <Table.Td>
                  {group.debtor.account.number} {group.debtor.account.name}
                </Table.Td>
                <Table.Td>{group.count}</Table.Td>
                <Table.Td className="num">
                  <Amount value={group.total} />
                </Table.Td>
                <Table.Td>
                  <Badge color={groupStatusColor[group.status]} variant="light">
                    {t(groupStatusLabel[group.status] ?? '')}
                  </Badge>
                </Table.Td>
                <Table.Td>{t(bankStatusLabel[group.bankStatus] ?? '')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}
