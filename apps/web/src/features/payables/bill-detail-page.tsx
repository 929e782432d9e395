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
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** A payment reference grouped for reading (SIX IG: QR reference in blocks of 5, RF… in blocks of 4). */
const shownReference = (reference: string) => (isValidQrReference(reference) ? formatQrReference(reference) : formatCreditorReference(reference));

const ROLE_LABEL: Record<PayableHistory['entries'][number]['role'], string> = { booking: msg('Booking'), payment: msg('Payment'), reversal: msg('Reversal') };

const QR_IBAN_SUFFIX = ' (QR-IBAN)';
/** When a status changed, Swiss style (11.03.2025, 09:30). */
const eventTime = (at: string) => new Date(at).toLocaleString('de-CH', { dateStyle: 'medium', timeStyle: 'short' });

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
  const { t } = useTranslation();
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
  if (error) return <ErrorAlert what={t('Could not show the voucher')} error={error} />;
  if (!url) return <TableSkeleton rows={3} />;
  return file.mimeType.startsWith('image/') ? (
    <img src={url} alt={file.name} style={{ width: '100%' }} />
  ) : (
    <iframe title={file.name} src={url} style={{ width: '100%', height: '70vh', border: 0 }} />
  );
}

/** A bill's fields; a staff expense in its own words (issue 16 §4): employee, receipt date, payment note. */
function BillFields({ bill }: { bill: Payable }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
      <Field label={t('Type')}>{bill.isExpense ? t('Expense (staff)') : t('Supplier bill')}</Field>
      <Field label={bill.isExpense ? t('Employee') : t('Supplier')}>
        {bill.company ? (
          <Anchor component={Link} to={paths.company.getHref(bill.company.uuid)}>
            {bill.company.name}
          </Anchor>
        ) : (
          '-'
        )}
      </Field>
      <Field label={t('Pay to')}>{bill.companyFinance?.iban ? `${formatIban(bill.companyFinance.iban)}${bill.companyFinance.type === 2 ? QR_IBAN_SUFFIX : ''}` : '-'}</Field>
      <Field label={bill.isExpense ? t('Receipt date') : t('Bill date')}>{formatDate(bill.date)}</Field>
      <Field label={t('Due date')}>{bill.dueDate ? formatDate(bill.dueDate) : '-'}</Field>
      <Field label={t('Amount')}>
        <Text span fw={600} inherit>
          <Amount value={bill.amount} /> {bill.currency}
        </Text>
      </Field>
      {bill.status === 2 || bill.status === 3 ? (
        <Field label={t('Open')}>
          <Text span fw={600} inherit c={bill.openAmount !== bill.amount ? 'orange' : undefined}>
            <Amount value={bill.openAmount} /> {bill.currency}
          </Text>
        </Field>
      ) : null}
      <Field label={t('of which VAT')}>
        <Amount value={bill.vatAmount} /> {bill.currency}
      </Field>
      {bill.exchangeRate !== '1' ? <Field label={t('Exchange rate')}>{bill.exchangeRate}</Field> : null}
      <Field label={t('Account')}>
        {bill.expenseAccount
          ? `${bill.expenseAccount.number} ${bill.expenseAccount.name}`
          : bill.isExpense
            ? t('Default (last used for the employee, else 6500)')
            : t('Default (last used for the supplier, else 4000)')}
      </Field>
      {bill.isExpense && !bill.referenceNumber ? null : <Field label={t('Reference')}>{bill.referenceNumber ? shownReference(bill.referenceNumber) : '-'}</Field>}
      <Field label={bill.isExpense ? t('Payment note') : t('Message')}>{bill.message ?? '-'}</Field>
      <Field label={t('Description')}>{bill.description || '-'}</Field>
      <Field label={t('Transaction group')}>
        {bill.transactionGroup ? (
          <Anchor component={Link} to={paths.transactionGroupDetail.getHref(bill.transactionGroup.id)}>
            TG{bill.transactionGroup.id}
          </Anchor>
        ) : (
          '-'
        )}
      </Field>
      {bill.bankTxStatus ? (
        <Field label={t('Bank')}>
          {bill.bankTxStatus}
          {bill.bankReason ? ` (${bill.bankReason})` : ''}
        </Field>
      ) : null}
    </SimpleGrid>
  );
}

