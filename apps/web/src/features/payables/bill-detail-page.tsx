import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Grid, Group, Paper, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { formatCreditorReference, formatDate, formatIban, formatQrReference, isValidQrReference } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  changePayableStatus,
  deletePayable,
  fileBlob,
  payableDetailQuery,
  payableHistoryQuery,
  payablesKey,
  payableStatusColor,
  payableStatusLabel,
  type InboxFile,
  type Payable,
  type PayableHistory,
} from './api';
import { BillAddPage } from './bill-add-page';
import { PayBillDialog } from './pay-bill-dialog';
import { PaymentsTable } from '../../ui/payments-table';
import { reversePayablePayment } from './api';

/** A payment reference grouped for reading (SIX IG: QR reference in blocks of 5, RF… in blocks of 4). */
const shownReference = (reference: string) => (isValidQrReference(reference) ? formatQrReference(reference) : formatCreditorReference(reference));

const ROLE_LABEL: Record<PayableHistory['entries'][number]['role'], string> = { booking: 'Booking', payment: 'Payment', reversal: 'Reversal' };

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** The voucher shown beside the bill: a PDF in a frame, an image as it is (fetched with the session token). */
function VoucherPreview({ file }: { file: InboxFile }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current: string | null = null;
    let cancelled = false;
    fileBlob(file.uuid).then(
      (blob) => {
        current = URL.createObjectURL(blob);
        if (!cancelled) setUrl(current);
      },
      (failure: unknown) => !cancelled && setError(failure),
    );
    return () => {
      cancelled = true;
      if (current) URL.revokeObjectURL(current);
    };
  }, [file.uuid]);
  if (error) return <ErrorAlert what="Could not show the voucher" error={error} />;
  if (!url) return <TableSkeleton rows={3} />;
  return file.mimeType.startsWith('image/') ? (
    <img src={url} alt={file.name} style={{ width: '100%' }} />
  ) : (
    <iframe title={file.name} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />
  );
}

/** A bill's fields; a staff expense in its own words (issue 16 §4): employee, receipt date, payment note. */
function BillFields({ bill }: { bill: Payable }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
      <Field label="Type">{bill.isExpense ? 'Expense (staff)' : 'Supplier bill'}</Field>
      <Field label={bill.isExpense ? 'Employee' : 'Supplier'}>
        {bill.company ? (
          <Anchor component={Link} to={paths.company.getHref(bill.company.uuid)}>
            {bill.company.name}
          </Anchor>
        ) : (
          '-'
        )}
      </Field>
      <Field label="Pay to">{bill.companyFinance?.iban ? `${formatIban(bill.companyFinance.iban)}${bill.companyFinance.type === 2 ? ' (QR-IBAN)' : ''}` : '-'}</Field>
      <Field label={bill.isExpense ? 'Receipt date' : 'Bill date'}>{formatDate(bill.date)}</Field>
      <Field label="Due date">{bill.dueDate ? formatDate(bill.dueDate) : '-'}</Field>
      <Field label="Amount">
        <Text span fw={600} inherit>
          <Amount value={bill.amount} /> {bill.currency}
        </Text>
      </Field>
      {bill.status === 2 || bill.status === 3 ? (
        <Field label="Open">
          <Text span fw={600} inherit c={bill.openAmount !== bill.amount ? 'orange' : undefined}>
            <Amount value={bill.openAmount} /> {bill.currency}
          </Text>
        </Field>
      ) : null}
      <Field label="of which VAT">
        <Amount value={bill.vatAmount} /> {bill.currency}
      </Field>
      {bill.exchangeRate !== '1' ? <Field label="Exchange rate">{bill.exchangeRate}</Field> : null}
      <Field label="Account">
        {bill.expenseAccount
          ? `${bill.expenseAccount.number} ${bill.expenseAccount.name}`
          : bill.isExpense
            ? 'Default (last used for the employee, else 6500)'
            : 'Default (last used for the supplier, else 4000)'}
      </Field>
      {bill.isExpense && !bill.referenceNumber ? null : <Field label="Reference">{bill.referenceNumber ? shownReference(bill.referenceNumber) : '-'}</Field>}
      <Field label={bill.isExpense ? 'Payment note' : 'Message'}>{bill.message ?? '-'}</Field>
      <Field label="Description">{bill.description || '-'}</Field>
      <Field label="Transaction group">
        {bill.transactionGroup ? (
          <Anchor component={Link} to={paths.transactionGroupDetail.getHref(bill.transactionGroup.id)}>
            TG{bill.transactionGroup.id}
          </Anchor>
        ) : (
          '-'
        )}
      </Field>
      {bill.bankTxStatus ? (
        <Field label="Bank">
          {bill.bankTxStatus}
          {bill.bankReason ? ` (${bill.bankReason})` : ''}
        </Field>
      ) : null}
    </SimpleGrid>
  );
}

