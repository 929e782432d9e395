import { useState } from 'react';
import { Alert, Anchor, Button, CopyButton, Group, Menu, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDownload, IconEye, IconSend, IconShare, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { formatCreditorReference, formatDate, formatIban, formatQrReference, vatRateToPercent } from '@bilan/domain';
import { paths } from '../../config/paths';
import { isApiError } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { NotFound } from '../../ui/not-found';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { WriteError } from './write-error';
import { changeStatus, deleteInvoice, fetchInvoicePdf, invoiceDetailQuery, invoiceKey, revokeShare, shareInvoice, type Invoice } from './api';
import { StatusBadge } from './invoices-page';

// Journal and balances are cached under this key by the accounting feature.
const accountingKey = ['accounting'] as const;
const today = () => new Date().toISOString().slice(0, 10);
const LANGS = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'it', label: 'Italiano' },
];

type Action = { status: 2 | 3 | 4; title: string; label: string } | null;

function StatusModal({ invoice, action, onClose }: { invoice: Invoice; action: Action; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [ledgerDate, setLedgerDate] = useState<string | null>(today());
  const [bankRef, setBankRef] = useState('');
  const mutation = useMutation({
    mutationFn: () =>
      changeStatus({ uuid: invoice.uuid, status: action!.status, ledgerDate: ledgerDate ?? undefined, ...(action?.status === 3 && bankRef ? { bankRef } : {}) }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(invoiceDetailQuery(invoice.uuid).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      notifications.show({ color: 'green', message: `Invoice ${updated.refNumber} is now ${updated.statusName}` });
      onClose();
    },
  });
  return (
    <Modal opened={action !== null} onClose={onClose} title={action?.title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          mutation.mutate();
        }}
      >
        <Stack>
          <Text size="sm">
            {action?.status === 2
              ? `Posts receivable ${invoice.totals.total} against revenue and VAT.`
              : action?.status === 3
                ? `Posts the payment of ${invoice.totals.total} to the bank account and clears the receivable.`
                : 'Reverses the posting of the sent invoice.'}
          </Text>
          <DateField label="Ledger date" required value={ledgerDate} onChange={setLedgerDate} data-autofocus />
          {action?.status === 3 ? <TextInput label="Bank reference" value={bankRef} onChange={(e) => setBankRef(e.currentTarget.value)} /> : null}
          {mutation.isError ? <WriteError error={mutation.error} what="Could not change the status" /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending} color={action?.status === 4 ? 'red' : undefined}>
              {action?.label}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ShareBox({ invoice }: { invoice: Invoice }) {
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
        <Text fw={600}>Share link</Text>
        <Text size="sm" c="dimmed">
          Anyone with the link sees this invoice and its PDF without signing in, nothing else. A new link revokes the old one.
        </Text>
        {link ? (
          <Group gap="xs" wrap="nowrap">
            <TextInput value={link} readOnly aria-label="Share link" style={{ flex: 1 }} />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : null}
        <Group gap="xs">
          <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => share.mutate()} loading={share.isPending}>
            {invoice.shared ? 'New share link' : 'Create share link'}
          </Button>
          {invoice.shared ? (
            <Button variant="subtle" color="red" onClick={() => revoke.mutate()} loading={revoke.isPending}>
              Revoke
            </Button>
          ) : null}
        </Group>
        {share.isError ? <WriteError error={share.error} what="Could not create the link" /> : null}
      </Stack>
    </Paper>
  );
}

function PdfButtons({ invoice }: { invoice: Invoice }) {
  const [lang, setLang] = useState('en');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const get = async (onlyReceipt: boolean) => {
    setError(null);
    setBusy(true);
    try {
      return URL.createObjectURL(await fetchInvoicePdf(invoice.uuid, lang, onlyReceipt));
    } catch (failure) {
      setError(failure);
      return null;
    } finally {
      setBusy(false);
    }
  };
  const download = async (onlyReceipt: boolean) => {
    const url = await get(onlyReceipt);
    if (!url) return;
    const link = document.createElement('a');
    link.href = url;
    link.download = `${invoice.refNumber}${onlyReceipt ? '-qr-bill' : ''}.pdf`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <>
      <Group gap="xs">
        <Menu>
          <Menu.Target>
            <Button variant="default" size="sm">
              Language: {LANGS.find((l) => l.value === lang)?.label}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {LANGS.map((l) => (
              <Menu.Item key={l.value} onClick={() => setLang(l.value)}>
                {l.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Button variant="default" leftSection={<IconEye size={16} />} loading={busy} onClick={() => void get(false).then(setPreview)}>
          Preview PDF
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download(false)}>
          Download PDF
        </Button>
        <Button variant="subtle" onClick={() => void download(true)}>
          QR-bill only
        </Button>
      </Group>
      {error ? <WriteError error={error} what="Could not make the PDF" /> : null}
      <Modal opened={preview !== null} onClose={() => setPreview(null)} size="xl" title={`${invoice.refNumber} PDF`}>
        {preview ? <iframe src={preview} title="Invoice PDF" style={{ width: '100%', height: '75vh', border: 0 }} /> : null}
      </Modal>
    </>
  );
}

/** /invoice/{uuid}/detail: the invoice, its status actions, PDF, share link and postings. */
export function InvoiceDetailPage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invoice = useQuery(invoiceDetailQuery(uuid));
  const [action, setAction] = useState<Action>(null);
  const remove = useMutation({
    mutationFn: () => deleteInvoice(uuid),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      void navigate(paths.invoices.getHref());
    },
  });

  if (invoice.isError && isApiError(invoice.error, 404)) return <NotFound />;
  const data = invoice.data;
  const reference = data ? (data.paymentReference.startsWith('RF') ? formatCreditorReference(data.paymentReference) : formatQrReference(data.paymentReference)) : '';

  return (
    <Page
      title={data ? `Invoice ${data.refNumber}` : 'Invoice'}
      actions={
        data ? (
          <>
            <StatusBadge status={data.status} />
            {data.status === 1 ? (
              <>
                <Button leftSection={<IconSend size={16} />} onClick={() => setAction({ status: 2, title: 'Send invoice', label: 'Send' })}>
                  Send
                </Button>
                <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => remove.mutate()} loading={remove.isPending}>
                  Delete
                </Button>
              </>
            ) : null}
            {data.status === 2 ? (
              <>
                <Button color="green" leftSection={<IconCheck size={16} />} onClick={() => setAction({ status: 3, title: 'Mark paid', label: 'Mark paid' })}>
                  Mark paid
                </Button>
                <Button variant="default" color="red" leftSection={<IconX size={16} />} onClick={() => setAction({ status: 4, title: 'Deny invoice', label: 'Deny' })}>
                  Deny
                </Button>
              </>
            ) : null}
          </>
        ) : null
      }
    >
      {invoice.isError ? <ErrorAlert what="Could not load the invoice" error={invoice.error} onRetry={() => void invoice.refetch()} /> : null}
      {remove.isError ? <WriteError error={remove.error} what="Could not delete the invoice" /> : null}
      {!data && !invoice.isError ? <TableSkeleton /> : null}
      {data ? (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                Customer
              </Text>
              <Text fw={600}>{data.company.name}</Text>
              <Text size="sm">
                {data.address.street} {data.address.houseNumber ?? ''}
              </Text>
              <Text size="sm">
                {data.address.zip} {data.address.city}
              </Text>
            </Paper>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                Dates
              </Text>
              <Text size="sm">Invoice date {formatDate(data.dateInvoice)}</Text>
              {data.dateDue ? <Text size="sm">Due {formatDate(data.dateDue)}</Text> : null}
              {data.ledgerDate ? <Text size="sm">Last posting {formatDate(data.ledgerDate)}</Text> : null}
              {data.bankRef ? <Text size="sm">Bank reference {data.bankRef}</Text> : null}
            </Paper>
            <Paper withBorder p="md">
              <Text size="xs" c="dimmed">
                Payment
              </Text>
              <Text size="sm">{data.paymentProfile.iban ? formatIban(data.paymentProfile.iban) : '-'}</Text>
              <Text size="sm" ff="monospace" data-testid="payment-reference">
                {reference}
              </Text>
            </Paper>
          </SimpleGrid>
          {data.description ? <Text>{data.description}</Text> : null}
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th className="num">Quantity</Table.Th>
                <Table.Th className="num">Price</Table.Th>
                <Table.Th className="num">Discount</Table.Th>
                <Table.Th className="num">Total</Table.Th>
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
                  <Table.Td className="num">
                    <Amount value={item.total} />
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td colSpan={4}>Subtotal</Table.Td>
                <Table.Td className="num">
                  <Amount value={data.totals.net} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td colSpan={4}>VAT {vatRateToPercent(data.vat)} %</Table.Td>
                <Table.Td className="num">
                  <Amount value={data.totals.vat} />
                </Table.Td>
              </Table.Tr>
              {data.totals.rounding !== '0.00' ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>Rounding to 0.05</Table.Td>
                  <Table.Td className="num">
                    <Amount value={data.totals.rounding} />
                  </Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr className="totals">
                <Table.Td colSpan={4}>Total {data.currency}</Table.Td>
                <Table.Td className="num" data-testid="invoice-total">
                  <Amount value={data.totals.total} fw={700} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <PdfButtons invoice={data} />
          <Paper withBorder p="md">
            <Text fw={600} mb="xs">
              Postings
            </Text>
            {data.entries.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing posted yet: sending the invoice posts it to the books.
              </Text>
            ) : (
              <Stack gap={4}>
                {data.entries.map((entry) => (
                  <Anchor key={entry.id} component={Link} to={paths.entryDetail.getHref(entry.id)} size="sm">
                    Journal entry {entry.id} ({entry.kind === 'sent' ? 'invoice sent' : entry.kind === 'paid' ? 'payment' : 'reversal, denied'})
                  </Anchor>
                ))}
              </Stack>
            )}
          </Paper>
          <ShareBox invoice={data} />
          {data.status === 1 && data.items.length === 0 ? (
            <Alert color="orange" variant="light">
              Add at least one line before sending.
            </Alert>
          ) : null}
          <StatusModal key={action?.status ?? 0} invoice={data} action={action} onClose={() => setAction(null)} />
        </>
      ) : null}
    </Page>
  );
}
