import type { ReactNode } from 'react';
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { useSession } from '../../lib/session';
import { creditorsQuery, type Creditor, type Creditors } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

interface OwedTableProps {
  label: string;
  rows: Creditor[];
  total: string;
  /** Column heads: who is owed ('Supplier', 'Employee') and what ('Bills', 'Expenses'). */
  who: string;
  what: string;
  name: (row: Creditor) => ReactNode;
}

/** Open documents per company and currency, soonest due first, with their total in the instance currency. */
function OwedTable({ label, rows, total, who, what, name }: OwedTableProps) {
  const { t } = useTranslation();
  const { profile } = useSession();
  return (
    <Table withTableBorder striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{who}</Table.Th>
          <Table.Th w={160}>{what}</Table.Th>
          <Table.Th w={130}>{t('Next due')}</Table.Th>
          <Table.Th className="num" w={180}>
            {t('Open amount')}
          </Table.Th>
          <Table.Th className="num" w={180}>
            {t('In {{currency}}', { currency: profile?.instance.currency ?? DEFAULT_CURRENCY })}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={`${row.company?.uuid ?? 'none'}-${row.currency}`}>
            <Table.Td>{name(row)}</Table.Td>
            <Table.Td>
              {row.bills}
              {row.overdue ? (
                <Badge color="red" variant="light" ml={6}>
                  {t('{{overdue}} overdue', { overdue: row.overdue })}
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
          <Table.Th colSpan={4}>{t('Total open')}</Table.Th>
          <Table.Th className="num">
            <Amount value={total} />
          </Table.Th>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

/** The account's balance beside the list's total, which it should equal. */
function Agreement({ account, total, what }: { account: Creditors['payablesAccount']; total: string; what: 'bills' | 'expenses' }) {
  const { t } = useTranslation();
  const agrees = total === account.balance;
  const text = agrees
    ? what === 'bills'
      ? msg('Balance of {{number}} {{name}}: <amount/> — agrees with the open bills.')
      : msg('Balance of {{number}} {{name}}: <amount/> — agrees with the open expenses.')
    : what === 'bills'
      ? msg('Balance of {{number}} {{name}}: <amount/> — differs from the open bills (postings on the account that are no bill, e.g. manual entries).')
      : msg('Balance of {{number}} {{name}}: <amount/> — differs from the open expenses (postings on the account that are no expense, e.g. manual entries).');
  return (
    <Text size="sm" c={agrees ? 'dimmed' : 'orange.8'}>
      <Trans t={t} i18nKey={text} values={{ number: account.number, name: account.name }} components={{ amount: <Amount value={account.balance} /> }} />
    </Text>
  );
}

/** The books' currency until the profile is loaded. */
const DEFAULT_CURRENCY = 'CHF';

/** The open expenses of one employee in the bills list (kind expense, open, searched by name). */
const expensesHref = (name: string | null) => `/bill?filterStatus=true&kind=expense${name ? `&text=${encodeURIComponent(name)}` : ''}`;

/**
 * /bill/creditors ('Creditors'): what the workplace owes. Suppliers: booked open bills (approved or
 * in a transaction group) per supplier, soonest due first, their total beside the balance of the
 * payables account (2000). Staff (issue 16 §4): booked open staff expenses and net salaries per
 * employee, their total beside the balance of the staff account (2250). Pending drafts are not
 * booked yet and are in neither list.
 */
export function CreditorsPage() {
  const { t } = useTranslation();
  const creditors = useQuery(creditorsQuery());
  const data = creditors.data;
  return (
    <Page title={t('Creditors')}>
      {creditors.isError ? <ErrorAlert what={t('Could not load the creditors')} error={creditors.error} onRetry={() => void creditors.refetch()} /> : null}
      {!data && !creditors.isError ? <TableSkeleton /> : null}
      {data ? (
        <Stack gap="xl">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('Suppliers')}
            </Title>
            {data.data.length === 0 ? (
              <Text c="dimmed">{t('No open bills.')}</Text>
            ) : (
              <OwedTable
                label={t('Open supplier bills')}
                rows={data.data}
                total={data.total}
                who={t('Supplier')}
                what={t('Bills')}
                name={(row) =>
                  row.company ? (
                    <Anchor component={Link} to={paths.company.getHref(row.company.uuid)}>
                      {row.company.name}
                    </Anchor>
                  ) : (
                    t('Expenses (staff)')
                  )
                }
              />
            )}
            <Agreement account={data.payablesAccount} total={data.total} what="bills" />
          </Stack>
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('Staff')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('Approved staff expenses and net salaries owed to employees, per employee.')}
            </Text>
            {data.staff.data.length === 0 ? (
              <Text c="dimmed">{t('Nothing owed to staff.')}</Text>
            ) : (
              <OwedTable
                label={t('Owed to staff')}
                rows={data.staff.data}
                total={data.staff.total}
                who={t('Employee')}
                what={t('Expenses')}
                name={(row) => (
                  <Anchor component={Link} to={expensesHref(row.company?.name ?? null)}>
                    {row.company?.name ?? t('No employee named')}
                  </Anchor>
                )}
              />
            )}
            <Agreement account={data.staff.account} total={data.staff.total} what="expenses" />
          </Stack>
        </Stack>
      ) : null}
    </Page>
  );
}
