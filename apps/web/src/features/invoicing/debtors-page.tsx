import { useState } from 'react';
import { Group, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@bilan/domain';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { debtorsQuery } from './api';

/** /invoice/debtors: open receivables (sent invoices) per customer, aged by days since the invoice date. */
export function DebtorsPage() {
  const [date, setDate] = useState<string | null>(null);
  const debtors = useQuery(debtorsQuery(date ?? undefined));
  return (
    <Page title="Debtors">
      <Group align="end">
        <DateField label="Age at" value={date} onChange={setDate} clearable placeholder="Today" w={170} />
        {debtors.data ? (
          <Text size="sm" c="dimmed">
            Open invoices aged at {formatDate(debtors.data.date)}, in days since the invoice date.
          </Text>
        ) : null}
      </Group>
      {debtors.isError ? <ErrorAlert what="Could not load the debtors" error={debtors.error} onRetry={() => void debtors.refetch()} /> : null}
      {!debtors.data && !debtors.isError ? <TableSkeleton /> : null}
      {debtors.data ? (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer</Table.Th>
              <Table.Th className="num">Invoices</Table.Th>
              <Table.Th className="num">0–30 days</Table.Th>
              <Table.Th className="num">31–60 days</Table.Th>
              <Table.Th className="num">61–90 days</Table.Th>
              <Table.Th className="num">&gt; 90 days</Table.Th>
              <Table.Th className="num">Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {debtors.data.data.map((row) => (
              <Table.Tr key={row.company.uuid}>
                <Table.Td>{row.company.name}</Table.Td>
                <Table.Td className="num">{row.invoices}</Table.Td>
                <Table.Td className="num"><Amount value={row.buckets.d0_30} /></Table.Td>
                <Table.Td className="num"><Amount value={row.buckets.d31_60} /></Table.Td>
                <Table.Td className="num"><Amount value={row.buckets.d61_90} /></Table.Td>
                <Table.Td className="num"><Amount value={row.buckets.d90plus} /></Table.Td>
                <Table.Td className="num"><Amount value={row.total} fw={600} /></Table.Td>
              </Table.Tr>
            ))}
            {debtors.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed" size="sm">No open invoices.</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            <Table.Tr className="totals">
              <Table.Td colSpan={2}>Total</Table.Td>
              <Table.Td className="num"><Amount value={debtors.data.totals.d0_30} /></Table.Td>
              <Table.Td className="num"><Amount value={debtors.data.totals.d31_60} /></Table.Td>
              <Table.Td className="num"><Amount value={debtors.data.totals.d61_90} /></Table.Td>
              <Table.Td className="num"><Amount value={debtors.data.totals.d90plus} /></Table.Td>
              <Table.Td className="num"><Amount value={debtors.data.totals.total} fw={700} /></Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}
