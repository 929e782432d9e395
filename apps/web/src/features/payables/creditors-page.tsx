import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { useSession } from '../../lib/session';
import { creditorsQuery } from './api';

/**
 * /bill/creditors ('Creditors'): booked open supplier bills (approved or in a transaction group) per
 * supplier, soonest due first, and their total beside the balance of the payables account (2000),
 * which it should equal: pending drafts are not booked yet, staff expenses sit on 2250.
 */
export function CreditorsPage() {
  const creditors = useQuery(creditorsQuery());
  const { profile } = useSession();
  const agrees = creditors.data ? creditors.data.total === creditors.data.payablesAccount.balance : true;
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
              <Table.Th w={160}>Bills</Table.Th>
              <Table.Th w={130}>Next due</Table.Th>
              <Table.Th className="num" w={180}>
                Open amount
              </Table.Th>
              <Table.Th className="num" w={180}>
                In {profile?.instance.currency ?? 'CHF'}
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
                <Table.Td className="num">
                  <Amount value={row.openAmountBase} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th colSpan={4}>Total open</Table.Th>
              <Table.Th className="num">
                <Amount value={creditors.data.total} />
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      ) : null}
      {creditors.data ? (
        <Text size="sm" c={agrees ? 'dimmed' : 'orange.8'}>
          Balance of {creditors.data.payablesAccount.number} {creditors.data.payablesAccount.name}: <Amount value={creditors.data.payablesAccount.balance} />
          {agrees ? ' — agrees with the open bills.' : ' — differs from the open bills (postings on the account that are no bill, e.g. manual entries).'}
        </Text>
      ) : null}
    </Page>
  );
}
