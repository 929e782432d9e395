import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, CopyButton, Group, Menu, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDownload, IconEye, IconPencil, IconReceiptRefund, IconSend, IconShare, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { formatAmount, formatCreditorReference, formatDate, formatIban, formatQrReference, vatPeriodOf, vatRateAt, vatRateToPercent, type InvoiceItemInput } from '@bilan/domain';
import { paths } from '../../config/paths';
import { api, ApiError } from '../../lib/api';
import { today } from '../../lib/dates';
import { useSingleFlight } from '../../lib/single-flight';
import { isApiError, serverFieldErrors } from '../../lib/errors';
import { useCan } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { CenteredLoader } from '../../ui/centered-loader';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { NotFound } from '../../ui/not-found';
import { Page } from '../../ui/page';
import { SettledAmountField } from '../../ui/settled-amount-field';
import { TableSkeleton } from '../../ui/table-skeleton';
import { WriteError } from './write-error';
import { vatSettingsQuery } from '../../lib/vat-settings';
import {
  changeStatus,
  deleteInvoice,
  emailInvoice,
  deleteItem,
  fetchInvoicePdf,
  formOptionsQuery,
  insertItem,
  invoiceDetailQuery,
  invoiceKey,
  postedEntryQuery,
  reverseInvoicePayment,
  revokeShare,
  shareInvoice,
  updateInvoice,
  updateItem,
  InvoiceStatusWord,
  type Invoice,
  type InvoiceItem,
} from './api';
import { InvoiceForm, type InvoiceFormPayload } from './invoice-form';
import { EmailOptions, InvoiceMessages, type EmailChoice } from './send-email';
import { StatusBadge } from './invoices-page';
import { saveBlob } from '../../lib/save-file';
import { PaymentsTable } from '../../ui/payments-table';
import { PayInvoiceDialog } from './pay-invoice-dialog';
import { CreditNoteDialog, CreditNotesList } from './credit-note-dialog';
import { Trans, useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, languageOptions, msg } from '../../lib/i18n';
import { useDocumentLanguage } from '../../lib/document-language';

// Journal and balances are cached under this key by the accounting feature.
const accountingKey = ['accounting'] as const;

type Action = { status: 2 | 3 | 4; title: string; label: string } | null;

/**
 * Under agreed consideration the return counts the sent posting in the VAT period of its ledger
 * date: a ledger date outside the invoice date's period declares the invoice late (decision 020).
 */
function VatPeriodHint({ dateInvoice, ledgerDate }: { dateInvoice: string; ledgerDate: string | null }) {
  const { t } = useTranslation();
  const settings = useQuery({ ...vatSettingsQuery(), retry: false }).data?.settings;
  if (!settings || settings.basis !== 'agreed' || !ledgerDate || ledgerDate < settings.registrationDate) return null;
  const invoicePeriod = vatPeriodOf(settings.period, dateInvoice, settings.registrationDate);
  const ledgerPeriod = vatPeriodOf(settings.period, ledgerDate, settings.registrationDate);
  if (!invoicePeriod || !ledgerPeriod || invoicePeriod.dateFrom === ledgerPeriod.dateFrom) return null;
  return (
    <Alert color="yellow" variant="light" p="xs">
      <Text size="sm">
        {t(
          'The invoice date {{date}} is in the VAT period {{period}}; posted on {{ledgerDate}} the invoice is declared in {{ledgerPeriod}}. Post it on a date of {{period}} unless that return is already filed.',
          { date: formatDate(dateInvoice), period: invoicePeriod.label, ledgerDate: formatDate(ledgerDate), ledgerPeriod: ledgerPeriod.label },
        )}
      </Text>
    </Alert>
  );
}

/**
 * Send, mark paid or deny, with the ledger date of the posting: sending defaults to the invoice
 * date (the revenue belongs to it), payment and denial to today. Paid and denied are dated on or
 * after the sent date (the server says so on `ledgerDate`).
 */
