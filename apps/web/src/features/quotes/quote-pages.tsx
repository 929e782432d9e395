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
import { Pager } from '../../ui/pager';
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
  QUOTE_PAGE_SIZE,
  quoteListQuery,
  quotePdf,
  updateQuote,
  type QuoteStatus,
} from './api';
import { Trans, useTranslation } from 'react-i18next';
import { languageOptions, msg, type Language } from '../../lib/i18n';
import { useDocumentLanguage } from '../../lib/document-language';

const DATE_LABELS = { date: msg('Quote date'), due: msg('Valid until') };

/** The empty list, per status filter. */
const EMPTY_TEXT: Record<'all' | QuoteStatus, string> = {
  all: msg('No quotes yet.'),
  draft: msg('No quotes draft.'),
  sent: msg('No quotes sent.'),
  accepted: msg('No quotes accepted.'),
  declined: msg('No quotes declined.'),
};

function QuoteStatusBadge({ status }: { status: QuoteStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={QUOTE_STATUS_COLOR[status]} variant="light">
      {t(QUOTE_STATUS_LABEL[status])}
    </Badge>
  );
}

/** /quote: quotes, newest first, filtered by status. */
export function QuotesPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<'all' | QuoteStatus>('all');
  const [page, setPage] = useState(1);
  const list = useQuery(quoteListQuery(status === 'all' ? undefined : status, page));
  const navigate = useNavigate();
  return (
    <Page
      title={t('Quotes')}
      actions={
        <Button component={Link} to={paths.quoteAdd.getHref()} leftSection={<IconPlus size={16} />}>
          {t('New quote')}
        </Button>
      }
    >
      <SegmentedControl
        aria-label={t('Status')}
        value={status}
        onChange={(value) => {
          setStatus(value as 'all' | QuoteStatus);
          setPage(1);
        }}
        data={[{ value: 'all', label: t('All') }, ...(['draft', 'sent', 'accepted', 'declined'] as const).map((s) => ({ value: s, label: t(QUOTE_STATUS_LABEL[s]) }))]}
      />
      {list.isError ? <ErrorAlert what={t('Could not load the quotes')} error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? <TableSkeleton /> : null}
      {list.data ? (
        <Table highlightOnHover aria-label={t('Quotes')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Number')}</Table.Th>
              <Table.Th>{t('Customer')}</Table.Th>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Valid until')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>{t('Invoice')}</Table.Th>
              <Table.Th className="num">{t('Total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={7}>
                  <Text c="dimmed">{t(EMPTY_TEXT[status])}</Text>
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
      {list.data ? <Pager page={page} pageSize={QUOTE_PAGE_SIZE} total={list.data.total} capped={list.data.totalCapped} onChange={setPage} /> : null}
    </Page>
  );
}

/** /quote/add: a draft quote in the invoice form. */
export function QuoteAddPage({ Form }: { Form: DocumentForm }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useQuery(formOptionsQuery());
  return (
    <Page title={t('New quote')}>
      {options.isError ? <ErrorAlert what={t('Could not load customers and payment profiles')} error={options.error} onRetry={() => void options.refetch()} /> : null}
      {options.isPending ? <CenteredLoader /> : null}
      {options.data ? (
        <Form
          options={options.data}
          submitLabel={t('Create quote')}
          dateLabels={{ date: t(DATE_LABELS.date), due: t(DATE_LABELS.due) }}
          onSubmit={async (payload) => {
            const quote = await insertQuote(quoteDataOf(payload));
            await queryClient.invalidateQueries({ queryKey: quoteKey });
            notifications.show({ color: 'green', message: t('Quote {{number}} created', { number: quote.number }) });
            void navigate(paths.quoteDetail.getHref(quote.uuid));
          }}
        />
      ) : null}
    </Page>
  );
}

/** /quote/:uuid/detail: the quote, its status actions, PDF and Create invoice; the form while draft. */
export function QuoteDetailPage({ uuid, Form }: { uuid: string; Form: DocumentForm }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const quote = useQuery(quoteDetailQuery(uuid));
  const options = useQuery(formOptionsQuery());
  const [editing, setEditing] = useState(false);
  const [lang, setLang] = useDocumentLanguage(quote.data?.company.uuid);
  const refresh = () => queryClient.invalidateQueries({ queryKey: quoteKey });
  const status = useMutation({ mutationFn: (to: QuoteStatus) => changeQuoteStatus(uuid, to), onSuccess: refresh });
  const invoice = useMutation({
    mutationFn: () => createInvoiceFromQuote(uuid),
    onSuccess: async (made) => {
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['invoice'] });
      notifications.show({ color: 'green', message: t('Invoice {{number}} created', { number: made.invoice.refNumber }) });
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
  if (quote.isError) return <ErrorAlert what={t('Could not load the quote')} error={quote.error} onRetry={() => void quote.refetch()} />;
  if (!quote.data) return <CenteredLoader />;
  const data = quote.data;
  const failure = status.error ?? invoice.error ?? remove.error ?? pdf.error;
  return (
    <Page
      title={
        <Group gap="sm">
          <span>{t('Quote {{number}}', { number: data.number })}</span>
          <QuoteStatusBadge status={data.status} />
        </Group>
      }
      documentTitle={t('Quote {{number}}', { number: data.number })}
      actions={
        <>
          <Select aria-label={t('PDF language')} w={130} data={languageOptions} value={lang} onChange={(value) => value && setLang(value as Language)} allowDeselect={false} />
          <Button variant="default" leftSection={<IconFileDownload size={16} />} loading={pdf.isPending} onClick={() => pdf.mutate()}>
            PDF
          </Button>
          {data.status === 'draft' ? (
            <>
              <Button variant="default" onClick={() => setEditing((e) => !e)}>
                {editing ? t('Close editing') : t('Edit')}
              </Button>
              <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('Delete')}
              </Button>
              <Button loading={status.isPending} onClick={() => status.mutate('sent')}>
                {t('Mark as sent')}
              </Button>
            </>
          ) : null}
          {data.status === 'sent' ? (
            <>
              <Button color="red" variant="light" loading={status.isPending} onClick={() => status.mutate('declined')}>
                {t('Declined')}
              </Button>
              <Button color="green" loading={status.isPending} onClick={() => status.mutate('accepted')}>
                {t('Accepted')}
              </Button>
            </>
          ) : null}
          {data.status === 'accepted' && !data.invoice ? (
            <Button loading={invoice.isPending} onClick={() => invoice.mutate()}>
              {t('Create invoice')}
            </Button>
          ) : null}
        </>
      }
    >
      {failure ? <ErrorAlert what={t('The action failed')} error={failure} /> : null}
      {data.invoice ? (
        <Alert color="green" variant="light">
          <Trans
            t={t}
            i18nKey={msg('Became invoice <a>{{number}}</a>.')}
            values={{ number: data.invoice.refNumber }}
            components={{ a: <Anchor component={Link} to={paths.invoiceDetail.getHref(data.invoice.uuid)} /> }}
          />
        </Alert>
      ) : null}
      {editing && options.data ? (
        <Form
          options={options.data}
          invoice={formValuesOf(data)}
          submitLabel={t('Save quote')}
          dateLabels={{ date: t(DATE_LABELS.date), due: t(DATE_LABELS.due) }}
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
              {`${data.address.street} ${data.address.houseNumber ?? ''}, ${data.address.zip} ${data.address.city}`}
            </Text>
            <Text size="sm">
              {t('Date {{date}} · valid until {{validUntil}}', { date: formatDate(data.dateQuote), validUntil: formatDate(data.validUntil) })}
            </Text>
            {data.description ? <Text size="sm">{data.description}</Text> : null}
            <Table aria-label={t('Lines')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Item')}</Table.Th>
                  <Table.Th className="num">{t('Quantity')}</Table.Th>
                  <Table.Th className="num">{t('Price')}</Table.Th>
                  <Table.Th className="num">{t('Total')}</Table.Th>
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
              <Text size="sm">
                {t('Subtotal')} <Amount value={data.totals.net} />
              </Text>
              <Text size="sm">
                {t('VAT')} <Amount value={data.totals.vat} />
              </Text>
              <Text fw={700}>
                {t('Total {{currency}}', { currency: data.currency })} <Amount value={data.totals.total} />
              </Text>
            </Group>
          </Stack>
        </Paper>
      )}
    </Page>
  );
}
