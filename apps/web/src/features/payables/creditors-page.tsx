import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { creditorsQuery } from './api';

/** /bill/creditors ('Creditors'): open bills per supplier, soonest due first. */
export function CreditorsPage() {
  const creditors = useQuery(creditorsQuery());
  return (
    <Page title="Creditors">
      {creditors.isError ? <ErrorAlert what="Could not load the creditors" error={creditors.error} onRetry={() => void creditors.refetch()} /> : null}
      {!creditors.data && !creditors.isError ? <TableSkeleton /> : null}
      {creditors.data?.data.length === 0 ? <Text c="dimmed">No open bills.</Text> : null}
      {creditors.data?.data.length ? (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Supplier</Table.Th>
              <Table.Th w={90}>Bills</Table.Th>
              <Table.Th w={130}>Next due</Table.Th>
              <Table.Th className="num" w={180}>
                Open amount
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {creditors.data.data.map((row) => (
              <Table.Tr key={`${row.company?.uuid ?? 'expenses'}-${row.currency}`}>
                <Table.Td>
                  {row.company ? (
                    <Anchor component={Link} to={paths.company.getHref(row.company.uuid)}>
                      {row.company.name}
                    </Anchor>
                  ) : (
                    'Expenses (staff)'
                  )}
                </Table.Td>
                <Table.Td>
                  {row.bills}
                  {row.overdue ? (
                    <Badge color="red" variant="light" ml={6}>
                      {row.overdue} overdue
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{row.nextDueDate ? formatDate(row.nextDueDate) : '-'}</Table.Td>
                <Table.Td className="num">
                  <Amount value={row.openAmount} /> {row.currency}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}
