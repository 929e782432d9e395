import { useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconReceipt, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { TableSkeleton } from '../../ui/table-skeleton';
import { CompanyPicker } from '../../ui/company-picker';
import {
  changePayableStatus,
  deletePayable,
  PAGE_SIZE,
  payableListQuery,
  payablesKey,
  payableStatusColor,
  payableStatusLabel,
  type Payable,
  type PayableFilters,
} from './api';
import { PayBillDialog } from './pay-bill-dialog';
import { PaySelectedDialog } from './transaction-group-dialog';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const STATUS_OPTIONS = [
  { value: 'all', label: msg('All bills') },
  { value: 'open', label: msg('Open bills') },
  ...Object.entries(payableStatusLabel).map(([value, label]) => ({ value, label })),
];

const KIND_OPTIONS = [
  { value: 'all', label: msg('Bills and expenses') },
  { value: 'bill', label: msg('Supplier bills') },
  { value: 'expense', label: msg('Staff expenses') },
];

/**
 * /bill: bills and staff expenses, paged on the server, filtered by status (or open), kind
 * (`?kind=expense`), supplier or employee, date range and text; approve, delete, and group
 * approved bills and expenses for payment. Each links to its detail page.
 */
export function BillsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const statusValue = search.get('filterStatus') === 'true' ? 'open' : (search.get('status') ?? 'all');
  const kind = search.get('kind') === 'expense' || search.get('kind') === 'bill' ? search.get('kind')! : 'all';
  // ?text= preselects the search (the company ap-ar page links each open bill this way).
  const [text, setText] = useState(() => search.get('text') ?? '');
  const [debouncedText] = useDebouncedValue(text, 300);
  const [company, setCompany] = useState<string | null>(null);
  const [dateFrom, setDateFrom] = useState<string | null>(null);
  const [dateTo, setDateTo] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const filters: PayableFilters = {
    ...(statusValue === 'open' ? { filterStatus: true } : statusValue !== 'all' ? { status: Number(statusValue) as NonNullable<PayableFilters['status']> } : {}),
    ...(kind !== 'all' ? { isExpense: kind === 'expense' } : {}),
    ...(debouncedText.trim() ? { text: debouncedText.trim() } : {}),
    ...(company ? { company: { uuid: company } } : {}),
    ...(dateFrom ? { dateFrom } : {}),
    ...(dateTo ? { dateTo } : {}),
  };
  // Any new filter starts again at page 1.
  const filterKey = JSON.stringify(filters);
  const [pageOf, setPageOf] = useState(filterKey);
  if (pageOf !== filterKey) {
    setPageOf(filterKey);
    setPage(1);
  }
  const list = useQuery(payableListQuery(filters, pageOf === filterKey ? page : 1));
  const refresh = () => queryClient.invalidateQueries({ queryKey: payablesKey });
  const action = useMutation({ mutationFn: (run: () => Promise<unknown>) => run(), onSuccess: refresh });
  const [paying, setPaying] = useState(false);
  const [payBill, setPayBill] = useState<Payable | null>(null);

  return (
    <Page
      title={t('Bills')}
      actions={
        <>
          <Button component={Link} to="/bill/creditors" variant="default" leftSection={<IconUsers size={16} />}>
            {t('Creditors')}
          </Button>
          <Button component={Link} to="/bill/add?type=expense" variant="default" leftSection={<IconReceipt size={16} />}>
            {t('Add expense')}
          </Button>
          <Button component={Link} to="/bill/add" leftSection={<IconPlus size={16} />}>
            {t('Add bill')}
          </Button>
        </>
      }
    >
      <Group gap="sm" align="end" wrap="wrap">
        <Select
          label={t('Status')}
          data={STATUS_OPTIONS.map((option) => ({ ...option, label: t(option.label) }))}
          value={statusValue}
          allowDeselect={false}
          onChange={(value) => {
            const next = new URLSearchParams();
            if (value === 'open') next.set('filterStatus', 'true');
            else if (value && value !== 'all') next.set('status', value);
            if (kind !== 'all') next.set('kind', kind);
            setSearch(next);
          }}
          w={200}
        />
        <CompanyPicker
          label={t('Supplier or employee')}
          clearable
          excludeOwn
          value={company}
          onChange={setCompany}
          placeholder={t('All')}
          w={240}
        />
        <DateField label={t('From')} value={dateFrom} onChange={setDateFrom} clearable w={150} />
        <DateField label={t('To')} value={dateTo} onChange={setDateTo} clearable w={150} />
        <TextInput label={t('Search')} placeholder={t('Name, description, reference')} value={text} onChange={(e) => setText(e.currentTarget.value)} w={260} />
        <Select
          label={t('Kind')}
          data={KIND_OPTIONS.map((option) => ({ ...option, label: t(option.label) }))}
          value={kind}
          allowDeselect={false}
          onChange={(value) => {
            const next = new URLSearchParams(search);
            if (value && value !== 'all') next.set('kind', value);
            else next.delete('kind');
            setSearch(next);
          }}
          w={190}
        />
        <Button disabled={selected.length === 0} onClick={() => setPaying(true)}>
          {t('Pay selected ({{number}})', { number: selected.length })}
        </Button>
      </Group>
      <PaySelectedDialog
        opened={paying}
        bills={(list.data?.data ?? []).filter((bill) => selected.includes(bill.uuid))}
        onClose={() => setPaying(false)}
        onCreated={(created) => {
          setSelected([]);
          setPaying(false);
          void navigate(paths.transactionGroupDetail.getHref(created.id));
        }}
      />
      <PayBillDialog bill={payBill} onClose={() => setPayBill(null)} />
      {action.isError ? <ErrorAlert what={t('Could not change the bill')} error={action.error} /> : null}
      {list.isError ? <ErrorAlert what={t('Could not load the bills')} error={list.error} onRetry={() => void list.refetch()} /> : null}
      {!list.data && !list.isError ? <TableSkeleton /> : null}
      {list.data ? (
        list.data.data.length === 0 ? (
          <Text c="dimmed">{kind === 'expense' ? t('No staff expenses yet.') : t("No bills yet. Add one, or drop a supplier's bill in the inbox.")}</Text>
        ) : (
          <Table.ScrollContainer minWidth={900}>
            <Table withTableBorder striped aria-busy={list.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40} />
                  <Table.Th w={70}>{t('Bill')}</Table.Th>
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th>{t('Supplier / employee')}</Table.Th>
                  <Table.Th w={110}>{t('Due')}</Table.Th>
                  <Table.Th className="num" w={150}>
                    {t('Amount')}
                  </Table.Th>
                  <Table.Th w={170}>{t('Status')}</Table.Th>
                  <Table.Th w={190} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.data.map((bill) => (
                  <Table.Tr key={bill.uuid}>
                    <Table.Td>
                      {bill.status === 2 ? (
                        <Checkbox
                          aria-label={t('Select bill {{id}}', { id: bill.id })}
                          checked={selected.includes(bill.uuid)}
                          onChange={(e) => {
                            const checked = e.currentTarget.checked;
                            setSelected((current) => (checked ? [...current, bill.uuid] : current.filter((u) => u !== bill.uuid)));
                          }}
                        />
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.billDetail.getHref(bill.uuid)} aria-label={t('Bill {{id}}', { id: bill.id })}>
                        {bill.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{formatDate(bill.date)}</Table.Td>
                    <Table.Td>
                      {bill.isExpense ? (
                        <Badge color="grape" variant="light" size="sm" mr={6}>
                          {t('Expense')}
                        </Badge>
                      ) : null}
                      {bill.company?.name ?? (bill.isExpense ? t('No employee named') : '-')}
                      {bill.description ? (
                        <Text size="xs" c="dimmed">
                          {bill.description}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{bill.dueDate ? formatDate(bill.dueDate) : '-'}</Table.Td>
                    <Table.Td className="num">
                      <Amount value={bill.amount} /> {bill.currency}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={payableStatusColor[bill.status]} variant="light">
                        {t(payableStatusLabel[bill.status] ?? bill.statusName)}
                      </Badge>
                      {bill.transactionGroup ? (
                        <Anchor component={Link} to={paths.transactionGroupDetail.getHref(bill.transactionGroup.id)} size="xs" ml={6}>
                          TG{bill.transactionGroup.id}
                        </Anchor>
                      ) : null}
                      {bill.bankTxStatus === 'rejected' ? (
                        <Text size="xs" c="red">
                          {t('Rejected by the bank: {{reason}}', { reason: bill.bankReason })}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        {bill.status === 1 ? (
                          <>
                            <Button size="compact-sm" onClick={() => action.mutate(() => changePayableStatus(bill.uuid, 2))}>
                              {t('Approve')}
                            </Button>
                            <Button size="compact-sm" variant="subtle" color="red" onClick={() => action.mutate(() => deletePayable(bill.uuid))}>
                              {t('Delete')}
                            </Button>
                          </>
                        ) : null}
                        {bill.status === 2 ? (
                          <>
                            <Button size="compact-sm" variant="light" onClick={() => setPayBill(bill)}>
                              {t('Pay')}
                            </Button>
                            <Button size="compact-sm" variant="subtle" color="red" onClick={() => action.mutate(() => changePayableStatus(bill.uuid, 5))}>
                              {t('Cancel')}
                            </Button>
                          </>
                        ) : null}
                        {bill.bookingEntry ? (
                          <Anchor component={Link} to={paths.entryDetail.getHref(bill.bookingEntry.id)} size="xs">
                            EN{bill.bookingEntry.id}
                          </Anchor>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      ) : null}
      {list.data ? <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} capped={list.data.totalCapped} onChange={setPage} /> : null}
      {action.isPending || action.isError ? (
        <Text size="sm" c="dimmed">
          {action.isPending ? t('saving…') : ''}
          {action.isError ? errorMessage(action.error) : ''}
        </Text>
      ) : null}
    </Page>
  );
}
