import { Alert, Badge, Button, FileButton, Group, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatDate, formatIban } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  bankStatusLabel,
  changeGroupStatus,
  deleteGroup,
  downloadPain001,
  groupDetailQuery,
  groupStatusColor,
  groupStatusLabel,
  importBankFile,
  payablesKey,
  payableStatusLabel,
  type ImportResult,
} from './api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

const importSummary = (result: ImportResult, t: TFunction) =>
  result.kind === 'pain.002'
    ? t('Status report read: {{accepted}} accepted, {{rejected}} rejected.', { accepted: result.accepted ?? 0, rejected: result.rejected ?? 0 })
    : result.duplicateFile
      ? t('This file was imported before: nothing new.')
      : t('{{imported}} bank transactions imported, {{matched}} matched, {{duplicates}} imported before.', {
          imported: result.imported ?? 0,
          matched: result.matched ?? 0,
          duplicates: result.duplicates ?? 0,
        });

const LIST_SEPARATOR = ', ';

/** /transaction-group/{id}/detail: the bills, the pain.001 download, status changes and bank answers. */
export function TransactionGroupDetailPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const group = useQuery(groupDetailQuery(id));
  const refresh = () => queryClient.invalidateQueries({ queryKey: payablesKey });
  const action = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  // One status change at a time: the buttons are disabled while one is pending (a double click posts once).
  const run = useSingleFlight(action.mutateAsync);
  const upload = useMutation({ mutationFn: async (file: File) => importBankFile(await file.text()), onSuccess: refresh });

  const g = group.data;
  return (
    <Page title={t('Transaction Group TG{{id}}', { id })}>
      {group.isError ? <ErrorAlert what={t('Could not load the transaction group')} error={group.error} onRetry={() => void group.refetch()} /> : null}
      {!g && !group.isError ? <TableSkeleton /> : null}
      {g ? (
        <>
          <Paper withBorder p="md" radius="md">
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <div>
                <Text size="xs" c="dimmed">
                  {t('Status')}
                </Text>
                <Badge color={groupStatusColor[g.status]} variant="light">
                  {t(groupStatusLabel[g.status] ?? '')}
                </Badge>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {t('Bank')}
                </Text>
                <Text size="sm">{t(bankStatusLabel[g.bankStatus] ?? '')}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {g.executionDates.length > 1 ? t('Execution dates (one payment block each)') : t('Execution date')}
                </Text>
                <Text size="sm">{(g.executionDates.length ? g.executionDates : [g.executionDate]).map(formatDate).join(LIST_SEPARATOR)}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {t('Total')}
                </Text>
                <Text size="sm" fw={600}>
                  <Amount value={g.total} />
                </Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  {t('Paid from')}
                </Text>
                <Text size="sm">
                  {`${g.debtor.company.name} · ${formatIban(g.debtor.iban)} (${g.debtor.account.number})`}
                </Text>
              </div>
              {g.paidDate ? (
                <div>
                  <Text size="xs" c="dimmed">
                    {t('Paid on')}
                  </Text>
                  <Text size="sm">{formatDate(g.paidDate)}</Text>
                </div>
              ) : null}
            </SimpleGrid>
          </Paper>
          <Group gap="xs">
            <Button leftSection={<IconDownload size={16} />} disabled={g.count === 0 || action.isPending} onClick={() => run(() => downloadPain001(id))}>
              {t('Download pain.001')}
            </Button>
            {g.status === 1 ? (
              <Button variant="default" disabled={action.isPending} onClick={() => run(() => changeGroupStatus(id, 4))}>
                {t('Mark as sent to the bank')}
              </Button>
            ) : null}
            {g.status === 4 ? (
              <Button variant="default" disabled={action.isPending} onClick={() => run(() => changeGroupStatus(id, 2))}>
                {t('Mark as paid')}
              </Button>
            ) : null}
            {g.status === 1 || g.status === 4 ? (
              <Button variant="subtle" color="red" disabled={action.isPending} onClick={() => run(() => changeGroupStatus(id, 3))}>
                {t('Deny')}
              </Button>
            ) : null}
            {g.status === 1 ? (
              <Button
                variant="subtle"
                color="red"
                disabled={action.isPending}
                onClick={() =>
                  run(async () => {
                    await deleteGroup(id);
                    await navigate(paths.transactionGroups.getHref());
                  })
                }
              >
                {t('Delete')}
              </Button>
            ) : null}
            <FileButton onChange={(file) => file && upload.mutate(file)} accept=".xml,application/xml,text/xml">
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                  {t('Import bank file (camt.054 / pain.002)')}
                </Button>
              )}
            </FileButton>
          </Group>
          {action.isError ? <ErrorAlert what={t('Could not do that')} error={action.error} /> : null}
          {upload.isError ? <ErrorAlert what={t('Could not import the bank file')} error={upload.error} /> : null}
          {upload.data ? (
            <Alert color="green" variant="light" role="status">
              {importSummary(upload.data, t)}
            </Alert>
          ) : null}
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={70}>{t('Bill')}</Table.Th>
                <Table.Th>{t('Supplier / employee')}</Table.Th>
                <Table.Th>{t('Pay to')}</Table.Th>
                <Table.Th>{t('Reference')}</Table.Th>
                <Table.Th className="num" w={150}>
                  {t('Amount')}
                </Table.Th>
                <Table.Th w={150}>{t('Status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {g.Payable.map((bill) => (
                <Table.Tr key={bill.uuid}>
                  <Table.Td>{bill.id}</Table.Td>
                  <Table.Td>
                    {bill.isExpense ? (
                      <Badge color="grape" variant="light" size="sm" mr={6}>
                        {t('Expense')}
                      </Badge>
                    ) : null}
                    {bill.company?.name ?? '-'}
                    {bill.isExpense && bill.description ? (
                      <Text size="xs" c="dimmed">
                        {bill.description}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{bill.companyFinance?.iban ? formatIban(bill.companyFinance.iban) : '-'}</Table.Td>
                  <Table.Td>{bill.referenceNumber ?? '-'}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={bill.amount} /> {bill.currency}
                  </Table.Td>
                  <Table.Td>
                    {t(payableStatusLabel[bill.status] ?? '')}
                    {bill.bankTxStatus ? (
                      <Text size="xs" c={bill.bankTxStatus === 'rejected' ? 'red' : 'dimmed'}>
                        {t('Bank: {{status}}', { status: bill.bankTxStatus })}
                        {bill.bankReason ? ` (${bill.bankReason})` : ''}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {g.Payable.length === 0 ? <Text c="dimmed">{t('No bills left in this group.')}</Text> : null}
        </>
      ) : null}
    </Page>
  );
}