function History({ history }: { history: PayableHistory }) {
  const { t } = useTranslation();
  return (
    <Timeline active={history.events.length - 1} bulletSize={18} lineWidth={2} aria-label={t('Status history')}>
      {history.events.map((event, i) => (
        <Timeline.Item key={`${event.at}-${i}`} title={t(payableStatusLabel[event.status] ?? event.statusName)}>
          <Text size="xs" c="dimmed">
            {eventTime(event.at)}
            {event.fromStatus
              ? ` · ${t('from {{status}}', { status: payableStatusLabel[event.fromStatus] ? t(payableStatusLabel[event.fromStatus]!) : event.fromStatus })}`
              : ` · ${t('created')}`}
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
  const { t } = useTranslation();
  if (!entries.length) {
    return (
      <Text c="dimmed" size="sm">
        {isExpense ? t('Nothing booked yet: an expense is booked when it is approved.') : t('Nothing booked yet: a bill is booked when it is approved.')}
      </Text>
    );
  }
  return (
    <Table withTableBorder aria-label={t('Postings')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={90}>{t('Entry')}</Table.Th>
          <Table.Th w={110}>{t('Date')}</Table.Th>
          <Table.Th>{t('Account')}</Table.Th>
          <Table.Th className="num" w={130}>
            {t('Debit')}
          </Table.Th>
          <Table.Th className="num" w={130}>
            {t('Credit')}
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
                {entry.reverses ? t('{{role}} of EN{{id}}', { role: t(ROLE_LABEL[entry.role]), id: entry.reverses.id }) : t(ROLE_LABEL[entry.role])}
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
                {`${line.account.number} ${line.account.name}`}
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
  const { t } = useTranslation();
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
      title={
        bill
          ? `${bill.isExpense ? t('Expense {{id}}', { id: bill.id }) : t('Bill {{id}}', { id: bill.id })}${bill.company ? ` · ${bill.company.name}` : ''}`
          : t('Bill')
      }
      actions={
        bill ? (
          <>
            {bill.status === 1 ? (
              <>
                <Button component={Link} to={paths.billEdit.getHref(uuid)} variant="default" leftSection={<IconEdit size={16} />}>
                  {t('Edit')}
                </Button>
                <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  {t('Delete')}
                </Button>
                <Button onClick={() => action.mutate(() => changePayableStatus(uuid, 2))} loading={action.isPending}>
                  {t('Approve')}
                </Button>
              </>
            ) : null}
            {bill.status === 2 ? (
              <>
                {bill.openAmount === bill.amount ? (
                  <>
                    <Button variant="default" onClick={() => action.mutate(() => changePayableStatus(uuid, 1))} loading={action.isPending}>
                      {t('Back to pending')}
                    </Button>
                    <Button variant="subtle" color="red" onClick={() => action.mutate(() => changePayableStatus(uuid, 5))} loading={action.isPending}>
                      {bill.isExpense ? t('Cancel expense') : t('Cancel bill')}
                    </Button>
                  </>
                ) : null}
                <Button onClick={() => setPaying(true)}>{t('Pay')}</Button>
              </>
            ) : null}
          </>
        ) : null
      }
    >
      {detail.isError ? <ErrorAlert what={t('Could not load the bill')} error={detail.error} onRetry={() => void detail.refetch()} /> : null}
      {action.isError ? <ErrorAlert what={bill?.isExpense ? t('Could not change the expense') : t('Could not change the bill')} error={action.error} /> : null}
      {remove.isError ? <ErrorAlert what={bill?.isExpense ? t('Could not delete the expense') : t('Could not delete the bill')} error={remove.error} /> : null}
      {reverse.isError ? <ErrorAlert what={t('Could not reverse the payment')} error={reverse.error} /> : null}
      <PayBillDialog bill={paying && bill ? bill : null} onClose={() => setPaying(false)} />
      {!bill && !detail.isError ? <TableSkeleton /> : null}
      {bill ? (
        <Grid>
          <Grid.Col span={{ base: 12, lg: voucher ? 7 : 12 }}>
            <Stack gap="md">
              <Paper withBorder p="md" radius="md">
                <Group justify="space-between" mb="sm">
                  <Badge color={payableStatusColor[bill.status]} variant="light" size="lg">
                    {t(payableStatusLabel[bill.status] ?? bill.statusName)}
                  </Badge>
                  {bill.status === 1 ? (
                    <Text size="sm" c="dimmed">
                      {t('Pending: editable until approved.')}
                    </Text>
                  ) : null}
                </Group>
                <BillFields bill={bill} />
                {bill.bankTxStatus === 'rejected' ? (
                  <Alert color="red" variant="light" mt="sm">
                    {t('Rejected by the bank: {{reason}}', { reason: bill.bankReason })}
                  </Alert>
                ) : null}
              </Paper>
              {bill.payments && bill.payments.length > 0 ? (
                <Paper withBorder p="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    {t('Payments')}
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
                  {t('Postings')}
                </Title>
                {history.isError ? <Text c="red">{errorMessage(history.error)}</Text> : history.data ? <Postings entries={history.data.entries} isExpense={bill.isExpense} /> : <TableSkeleton rows={3} />}
              </Paper>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  {t('Status history')}
                </Title>
                {history.data ? <History history={history.data} /> : null}
              </Paper>
            </Stack>
          </Grid.Col>
          {voucher ? (
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper withBorder p="xs" radius="md" aria-label={bill.isExpense ? t('Receipt') : t('Voucher')}>
                <Group justify="space-between" px="xs" pb="xs">
                  <Text size="sm" fw={500}>
                    {voucher.name}
                  </Text>
                  {history.data && history.data.files.length > 1 ? (
                    <Text size="xs" c="dimmed">
                      {t('+ {{number}} more', { number: history.data.files.length - 1 })}
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
  const { t } = useTranslation();
  const detail = useQuery(payableDetailQuery(uuid));
  if (detail.isError) return <ErrorAlert what={t('Could not load the bill')} error={detail.error} onRetry={() => void detail.refetch()} />;
  if (!detail.data) return <TableSkeleton />;
  if (detail.data.status !== 1) {
    return (
      <Alert color="yellow" title={t('Only a pending bill can be edited')}>
        <Anchor component={Link} to={paths.billDetail.getHref(uuid)}>
          {t('Back to the bill')}
        </Anchor>
      </Alert>
    );
  }
  return <BillAddPage key={detail.data.uuid} bill={detail.data} title={detail.data.isExpense ? t('Edit expense {{id}}', { id: detail.data.id }) : t('Edit bill {{id}}', { id: detail.data.id })} />;
}
