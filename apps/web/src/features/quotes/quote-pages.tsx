/**
 * Quotes (issue 15 §4): /quote (list with a status filter), /quote/add and /quote/:uuid/detail (edit
 * while draft; send, accept, decline; PDF; Create invoice from an accepted quote). The form is the
 * invoice form, handed over by the route module (lib/document-form.ts).
 */
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileDownload, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import type { DocumentForm } from '../../lib/document-form';
import { saveBlob } from '../../lib/save-file';
import { Amount } from '../../ui/amount';
import { CenteredLoader } from '../../ui/centered-loader';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  QUOTE_STATUS_COLOR,
  QUOTE_STATUS_LABEL,
  changeQuoteStatus,
  createInvoiceFromQuote,
  deleteQuote,
  formOptionsQuery,
  formValuesOf,
  insertQuote,
  quoteDataOf,
  quoteDetailQuery,
  quoteKey,
  quoteListQuery,
  quotePdf,
  updateQuote,
  type QuoteStatus,
} from './api';

const DATE_LABELS = { date: 'Quote date', due: 'Valid until' };

function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  return (
    <Badge color={QUOTE_STATUS_COLOR[status]} variant="light">
      {QUOTE_STATUS_LABEL[status]}
    </Badge>
  );
}

/** /quote: quotes, newest first, filtered by status. */
export function QuotesPage() {
  const [status, setStatus] = useState<'all' | QuoteStatus>('all');
  const list = useQuery(quoteListQuery(status === 'all' ? undefined : status));
  const navigate = useNavigate();
  return (
    <Page
      title="Quotes"
      actions={
        <Button component={Link} to={paths.quoteAdd.getHref()} leftSection={<IconPlus size={16} />}>
          New quote
        </Button>
      }
    >
      <SegmentedControl
        aria-label="Status"
        value={status}
        onChange={(value) => setStatus(value as 'all' | QuoteStatus)}
        data={[{ value: 'all', label: 'All' }, ...(['draft', 'sent', 'accepted', 'declined'] as const).map((s) => ({ value: s, label: QUOTE_STATUS_LABEL[s] }))]}
      />
      {list.isError ? <ErrorAlert what="Could not load the quotes" error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? <TableSkeleton /> : null}
      {list.data ? (
        <Table highlightOnHover aria-label="Quotes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Valid until</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Invoice</Table.Th>
              <Table.Th className="num">Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed">No quotes{status === 'all' ? ' yet' : ` ${QUOTE_STATUS_LABEL[status].toLowerCase()}`}.</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {list.data.data.map((quote) => (
              <Table.Tr key={quote.uuid} style={{ cursor: 'pointer' }} onClick={() => void navigate(paths.quoteDetail.getHref(quote.uuid))}>
                <Table.Td>
                  <Anchor component={Link} to={paths.quoteDetail.getHref(quote.uuid)}>
                    {quote.number}
                  </Anchor>
                </Table.Td>
                <Table.Td>{quote.company.name}</Table.Td>
                <Table.Td>{formatDate(quote.dateQuote)}</Table.Td>
                <Table.Td>{formatDate(quote.validUntil)}</Table.Td>
                <Table.Td>
                  <QuoteStatusBadge status={quote.status} />
                </Table.Td>
                <Table.Td>{quote.invoice?.refNumber ?? ''}</Table.Td>
                <Table.Td className="num">
                  {quote.currency} <Amount value={quote.totals.total} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}

/** /quote/add: a draft quote in the invoice form. */
export function QuoteAddPage({ Form }: { Form: DocumentForm }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useQuery(formOptionsQuery());
  return (
    <Page title="New quote">
      {options.isError ? <ErrorAlert what="Could not load customers and payment profiles" error={options.error} onRetry={() => void options.refetch()} /> : null}
      {options.isPending ? <CenteredLoader /> : null}
      {options.data ? (
        <Form
          options={options.data}
          submitLabel="Create quote"
          dateLabels={DATE_LABELS}
          onSubmit={async (payload) => {
            const quote = await insertQuote(quoteDataOf(payload));
            await queryClient.invalidateQueries({ queryKey: quoteKey });
            notifications.show({ color: 'green', message: `Quote ${quote.number} created` });
            void navigate(paths.quoteDetail.getHref(quote.uuid));
          }}
        />
      ) : null}
    </Page>
  );
}

/** /quote/:uuid/detail: the quote, its status actions, PDF and Create invoice; the form while draft. */
export function QuoteDetailPage({ uuid, Form }: { uuid: string; Form: DocumentForm }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const quote = useQuery(quoteDetailQuery(uuid));
  const options = useQuery(formOptionsQuery());
  const [editing, setEditing] = useState(false);
  const [lang, setLang] = useState<'en' | 'de' | 'fr' | 'it'>('de');
  const refresh = () => queryClient.invalidateQueries({ queryKey: quoteKey });
  const status = useMutation({ mutationFn: (to: QuoteStatus) => changeQuoteStatus(uuid, to), onSuccess: refresh });
  const invoice = useMutation({
    mutationFn: () => createInvoiceFromQuote(uuid),
    onSuccess: async (made) => {
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['invoice'] });
      notifications.show({ color: 'green', message: `Invoice ${made.invoice.refNumber} created` });
      void navigate(paths.invoiceDetail.getHref(made.invoice.uuid));
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteQuote(uuid),
    onSuccess: async () => {
      await refresh();
      void navigate(paths.quotes.getHref());
    },
  });
  const pdf = useMutation({ mutationFn: () => quotePdf(uuid, lang), onSuccess: (blob) => saveBlob(blob, `${quote.data?.number ?? 'quote'}.pdf`) });
  if (quote.isError) return <ErrorAlert what="Could not load the quote" error={quote.error} onRetry={() => void quote.refetch()} />;
  if (!quote.data) return <CenteredLoader />;
  const data = quote.data;
  const failure = status.error ?? invoice.error ?? remove.error ?? pdf.error;
  return (
    <Page
      title={
        <Group gap="sm">
          <span>Quote {data.number}</span>
          <QuoteStatusBadge status={data.status} />
        </Group>
      }
      documentTitle={`Quote ${data.number}`}
      actions={
        <>
          <Select aria-label="PDF language" w={90} data={['de', 'fr', 'it', 'en']} value={lang} onChange={(value) => setLang((value ?? 'de') as typeof lang)} allowDeselect={false} />
          <Button variant="default" leftSection={<IconFileDownload size={16} />} loading={pdf.isPending} onClick={() => pdf.mutate()}>
            PDF
          </Button>
          {data.status === 'draft' ? (
            <>
              <Button variant="default" onClick={() => setEditing((e) => !e)}>
                {editing ? 'Close editing' : 'Edit'}
              </Button>
              <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                Delete
              </Button>
              <Button loading={status.isPending} onClick={() => status.mutate('sent')}>
                Mark as sent
              </Button>
            </>
          ) : null}
          {data.status === 'sent' ? (
            <>
              <Button color="red" variant="light" loading={status.isPending} onClick={() => status.mutate('declined')}>
                Declined
              </Button>
              <Button color="green" loading={status.isPending} onClick={() => status.mutate('accepted')}>
                Accepted
              </Button>
            </>
          ) : null}
          {data.status === 'accepted' && !data.invoice ? (
            <Button loading={invoice.isPending} onClick={() => invoice.mutate()}>
              Create invoice
            </Button>
          ) : null}
        </>
      }
    >
      {failure ? <ErrorAlert what="The action failed" error={failure} /> : null}
      {data.invoice ? (
        <Alert color="green" variant="light">
          Became invoice{' '}
          <Anchor component={Link} to={paths.invoiceDetail.getHref(data.invoice.uuid)}>
            {data.invoice.refNumber}
          </Anchor>
          .
        </Alert>
      ) : null}
      {editing && options.data ? (
        <Form
          options={options.data}
          invoice={formValuesOf(data)}
          submitLabel="Save quote"
          dateLabels={DATE_LABELS}
          onCancel={() => setEditing(false)}
          onSubmit={async (payload) => {
            await updateQuote(uuid, quoteDataOf(payload));
            await refresh();
            setEditing(false);
          }}
        />
      ) : (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text fw={600}>{data.company.name}</Text>
            <Text size="sm">
              {data.address.street} {data.address.houseNumber ?? ''}, {data.address.zip} {data.address.city}
            </Text>
            <Text size="sm">
              Date {formatDate(data.dateQuote)} · valid until {formatDate(data.validUntil)}
            </Text>
            {data.description ? <Text size="sm">{data.description}</Text> : null}
            <Table aria-label="Lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th className="num">Quantity</Table.Th>
                  <Table.Th className="num">Price</Table.Th>
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
                    <Table.Td className="num">
                      <Amount value={item.total} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group justify="flex-end" gap="xl">
              <Text size="sm">Subtotal <Amount value={data.totals.net} /></Text>
              <Text size="sm">VAT <Amount value={data.totals.vat} /></Text>
              <Text fw={700}>
                Total {data.currency} <Amount value={data.totals.total} />
              </Text>
            </Group>
          </Stack>
        </Paper>
      )}
    </Page>
  );
}