function History({ history }: { history: PayableHistory }) {
  return (
    <Timeline active={history.events.length - 1} bulletSize={18} lineWidth={2} aria-label="Status history">
      {history.events.map((event, i) => (
        <Timeline.Item key={`${event.at}-${i}`} title={payableStatusLabel[event.status] ?? event.statusName}>
          <Text size="xs" c="dimmed">
            {new Date(event.at).toLocaleString('de-CH', { dateStyle: 'medium', timeStyle: 'short' })}
            {event.fromStatus ? ` · from ${payableStatusLabel[event.fromStatus] ?? event.fromStatus}` : ' · created'}
          </Text>
          {event.transactionGroup && event.status === 3 ? (
            <Anchor component={Link} to={paths.transactionGroupDetail.getHref(event.transactionGroup.id)} size="xs">
              TG{event.transactionGroup.id}
            </Anchor>
          ) : null}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** The entries that booked, paid or reversed the bill: per entry a row with its link, date and journal text, then its lines. */
function Postings({ entries, isExpense }: { entries: PayableHistory['entries']; isExpense: boolean }) {
  if (!entries.length) return <Text c="dimmed" size="sm">Nothing booked yet: {isExpense ? 'an expense' : 'a bill'} is booked when it is approved.</Text>;
  return (
    <Table withTableBorder aria-label="Postings">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={90}>Entry</Table.Th>
          <Table.Th w={110}>Date</Table.Th>
          <Table.Th>Account</Table.Th>
          <Table.Th className="num" w={130}>
            Debit
          </Table.Th>
          <Table.Th className="num" w={130}>
            Credit
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.flatMap((entry) => [
          <Table.Tr key={entry.id}>
            <Table.Td>
              <Anchor component={Link} to={paths.entryDetail.getHref(entry.id)}>
                EN{entry.id}
              </Anchor>
              <Text size="xs" c="dimmed">
                {ROLE_LABEL[entry.role]}
                {entry.reverses ? ` of EN${entry.reverses.id}` : ''}
              </Text>
            </Table.Td>
            <Table.Td>{formatDate(entry.dateLedger)}</Table.Td>
            <Table.Td colSpan={3}>
              <Text size="sm" fw={500}>
                {entry.description}
              </Text>
            </Table.Td>
          </Table.Tr>,
          ...entry.entryAccounts.map((line, i) => (
            <Table.Tr key={`${entry.id}-${i}`}>
              <Table.Td />
              <Table.Td />
              <Table.Td>
                {line.account.number} {line.account.name}
              </Table.Td>
              <Table.Td className="num">{line.direction === 1 ? <Amount value={line.amount} /> : null}</Table.Td>
              <Table.Td className="num">{line.direction === -1 ? <Amount value={line.amount} /> : null}</Table.Td>
            </Table.Tr>
          )),
        ])}
      </Table.Tbody>
    </Table>
  );
}

/**
 * /bill/{uuid}/detail: the bill's fields, its status history and actions (approve, back to
 * pending, cancel, delete and edit while pending), the postings that booked, paid or reversed it
 * with links to the entries, and its voucher beside it.
 */
export function BillDetailPage({ uuid }: { uuid: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const detail = useQuery(payableDetailQuery(uuid));
  const history = useQuery(payableHistoryQuery(uuid));
  const refresh = () => queryClient.invalidateQueries({ queryKey: payablesKey });
  const action = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => deletePayable(uuid),
    onSuccess: async () => {
      await refresh();
      await navigate('/bill');
    },
  });
  const bill = detail.data;
  const voucher = history.data?.files[0];
  const [paying, setPaying] = useState(false);
  const reverse = useMutation({ mutationFn: (paymentUuid: string) => reversePayablePayment(paymentUuid), onSuccess: refresh });

  return (
    <Page
      title={bill ? `${bill.isExpense ? 'Expense' : 'Bill'} ${bill.id}${bill.company ? ` · ${bill.company.name}` : ''}` : 'Bill'}
      actions={
        bill ? (
          <>
            {bill.status === 1 ? (
              <>
                <Button component={Link} to={paths.billEdit.getHref(uuid)} variant="default" leftSection={<IconEdit size={16} />}>
                  Edit
                </Button>
                <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Delete
                </Button>
                <Button onClick={() => action.mutate(() => changePayableStatus(uuid, 2))} loading={action.isPending}>
                  Approve
                </Button>
              </>
            ) : null}
            {bill.status === 2 ? (
              <>
                {bill.openAmount === bill.amount ? (
                  <>
                    <Button variant="default" onClick={() => action.mutate(() => changePayableStatus(uuid, 1))} loading={action.isPending}>
                      Back to pending
                    </Button>
                    <Button variant="subtle" color="red" onClick={() => action.mutate(() => changePayableStatus(uuid, 5))} loading={action.isPending}>
                      {bill.isExpense ? 'Cancel expense' : 'Cancel bill'}
                    </Button>
                  </>
                ) : null}
                <Button onClick={() => setPaying(true)}>Pay</Button>
              </>
            ) : null}
          </>
        ) : null
      }
    >
      {detail.isError ? <ErrorAlert what="Could not load the bill" error={detail.error} onRetry={() => void detail.refetch()} /> : null}
      {action.isError ? <ErrorAlert what={`Could not change the ${bill?.isExpense ? 'expense' : 'bill'}`} error={action.error} /> : null}
      {remove.isError ? <ErrorAlert what={`Could not delete the ${bill?.isExpense ? 'expense' : 'bill'}`} error={remove.error} /> : null}
      {reverse.isError ? <ErrorAlert what="Could not reverse the payment" error={reverse.error} /> : null}
      <PayBillDialog bill={paying && bill ? bill : null} onClose={() => setPaying(false)} />
      {!bill && !detail.isError ? <TableSkeleton /> : null}
      {bill ? (
        <Grid>
          <Grid.Col span={{ base: 12, lg: voucher ? 7 : 12 }}>
            <Stack gap="md">
              <Paper withBorder p="md" radius="md">
                <Group justify="space-between" mb="sm">
                  <Badge color={payableStatusColor[bill.status]} variant="light" size="lg">
                    {payableStatusLabel[bill.status] ?? bill.statusName}
                  </Badge>
                  {bill.status === 1 ? (
                    <Text size="sm" c="dimmed">
                      Pending: editable until approved.
                    </Text>
                  ) : null}
                </Group>
                <BillFields bill={bill} />
                {bill.bankTxStatus === 'rejected' ? (
                  <Alert color="red" variant="light" mt="sm">
                    Rejected by the bank: {bill.bankReason}
                  </Alert>
                ) : null}
              </Paper>
              {bill.payments && bill.payments.length > 0 ? (
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    Payments
                  </Title>
                  <PaymentsTable
                    payments={bill.payments}
                    currency={bill.currency}
                    entryHref={(id) => paths.entryDetail.getHref(id)}
                    onReverse={(payment) => reverse.mutate(payment.uuid)}
                    reversing={reverse.isPending ? reverse.variables : null}
                  />
                </Paper>
              ) : null}
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Postings
                </Title>
                {history.isError ? <Text c="red">{errorMessage(history.error)}</Text> : history.data ? <Postings entries={history.data.entries} isExpense={bill.isExpense} /> : <TableSkeleton rows={3} />}
              </Paper>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Status history
                </Title>
                {history.data ? <History history={history.data} /> : null}
              </Paper>
            </Stack>
          </Grid.Col>
          {voucher ? (
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper withBorder p="xs" radius="md" aria-label={bill.isExpense ? 'Receipt' : 'Voucher'}>
                <Group justify="space-between" px="xs" pb="xs">
                  <Text size="sm" fw={500}>
                    {voucher.name}
                  </Text>
                  {history.data && history.data.files.length > 1 ? (
                    <Text size="xs" c="dimmed">
                      + {history.data.files.length - 1} more
                    </Text>
                  ) : null}
                </Group>
                <VoucherPreview file={voucher} />
              </Paper>
            </Grid.Col>
          ) : null}
        </Grid>
      ) : null}
    </Page>
  );
}

/** /bill/{uuid}/edit: the bill form on a pending bill (`/payable/update`); other statuses go back to the detail. */
export function BillEditPage({ uuid }: { uuid: string }) {
  const detail = useQuery(payableDetailQuery(uuid));
  if (detail.isError) return <ErrorAlert what="Could not load the bill" error={detail.error} onRetry={() => void detail.refetch()} />;
  if (!detail.data) return <TableSkeleton />;
  if (detail.data.status !== 1) {
    return (
      <Alert color="yellow" title="Only a pending bill can be edited">
        <Anchor component={Link} to={paths.billDetail.getHref(uuid)}>
          Back to the bill
        </Anchor>
      </Alert>
    );
  }
  return <BillAddPage key={detail.data.uuid} bill={detail.data} title={`Edit ${detail.data.isExpense ? 'expense' : 'bill'} ${detail.data.id}`} />;
}
