import { useState } from 'react';
import { Anchor, Badge, Button, Group, SegmentedControl, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { Pager } from '../../ui/pager';
import { CompanyPicker } from '../../ui/company-picker';
import { INVOICE_PAGE_SIZE, InvoiceStatusColor, InvoiceStatusLabel, invoiceListQuery, type InvoiceFilters } from './api';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const STATUS_FILTERS = [
  { value: 'all', label: msg('All') },
  { value: '1', label: msg('Pending') },
  { value: '2', label: msg('Open invoices') },
  { value: '3', label: msg('Paid') },
  { value: '4', label: msg('Denied') },
];

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Badge color={InvoiceStatusColor[status]} variant="light">
      {t(InvoiceStatusLabel[status] ?? '')}
    </Badge>
  );
}

/**
 * /invoice: invoices with totals; filters by status ('Open invoices' = sent, also `?filterStatus=2`
 * from the palette), customer (`?company=<uuid>`, e.g. from Debtors), dates and text.
 */
export function InvoicesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [status, setStatus] = useState(() => (['1', '2', '3', '4'].includes(search.get('filterStatus') ?? '') ? search.get('filterStatus')! : 'all'));
  const companyUuid = search.get('company');
  const [text, setText] = useState('');
  const [dateFrom, setDateFrom] = useState<string | null>(null);
  const [dateTo, setDateTo] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [debouncedText] = useDebouncedValue(text, 300);
  const filters: InvoiceFilters = {
    ...(status === 'all' ? {} : { status: Number(status) as NonNullable<InvoiceFilters['status']> }),
    ...(companyUuid ? { company: { uuid: companyUuid } } : {}),
    ...(debouncedText.trim() ? { text: debouncedText.trim() } : {}),
    ...(dateFrom ? { dateFrom } : {}),
    ...(dateTo ? { dateTo } : {}),
  };
  const invoices = useQuery(invoiceListQuery(filters, page));
  const open = (uuid: string) => void navigate(paths.invoiceDetail.getHref(uuid));

  return (
    <Page
      title={t('Invoices')}
      actions={
        <>
          <Button component={Link} to={paths.debtors.getHref()} variant="default">
            {t('Debtors')}
          </Button>
          <Button component={Link} to={paths.invoiceImport.getHref()} variant="default" leftSection={<IconFileImport size={16} />}>
            {t('Import')}
          </Button>
          <Button component={Link} to={paths.invoiceAdd.getHref()} leftSection={<IconPlus size={16} />}>
            {t('Create Invoice')}
          </Button>
        </>
      }
    >
      <Group gap="sm" align="end" wrap="wrap">
        <SegmentedControl
          data={STATUS_FILTERS.map((filter) => ({ ...filter, label: t(filter.label) }))}
          value={status}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          aria-label={t('Status')}
        />
        <TextInput
          label={t('Search')}
          placeholder={t('Customer, number, text')}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setPage(1);
          }}
        />
        <CompanyPicker
          label={t('Customer')}
          placeholder={t('All customers')}
          excludeOwn
          clearable
          w={240}
          value={companyUuid}
          onChange={(value) => {
            setSearch(
              (current) => {
                const next = new URLSearchParams(current);
                if (value) next.set('company', value);
                else next.delete('company');
                return next;
              },
              { replace: true },
            );
            setPage(1);
          }}
        />
        <DateField label={t('From')} value={dateFrom} onChange={setDateFrom} clearable w={150} />
        <DateField label={t('To')} value={dateTo} onChange={setDateTo} clearable w={150} />
      </Group>
      {invoices.isError ? <ErrorAlert what={t('Could not load the invoices')} error={invoices.error} onRetry={() => void invoices.refetch()} /> : null}
      {!invoices.data && !invoices.isError ? <TableSkeleton /> : null}
      {invoices.data ? (
        <>
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover withTableBorder aria-busy={invoices.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={130}>{t('Number')}</Table.Th>
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th w={110}>{t('Due')}</Table.Th>
                  <Table.Th>{t('Customer')}</Table.Th>
                  <Table.Th>{t('Description')}</Table.Th>
                  <Table.Th w={100}>{t('Status')}</Table.Th>
                  <Table.Th className="num" w={140}>
                    {t('Total')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoices.data.data.map((invoice) => (
                  <Table.Tr
                    key={invoice.uuid}
                    className="clickable"
                    tabIndex={0}
                    onClick={() => open(invoice.uuid)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter') open(invoice.uuid);
                    }}
                  >
                    <Table.Td>
                      <Anchor component={Link} to={paths.invoiceDetail.getHref(invoice.uuid)} size="sm" tabIndex={-1}>
                        {invoice.refNumber}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{formatDate(invoice.dateInvoice)}</Table.Td>
                    <Table.Td>{formatDate(invoice.dateDue)}</Table.Td>
                    <Table.Td>{invoice.company.name}</Table.Td>
                    <Table.Td>{invoice.description}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={invoice.status} />
                    </Table.Td>
                    <Table.Td className="num">
                      {invoice.currency} <Amount value={invoice.totals.total} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {invoices.data.total === 0 ? <Text c="dimmed">{t('No invoices match these filters.')}</Text> : null}
          <Pager page={page} pageSize={INVOICE_PAGE_SIZE} total={invoices.data.total} capped={invoices.data.totalCapped} onChange={setPage} />
        </>
      ) : null}
    </Page>
  );
}
