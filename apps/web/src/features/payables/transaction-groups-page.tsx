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

/** /transaction-group: grouped bank payments, newest first. */
export function TransactionGroupsPage() {
  const groups = useQuery(groupListQuery());
  return (
    <Page title="Transaction Groups">
      {groups.isError ? <ErrorAlert what="Could not load the transaction groups" error={groups.error} onRetry={() => void groups.refetch()} /> : null}
      {!groups.data && !groups.isError ? <TableSkeleton /> : null}
      {groups.data?.data.length === 0 ? (
        <Text c="dimmed">
          No transaction groups yet. Select approved bills on the{' '}
          <Anchor component={Link} to={paths.bills.getHref()}>
            Bills
          </Anchor>{' '}
          page to pay them together.
        </Text>
      ) : null}
      {groups.data?.data.length ? (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>Group</Table.Th>
              <Table.Th w={120}>Execution</Table.Th>
              <Table.Th>Paid from</Table.Th>
              <Table.Th w={70}>Bills</Table.Th>
              <Table.Th className="num" w={150}>
                Total
              </Table.Th>
              <Table.Th w={120}>Status</Table.Th>
              <Table.Th w={200}>Bank</Table.Th>
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
                    {groupStatusLabel[group.status]}
                  </Badge>
                </Table.Td>
                <Table.Td>{bankStatusLabel[group.bankStatus]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}