function StatusModal({ invoice, action, onClose }: { invoice: Invoice; action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [ledgerDate, setLedgerDate] = useState<string | null>(action?.status === 2 ? invoice.dateInvoice : today());
  const [bankRef, setBankRef] = useState('');
  // An invoice in another currency is paid for what the bank credited in the books' currency.
  const converted = action?.status === 3 && invoice.currency !== invoice.baseCurrency;
  const [amountBase, setAmountBase] = useState(invoice.totalBase);
  // Sending: post only (the status change), or post and e-mail (issue 15 §1, send-email.tsx).
  const [email, setEmail] = useState<EmailChoice>({ mode: 'post', contactIds: [], lang: null });
  const mutation = useMutation({
    mutationFn: async () => {
      if (action?.status === 2 && email.mode === 'email') {
        const sent = await emailInvoice({ uuid: invoice.uuid, contactIds: email.contactIds, ledgerDate: ledgerDate ?? undefined, ...(email.lang ? { lang: email.lang } : {}) });
        notifications.show({
          color: 'blue',
          message:
            sent.messages[0]?.status === 'not_sent'
              ? t('{{count}} e-mails kept in the outbox: no mail server configured', { count: sent.messages.length })
              : t('{{count}} e-mails queued', { count: sent.messages.length }),
        });
        return api.post('/api/invoice/detail', { id: invoice.uuid });
      }
      return changeStatus({
        uuid: invoice.uuid,
        status: action!.status,
        ledgerDate: ledgerDate ?? undefined,
        ...(action?.status === 3 && bankRef ? { bankRef } : {}),
        ...(converted ? { amountBase } : {}),
      });
    },
    onSuccess: async (updated) => {
      queryClient.setQueryData(invoiceDetailQuery(invoice.uuid).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      notifications.show({ color: 'green', message: t('Invoice {{number}} is now {{status}}', { number: updated.refNumber, status: t(InvoiceStatusWord[updated.status] ?? updated.statusName) }) });
      onClose();
    },
  });
  const submit = useSingleFlight(mutation.mutateAsync);
  const fields = serverFieldErrors(mutation.error);
  const dateError = fields.ledgerDate;
  const amount = `${invoice.currency} ${formatAmount(invoice.totals.total)}`;
  return (
    <Modal opened={action !== null} onClose={onClose} title={action?.title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Text size="sm">
            {action?.status === 2
              ? t('Posts the receivable of {{amount}} against revenue and VAT.', { amount })
              : action?.status === 3
                ? t('Posts the payment of {{amount}} to the bank account and clears the receivable.', { amount })
                : t('Reverses the posting of the sent invoice.')}
          </Text>
          <DateField label={t('Ledger date')} required value={ledgerDate} onChange={setLedgerDate} error={dateError} />
          {action?.status === 2 ? <VatPeriodHint dateInvoice={invoice.dateInvoice} ledgerDate={ledgerDate} /> : null}
          {action?.status === 2 ? <EmailOptions invoice={invoice} value={email} onChange={setEmail} error={fields.contactIds} /> : null}
          {converted ? (
            <SettledAmountField
              kind="receivable"
              amount={invoice.totals.total}
              currency={invoice.currency}
              booked={invoice.totalBase}
              base={invoice.baseCurrency}
              value={amountBase}
              onChange={setAmountBase}
              error={fields.amountBase}
            />
          ) : null}
          {action?.status === 3 ? <TextInput label={t('Bank reference')} value={bankRef} onChange={(e) => setBankRef(e.currentTarget.value)} /> : null}
          {mutation.isError && !dateError && !fields.amountBase && !fields.contactIds ? <WriteError error={mutation.error} what={t('Could not change the status')} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            {/* Focus on the action, not the date: a focused date input opens its calendar over the buttons. */}
            <Button type="submit" loading={mutation.isPending} color={action?.status === 4 ? 'red' : undefined} data-autofocus>
              {action?.label}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Asks before deleting a pending invoice. */
function DeleteModal({ invoice, opened, onClose }: { invoice: Invoice; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteInvoice(invoice.uuid),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: invoiceDetailQuery(invoice.uuid).queryKey });
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      notifications.show({ color: 'green', message: t('Invoice {{number}} deleted', { number: invoice.refNumber }) });
      void navigate(paths.invoices.getHref());
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('Delete invoice')}>
      <Stack>
        <Text size="sm">
          {t('Are you sure you would like to delete invoice {{number}} for {{name}}? It has not been posted, so nothing in the books changes.', { number: invoice.refNumber, name: invoice.company.name })}
        </Text>
        {remove.isError ? <WriteError error={remove.error} what={t('Could not delete the invoice')} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t('Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Whether a form line differs from the stored one (only changed lines are sent). */
function lineChanged(stored: InvoiceItem, line: InvoiceItemInput): boolean {
  const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '') === (b ?? '') || (!!a && !!b && Number(a) === Number(b));
  return !(
    stored.name === line.name.trim() &&
    same(stored.amount, line.amount) &&
    same(stored.price, line.price) &&
    same(stored.discount, line.discount) &&
    same(stored.discountAbs, line.discountAbs) &&
    same(stored.vat, line.vat) &&
    (stored.account?.id ?? null) === (line.account?.id ?? null)
  );
}

/** A failed line call with its fields named as the form's line N (`data.items.N.field`). */
function asLineError(error: unknown, index: number): unknown {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return error;
  const fields = serverFieldErrors(error);
  const moved = Object.fromEntries(Object.entries(fields).map(([path, message]) => [`data.items.${index}.${path.replace(/^data\./, '')}`, message]));
  return new ApiError(error.status, { ...(error.body as Record<string, unknown>), fields: moved }, 'POST', '/api/invoice/item');
}

/**
 * Saves an edit of a pending invoice the way the API offers it: the head through /invoice/update,
 * then removed lines through /invoice/item/delete, changed ones through /item/update and new ones
 * through /item/insert (the form has checked every line with the domain rules before).
 */
async function saveEdit(invoice: Invoice, { head, items }: InvoiceFormPayload): Promise<void> {
  await updateInvoice(invoice.uuid, head);
  const kept = new Set(items.flatMap((item) => (item.id === null ? [] : [item.id])));
  for (const stored of invoice.items) if (!kept.has(stored.id)) await deleteItem(stored.id);
  for (const [index, { id, ...line }] of items.entries()) {
    try {
      if (id === null) await insertItem(invoice.uuid, line);
      else {
        const stored = invoice.items.find((item) => item.id === id);
        if (!stored || lineChanged(stored, line)) await updateItem(id, line);
      }
    } catch (error) {
      throw asLineError(error, index);
    }
  }
}

/** The postings of the invoice's journal entries: debit and credit per account, linked to the entries. */
function Postings({ invoice }: { invoice: Invoice }) {
  // The status entries, then every payment's entries (part payments, write-offs, reversals; issue 14 §3), in posting order.
  const { t } = useTranslation();
  const labels = new Map<number, string>();
  const kinds = { sent: t('invoice sent'), paid: t('payment'), denied: t('reversal, denied') } as const;
  for (const entry of invoice.entries) labels.set(entry.id, kinds[entry.kind]);
  // A credit note that settled the invoice is also its `paid` entry: the credit note's label wins.
  for (const note of invoice.creditNotes ?? []) if (note.entryId !== null) labels.set(note.entryId, t('credit note {{number}}', { number: note.number }));
  for (const payment of invoice.payments ?? []) {
    const discount = payment.writeOffKind === 'discount';
    if (payment.entryId !== null) labels.set(payment.entryId, t('payment'));
    if (payment.writeOffEntryId !== null) labels.set(payment.writeOffEntryId, discount ? t('cash discount') : t('small difference'));
    if (payment.reversed?.entryId) labels.set(payment.reversed.entryId, t('payment reversed'));
    if (payment.reversed?.writeOffEntryId) labels.set(payment.reversed.writeOffEntryId, discount ? t('cash discount reversed') : t('small difference reversed'));
  }
  const posted = [...labels.entries()].sort((a, b) => a[0] - b[0]).map(([id, label]) => ({ id, label }));
  const entries = useQueries({ queries: posted.map((entry) => postedEntryQuery(entry.id)) });
  return (
    <Paper withBorder p="md">
      <Text fw={600} mb="xs">
        {t('Postings')}
      </Text>
      {posted.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('Nothing posted yet: sending the invoice posts it to the books.')}
        </Text>
      ) : (
        <Table withTableBorder aria-label={t('Postings')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={230}>{t('Journal entry')}</Table.Th>
              <Table.Th w={110}>{t('Ledger date')}</Table.Th>
              <Table.Th>{t('Account')}</Table.Th>
              <Table.Th className="num" w={130}>
                {t('Debit {{currency}}', { currency: invoice.baseCurrency })}
              </Table.Th>
              <Table.Th className="num" w={130}>
                {t('Credit {{currency}}', { currency: invoice.baseCurrency })}
              </Table.Th>
              <Table.Th className="num" w={170}>
                {t('Original')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {posted.map((entry, index) => {
              const detail = entries[index]?.data;
              const link = (
                <Anchor component={Link} to={paths.entryDetail.getHref(entry.id)} size="sm">
                  {t('Journal entry {{id}} ({{label}})', { id: entry.id, label: entry.label })}
                </Anchor>
              );
              if (!detail) {
                return (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{link}</Table.Td>
                    <Table.Td colSpan={5}>
                      <Text size="sm" c="dimmed">
                        {entries[index]?.isError ? t('Could not load the postings.') : t('Loading…')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              }
              return detail.entryAccounts.map((line, lineIndex) => (
                <Table.Tr key={`${entry.id}-${line.id}`}>
                  <Table.Td>{lineIndex === 0 ? link : null}</Table.Td>
                  <Table.Td>{lineIndex === 0 ? formatDate(detail.dateLedger) : null}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.accountDetail.getHref(line.account.id)} size="sm">
                      {line.account.number}
                    </Anchor>{' '}
                    <Text span size="sm">
                      {line.account.name}
                    </Text>
                  </Table.Td>
                  <Table.Td className="num">{line.direction === 1 ? <Amount value={line.amount} /> : null}</Table.Td>
                  <Table.Td className="num">{line.direction === -1 ? <Amount value={line.amount} /> : null}</Table.Td>
                  <Table.Td className="num">
                    {line.currency !== invoice.baseCurrency ? (
                      <Text span size="sm" c="dimmed">
                        {`${line.currency} ${formatAmount(line.originalAmount)} @ ${line.exchangeRate}`}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ));
            })}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function ShareBox({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<string | null>(null);
  const share = useMutation({
    mutationFn: () => shareInvoice(invoice.uuid),
    onSuccess: async ({ token }) => {
      setLink(`${window.location.origin}${paths.publicInvoice.getHref(token)}`);
      await queryClient.invalidateQueries({ queryKey: invoiceDetailQuery(invoice.uuid).queryKey });
    },
  });
  const revoke = useMutation({
    mutationFn: () => revokeShare(invoice.uuid),
    onSuccess: async () => {
      setLink(null);
      await queryClient.invalidateQueries({ queryKey: invoiceDetailQuery(invoice.uuid).queryKey });
    },
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Text fw={600}>{t('Share link')}</Text>
        <Text size="sm" c="dimmed">
          {t('Anyone with the link sees this invoice and its PDF without signing in, nothing else. A new link revokes the old one.')}
        </Text>
        {link ? (
          <Group gap="xs" wrap="nowrap">
            <TextInput value={link} readOnly aria-label={t('Share link')} style={{ flex: 1 }} />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? t('Copied') : t('Copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : null}
        <Group gap="xs">
          <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => share.mutate()} loading={share.isPending}>
            {invoice.shared ? t('New share link') : t('Create share link')}
          </Button>
          {invoice.shared ? (
            <Button variant="subtle" color="red" onClick={() => revoke.mutate()} loading={revoke.isPending}>
              {t('Revoke')}
            </Button>
          ) : null}
        </Group>
        {share.isError ? <WriteError error={share.error} what={t('Could not create the link')} /> : null}
      </Stack>
    </Paper>
  );
}

function PdfButtons({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const [lang, setLang] = useDocumentLanguage(invoice.company.uuid);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const fetchPdf = async (onlyReceipt: boolean) => {
    setError(null);
    setBusy(true);
    try {
      return await fetchInvoicePdf(invoice.uuid, lang, onlyReceipt);
    } catch (failure) {
      setError(failure);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const get = async (onlyReceipt: boolean) => {
    const blob = await fetchPdf(onlyReceipt);
    return blob ? URL.createObjectURL(blob) : null;
  };
  const download = async (onlyReceipt: boolean) => {
    const blob = await fetchPdf(onlyReceipt);
    if (blob) saveBlob(blob, `${invoice.refNumber}${onlyReceipt ? '-qr-bill' : ''}.pdf`);
  };
  return (
    <>
      <Group gap="xs">
        <Menu>
          <Menu.Target>
            <Button variant="default" size="sm">
              {t('Language: {{language}}', { language: LANGUAGE_NAMES[lang] })}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {languageOptions.map((l) => (
              <Menu.Item key={l.value} onClick={() => setLang(l.value)}>
                {l.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Button variant="default" leftSection={<IconEye size={16} />} loading={busy} onClick={() => void get(false).then(setPreview)}>
          {t('Preview PDF')}
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download(false)}>
          {t('Download PDF')}
        </Button>
        <Button variant="subtle" onClick={() => void download(true)}>
          {t('QR-bill only')}
        </Button>
      </Group>
      {error ? <WriteError error={error} what={t('Could not make the PDF')} /> : null}
      <Modal opened={preview !== null} onClose={() => setPreview(null)} size="xl" title={`${invoice.refNumber} PDF`}>
        {preview ? <iframe src={preview} title={t('Invoice PDF')} style={{ width: '100%', height: '75vh', border: 0 }} /> : null}
      </Modal>
    </>
  );
}

/** /invoice/{uuid}/detail: the invoice, its edit form while pending, status actions, PDF, share link and postings. */
/** `extra`: sections other features add to the detail (the route composes them, e.g. the reminder history). */
export function InvoiceDetailPage({ extra }: { extra?: ReactNode } = {}) {
  const { t } = useTranslation();
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const invoice = useQuery(invoiceDetailQuery(uuid));
  const canWrite = useCan('write');
  const [action, setAction] = useState<Action>(null);
  const [deleting, setDeleting] = useState(false);
  const [paying, setPaying] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const [editing, setEditing] = useState(false);
  const reverse = useMutation({
    mutationFn: (paymentUuid: string) => reverseInvoicePayment(paymentUuid),
    onSuccess: async (updated) => {
      queryClient.setQueryData(invoiceDetailQuery(updated.uuid).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
  });
  const options = useQuery({ ...formOptionsQuery(), enabled: editing });

  if (invoice.isError && isApiError(invoice.error, 404)) return <NotFound />;
  const data = invoice.data;
  const reference = data ? (data.paymentReference.startsWith('RF') ? formatCreditorReference(data.paymentReference) : formatQrReference(data.paymentReference)) : '';
  const pending = data?.status === 1;
  const foreign = data ? data.currency !== data.baseCurrency : false;

  return (
    <Page
      title={data ? t('Invoice {{number}}', { number: data.refNumber }) : t('Invoice')}
      actions={
        data && !editing ? (
          <>
            <StatusBadge status={data.status} />
            {pending && canWrite ? (
              <>
                <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
                  {t('Edit')}
                </Button>
                <Button leftSection={<IconSend size={16} />} onClick={() => setAction({ status: 2, title: t('Send invoice'), label: t('Send') })}>
                  {t('Send')}
                </Button>
                <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
                  {t('Delete')}
                </Button>
              </>
            ) : null}
            {data.status === 2 && canWrite ? (
              <>
                <Button color="green" leftSection={<IconCheck size={16} />} onClick={() => setPaying(true)}>
                  {t('Mark paid')}
                </Button>
                <Button variant="default" color="orange" leftSection={<IconReceiptRefund size={16} />} onClick={() => setCrediting(true)}>
                  {t('Credit note')}
                </Button>
                {data.openAmount === undefined || data.openAmount === data.totals.total ? (
                  <Button variant="default" color="red" leftSection={<IconX size={16} />} onClick={() => setAction({ status: 4, title: t('Deny invoice'), label: t('Deny') })}>
                    {t('Deny')}
                  </Button>
                ) : null}
              </>
            ) : null}
          </>
        ) : null
      }
    >
      {invoice.isError ? <ErrorAlert what={t('Could not load the invoice')} error={invoice.error} onRetry={() => void invoice.refetch()} /> : null}
      {!data && !invoice.isError ? <TableSkeleton /> : null}
      {data && editing ? (
        <>
          {options.isError ? <ErrorAlert what={t('Could not load customers and payment profiles')} error={options.error} onRetry={() => void options.refetch()} /> : null}
          {options.isPending ? <CenteredLoader /> : null}
          {options.data ? (
            <InvoiceForm
              options={options.data}
              invoice={data}
              submitLabel={t('Save changes')}
              onCancel={() => setEditing(false)}
              onSubmit={async (payload) => {
                try {
                  await saveEdit(data, payload);
                } finally {
                  // Whatever part was saved shows at once.
                  await queryClient.invalidateQueries({ queryKey: invoiceKey });
                }
                notifications.show({ color: 'green', message: t('Invoice {{number}} saved', { number: data.refNumber }) });
                setEditing(false);
              }}
            />
          ) : null}
        </>
      ) : null}
      {data && !editing ? (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                {t('Customer')}
              </Text>
              <Anchor component={Link} to={paths.company.getHref(data.company.uuid, 'ap-ar')} fw={600}>
                {data.company.name}
              </Anchor>
              <Text size="sm">
                {data.address.street} {data.address.houseNumber ?? ''}
              </Text>
              <Text size="sm">
                {data.address.zip} {data.address.city}
              </Text>
            </Paper>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                {t('Dates')}
              </Text>
              <Text size="sm">{t('Invoice date {{date}}', { date: formatDate(data.dateInvoice) })}</Text>
              <Text size="sm" data-testid="due-date">
                {t('Due {{date}} ({{days}} days net)', { date: formatDate(data.dateDue), days: data.paymentTermDays })}
              </Text>
              {data.ledgerDate ? <Text size="sm">{t('Last posting {{date}}', { date: formatDate(data.ledgerDate) })}</Text> : null}
              {data.bankRef ? <Text size="sm">{t('Bank reference {{reference}}', { reference: data.bankRef })}</Text> : null}
            </Paper>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                {t('Payment')}
              </Text>
              <Text size="sm">{data.paymentProfile.iban ? formatIban(data.paymentProfile.iban) : '-'}</Text>
              <Text size="sm" ff="monospace" data-testid="payment-reference">
                {reference}
              </Text>
              {foreign ? (
                <Text size="sm">
                  {t('{{currency}}, booked at {{rate}} {{base}} per {{currency}}', { currency: data.currency, rate: data.fxRate, base: data.baseCurrency })}
                </Text>
              ) : null}
            </Paper>
          </SimpleGrid>
          {data.description ? <Text>{data.description}</Text> : null}
          <Table withTableBorder striped aria-label={t('Lines')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Item')}</Table.Th>
                <Table.Th className="num">{t('Quantity')}</Table.Th>
                <Table.Th className="num">{t('Price')}</Table.Th>
                <Table.Th className="num">{t('Discount')}</Table.Th>
                <Table.Th className="num">{t('VAT')}</Table.Th>
                <Table.Th>{t('Revenue account')}</Table.Th>
                <Table.Th className="num">{t('Total {{currency}}', { currency: data.currency })}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.name}</Table.Td>
                  <Table.Td className="num">{item.amount}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={item.price} />
                  </Table.Td>
                  <Table.Td className="num">{item.discount ? `${item.discount} %` : item.discountAbs ? <Amount value={item.discountAbs} /> : ''}</Table.Td>
                  <Table.Td className="num">{vatRateToPercent(vatRateAt(item.vat ?? data.vat, data.dateInvoice))} %</Table.Td>
                  <Table.Td>
                    {item.account ? (
                      `${item.account.number} ${item.account.name}`
                    ) : (
                      <Text span size="sm" c="dimmed">
                        {t('by VAT rate')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td className="num">
                    <Amount value={item.total} />
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td colSpan={6}>{t('Subtotal')}</Table.Td>
                <Table.Td className="num">
                  <Amount value={data.totals.net} />
                </Table.Td>
              </Table.Tr>
              {data.totals.vatLines.map((line) => (
                <Table.Tr key={line.rate}>
                  <Table.Td colSpan={6}>
                    <Trans t={t} i18nKey={msg('VAT {{rate}} % on <base/>')} values={{ rate: vatRateToPercent(line.rate) }} components={{ base: <Amount value={line.base} /> }} />
                  </Table.Td>
                  <Table.Td className="num">
                    <Amount value={line.vat} />
                  </Table.Td>
                </Table.Tr>
              ))}
              {data.totals.rounding !== '0.00' ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>{t('Rounding to 0.05')}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={data.totals.rounding} />
                  </Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr className="totals">
                <Table.Td colSpan={6}>{t('Total {{currency}}', { currency: data.currency })}</Table.Td>
                <Table.Td className="num" data-testid="invoice-total">
                  <Amount value={data.totals.total} fw={700} />
                </Table.Td>
              </Table.Tr>
              {data.status === 2 && data.openAmount !== undefined && data.openAmount !== data.totals.total ? (
                <Table.Tr>
                  <Table.Td colSpan={6} fw={600}>
                    {t('Open {{currency}} (after payments and credit notes)', { currency: data.currency })}
                  </Table.Td>
                  <Table.Td className="num" data-testid="invoice-open">
                    <Amount value={data.openAmount} fw={700} c="orange" />
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {foreign ? (
                <Table.Tr>
                  <Table.Td colSpan={6}>
                    {t('In the books ({{currency}}, at {{rate}})', { currency: data.baseCurrency, rate: data.fxRate })}
                  </Table.Td>
                  <Table.Td className="num" data-testid="invoice-total-base">
                    <Amount value={data.totalBase} />
                  </Table.Td>
                </Table.Tr>
              ) : null}
            </Table.Tbody>
          </Table>
          {pending ? null : (
            <Text size="sm" c="dimmed">
              {t('The invoice is {{status}}: it is read-only. Corrections go through a credit note while it is open (or a denial and a new invoice).', { status: t(InvoiceStatusWord[data.status] ?? data.statusName) })}
            </Text>
          )}
          {data.payments && data.payments.length > 0 ? (
            <Paper withBorder p="md">
              <Text fw={600} mb="xs">
                {t('Payments')}
              </Text>
              {reverse.isError ? <WriteError error={reverse.error} what={t('Could not reverse the payment')} /> : null}
              <PaymentsTable
                payments={data.payments}
                currency={data.currency}
                entryHref={(id) => paths.entryDetail.getHref(id)}
                onReverse={canWrite ? (payment) => reverse.mutate(payment.uuid) : undefined}
                reversing={reverse.isPending ? reverse.variables : null}
              />
            </Paper>
          ) : null}
          <CreditNotesList invoice={data} />
          {extra}
          <PdfButtons invoice={data} />
          <InvoiceMessages invoice={data} />
          <Postings invoice={data} />
          <ShareBox invoice={data} />
          {pending && data.items.length === 0 ? (
            <Alert color="orange" variant="light">
              {t('Add at least one line before sending.')}
            </Alert>
          ) : null}
          <StatusModal key={action?.status ?? 0} invoice={data} action={action} onClose={() => setAction(null)} />
          <DeleteModal invoice={data} opened={deleting} onClose={() => setDeleting(false)} />
          <PayInvoiceDialog invoice={data} opened={paying} onClose={() => setPaying(false)} />
          <CreditNoteDialog invoice={data} opened={crediting} onClose={() => setCrediting(false)} />
        </>
      ) : null}
    </Page>
  );
}
