/**
 * Recurring invoices (issue 15 §4): /invoice/recurring (templates), /invoice/recurring/add and
 * /invoice/recurring/:uuid (the form and the invoices created), and the link back on an invoice.
 * The head and lines are the invoice form's (handed over by the route module); the schedule sits above it.
 */
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Grid, Paper, Radio, Group, MultiSelect, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import type { DocumentForm } from '../../lib/document-form';
import { Amount } from '../../ui/amount';
import { CenteredLoader } from '../../ui/centered-loader';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  INTERVAL_LABEL,
  RECURRING_PAGE_SIZE,
  contactsQuery,
  deleteRecurring,
  formOptionsQuery,
  formValuesOf,
  insertRecurring,
  recurringDataOf,
  recurringDetailQuery,
  recurringKey,
  recurringListQuery,
  recurringOfInvoice,
  updateRecurring,
  type Interval,
  type RecurringTemplate,
  type Schedule,
} from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** /invoice/recurring: the templates with their next date, a page (RECURRING_PAGE_SIZE) at a time. */
export function RecurringListPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery(recurringListQuery(page));
  const navigate = useNavigate();
  return (
    <Page
      title={t('Recurring invoices')}
      actions={
        <Button component={Link} to={paths.recurringAdd.getHref()} leftSection={<IconPlus size={16} />}>
          {t('New recurring invoice')}
        </Button>
      }
    >
      {list.isError ? <ErrorAlert what={t('Could not load the recurring invoices')} error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? <TableSkeleton /> : null}
      {list.data ? (
        <Table highlightOnHover aria-label={t('Recurring invoices')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Customer')}</Table.Th>
              <Table.Th>{t('Description')}</Table.Th>
              <Table.Th>{t('Interval')}</Table.Th>
              <Table.Th>{t('Next date')}</Table.Th>
              <Table.Th>{t('End')}</Table.Th>
              <Table.Th>{t('Mode')}</Table.Th>
              <Table.Th>{t('Invoices')}</Table.Th>
              <Table.Th className="num">{t('Total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed">{t('No recurring invoices yet.')}</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {list.data.data.map((row) => (
              <Table.Tr key={row.uuid} style={{ cursor: 'pointer' }} onClick={() => void navigate(paths.recurringDetail.getHref(row.uuid))}>
                <Table.Td>
                  <Anchor component={Link} to={paths.recurringDetail.getHref(row.uuid)}>
                    {row.company.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{row.description}</Table.Td>
                <Table.Td>{t(INTERVAL_LABEL[row.interval])}</Table.Td>
                <Table.Td>{row.isRunning ? formatDate(row.nextDate) : <Badge color="gray">{t('ended')}</Badge>}</Table.Td>
                <Table.Td>{row.endDate ? formatDate(row.endDate) : NO_DATE}</Table.Td>
                <Table.Td>{row.sendMode === 'send' ? t('Send automatically') : t('Draft')}</Table.Td>
                <Table.Td>{row.runs.length}</Table.Td>
                <Table.Td className="num">
                  {row.currency} <Amount value={row.totals.total} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
      {list.data ? <Pager page={page} pageSize={RECURRING_PAGE_SIZE} total={list.data.total} capped={list.data.totalCapped} onChange={setPage} /> : null}
    </Page>
  );
}

/** The schedule of a template: interval, end date, and whether invoices are sent and to whom. */
function ScheduleFields({ value, onChange, companyUuid }: { value: Schedule; onChange: (next: Schedule) => void; companyUuid: string | null }) {
  const { t } = useTranslation();
  const contacts = useQuery({ ...contactsQuery(companyUuid ?? ''), enabled: Boolean(companyUuid) });
  return (
    <Paper withBorder p="md" aria-label={t('Schedule')}>
      <Grid>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <Select
            label={t('Interval')}
            data={(['monthly', 'quarterly', 'yearly'] as const).map((i) => ({ value: i, label: t(INTERVAL_LABEL[i]) }))}
            value={value.interval}
            onChange={(interval) => onChange({ ...value, interval: (interval ?? 'monthly') as Interval })}
            allowDeselect={false}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <DateField label={t('End date (optional)')} clearable value={value.endDate ?? null} onChange={(endDate) => onChange({ ...value, endDate: endDate ?? null })} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Radio.Group label={t('Each invoice')} value={value.sendMode} onChange={(sendMode) => onChange({ ...value, sendMode: sendMode as Schedule['sendMode'] })}>
            <Group mt={6}>
              <Radio value="draft" label={t('Create as draft')} />
              <Radio value="send" label={t('Send automatically (post and e-mail)')} />
            </Group>
          </Radio.Group>
        </Grid.Col>
        {value.sendMode === 'send' ? (
          <Grid.Col span={12}>
            <MultiSelect
              label={t('E-mail to')}
              placeholder={companyUuid ? t('Choose contacts of the customer') : t('Choose the customer first')}
              data={(contacts.data?.data ?? []).map((c) => ({ value: String(c.id), label: `${c.name} <${c.email}>` }))}
              value={(value.contactIds ?? []).map(String)}
              onChange={(ids) => onChange({ ...value, contactIds: ids.map(Number) })}
            />
          </Grid.Col>
        ) : null}
      </Grid>
    </Paper>
  );
}

const DATE_LABELS = { date: msg('First invoice date (start)'), due: msg('Due date of the first invoice') };
/** An end date that is not set. */
const NO_DATE = '—';
const emptySchedule = (): Schedule => ({ interval: 'monthly', endDate: null, sendMode: 'draft', contactIds: [] });

/** The schedule fields above the invoice form; one save sends both. */
function RecurringForm({ Form, template, onSaved }: { Form: DocumentForm; template?: RecurringTemplate; onSaved: (saved: RecurringTemplate) => void }) {
  const { t } = useTranslation();
  const options = useQuery(formOptionsQuery());
  const [schedule, setSchedule] = useState<Schedule>(() =>
    template ? { interval: template.interval, endDate: template.endDate, sendMode: template.sendMode, contactIds: template.contactIds } : emptySchedule(),
  );
  const [companyUuid, setCompanyUuid] = useState<string | null>(template?.company.uuid ?? null);
  if (options.isError) return <ErrorAlert what={t('Could not load customers and payment profiles')} error={options.error} onRetry={() => void options.refetch()} />;
  if (!options.data) return <CenteredLoader />;
  return (
    <Stack>
      <ScheduleFields value={schedule} onChange={setSchedule} companyUuid={companyUuid} />
      <Form
        options={options.data}
        invoice={template ? formValuesOf(template) : undefined}
        dateLabels={{ date: t(DATE_LABELS.date), due: t(DATE_LABELS.due) }}
        onCompanyChange={setCompanyUuid}
        submitLabel={template ? t('Save recurring invoice') : t('Create recurring invoice')}
        onSubmit={async (payload) => {
          const data = recurringDataOf(payload, schedule);
          onSaved(template ? await updateRecurring(template.uuid, data) : await insertRecurring(data));
        }}
      />
    </Stack>
  );
}

/** /invoice/recurring/add */
export function RecurringAddPage({ Form }: { Form: DocumentForm }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Page title={t('New recurring invoice')}>
      <RecurringForm
        Form={Form}
        onSaved={(saved) => {
          void queryClient.invalidateQueries({ queryKey: recurringKey });
          notifications.show({ color: 'green', message: t('Recurring invoice created: first on {{date}}', { date: formatDate(saved.nextDate) }) });
          void navigate(paths.recurringDetail.getHref(saved.uuid));
        }}
      />
    </Page>
  );
}

/** /invoice/recurring/:uuid: the template (editable) and the invoices it created. */
export function RecurringDetailPage({ uuid, Form }: { uuid: string; Form: DocumentForm }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // While a period is due, the job runner is about to create its invoice: look again every few seconds.
  const template = useQuery({
    ...recurringDetailQuery(uuid),
    refetchInterval: (query) => (query.state.data?.isRunning && query.state.data.nextDate <= today() ? 3000 : false),
  });
  const remove = useMutation({
    mutationFn: () => deleteRecurring(uuid),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: recurringKey });
      void navigate(paths.recurringInvoices.getHref());
    },
  });
  if (template.isError) return <ErrorAlert what={t('Could not load the recurring invoice')} error={template.error} onRetry={() => void template.refetch()} />;
  if (!template.data) return <CenteredLoader />;
  const data = template.data;
  return (
    <Page
      title={t('Recurring invoice · {{name}}', { name: data.company.name })}
      actions={
        <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
          {t('Delete')}
        </Button>
      }
    >
      {remove.error ? <ErrorAlert what={t('Could not delete')} error={remove.error} /> : null}
      <Alert variant="light" color={data.isRunning ? 'blue' : 'gray'}>
        {data.isRunning
          ? t('{{interval}}; next invoice on {{date}}.', { interval: t(INTERVAL_LABEL[data.interval]), date: formatDate(data.nextDate) })
          : t('Ended: no further invoices.')}
      </Alert>
      <Title order={3}>{t('Invoices created')}</Title>
      <Table aria-label={t('Invoices created')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Period')}</Table.Th>
            <Table.Th>{t('Invoice')}</Table.Th>
            <Table.Th>{t('Sent')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.runs.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed">{t('None yet.')}</Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {data.runs.map((run) => (
            <Table.Tr key={run.periodDate}>
              <Table.Td>{formatDate(run.periodDate)}</Table.Td>
              <Table.Td>
                {run.invoice ? (
                  <Anchor component={Link} to={paths.invoiceDetail.getHref(run.invoice.uuid)}>
                    {run.invoice.refNumber}
                  </Anchor>
                ) : (
                  t('deleted')
                )}
              </Table.Td>
              <Table.Td>{run.sent ? t('yes') : run.error ? t('no: {{error}}', { error: run.error }) : t('no (draft)')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3}>{t('Template')}</Title>
      <RecurringForm
        key={`${data.uuid}-${data.nextDate}`}
        Form={Form}
        template={data}
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: recurringKey });
          notifications.show({ color: 'green', message: t('Recurring invoice saved') });
        }}
      />
    </Page>
  );
}

/** On an invoice's detail: the recurring invoice that created it (its link back), when one did. */
export function RecurringOrigin({ invoiceUuid }: { invoiceUuid: string }) {
  const { t } = useTranslation();
  const origin = useQuery({ queryKey: [...recurringKey, 'by-invoice', invoiceUuid], queryFn: () => recurringOfInvoice(invoiceUuid) });
  if (!origin.data?.recurring) return null;
  return (
    <Text size="sm">
      <Trans
        t={t}
        i18nKey={msg('Created by the <a>recurring invoice</a> for the period of {{date}}.')}
        values={{ date: formatDate(origin.data.recurring.periodDate) }}
        components={{ a: <Anchor component={Link} to={paths.recurringDetail.getHref(origin.data.recurring.uuid)} /> }}
      />
    </Text>
  );
}
