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
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  INTERVAL_LABEL,
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

/** /invoice/recurring: the templates with their next date. */
export function RecurringListPage() {
  const list = useQuery(recurringListQuery());
  const navigate = useNavigate();
  return (
    <Page
      title="Recurring invoices"
      actions={
        <Button component={Link} to={paths.recurringAdd.getHref()} leftSection={<IconPlus size={16} />}>
          New recurring invoice
        </Button>
      }
    >
      {list.isError ? <ErrorAlert what="Could not load the recurring invoices" error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? <TableSkeleton /> : null}
      {list.data ? (
        <Table highlightOnHover aria-label="Recurring invoices">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Customer</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Interval</Table.Th>
              <Table.Th>Next date</Table.Th>
              <Table.Th>End</Table.Th>
              <Table.Th>Mode</Table.Th>
              <Table.Th>Invoices</Table.Th>
              <Table.Th className="num">Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.data.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed">No recurring invoices yet.</Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {list.data.data.map((t) => (
              <Table.Tr key={t.uuid} style={{ cursor: 'pointer' }} onClick={() => void navigate(paths.recurringDetail.getHref(t.uuid))}>
                <Table.Td>
                  <Anchor component={Link} to={paths.recurringDetail.getHref(t.uuid)}>
                    {t.company.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t.description}</Table.Td>
                <Table.Td>{INTERVAL_LABEL[t.interval]}</Table.Td>
                <Table.Td>{t.isRunning ? formatDate(t.nextDate) : <Badge color="gray">ended</Badge>}</Table.Td>
                <Table.Td>{t.endDate ? formatDate(t.endDate) : '—'}</Table.Td>
                <Table.Td>{t.sendMode === 'send' ? 'Send automatically' : 'Draft'}</Table.Td>
                <Table.Td>{t.runs.length}</Table.Td>
                <Table.Td className="num">
                  {t.currency} <Amount value={t.totals.total} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Page>
  );
}

/** The schedule of a template: interval, end date, and whether invoices are sent and to whom. */
function ScheduleFields({ value, onChange, companyUuid }: { value: Schedule; onChange: (next: Schedule) => void; companyUuid: string | null }) {
  const contacts = useQuery({ ...contactsQuery(companyUuid ?? ''), enabled: Boolean(companyUuid) });
  return (
    <Paper withBorder p="md" aria-label="Schedule">
      <Grid>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <Select
            label="Interval"
            data={(['monthly', 'quarterly', 'yearly'] as const).map((i) => ({ value: i, label: INTERVAL_LABEL[i] }))}
            value={value.interval}
            onChange={(interval) => onChange({ ...value, interval: (interval ?? 'monthly') as Interval })}
            allowDeselect={false}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 3 }}>
          <DateField label="End date (optional)" clearable value={value.endDate ?? null} onChange={(endDate) => onChange({ ...value, endDate: endDate ?? null })} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Radio.Group label="Each invoice" value={value.sendMode} onChange={(sendMode) => onChange({ ...value, sendMode: sendMode as Schedule['sendMode'] })}>
            <Group mt={6}>
              <Radio value="draft" label="Create as draft" />
              <Radio value="send" label="Send automatically (post and e-mail)" />
            </Group>
          </Radio.Group>
        </Grid.Col>
        {value.sendMode === 'send' ? (
          <Grid.Col span={12}>
            <MultiSelect
              label="E-mail to"
              placeholder={companyUuid ? 'Choose contacts of the customer' : 'Choose the customer first'}
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

const DATE_LABELS = { date: 'First invoice date (start)', due: 'Due date of the first invoice' };
const emptySchedule = (): Schedule => ({ interval: 'monthly', endDate: null, sendMode: 'draft', contactIds: [] });

/** The schedule fields above the invoice form; one save sends both. */
function RecurringForm({ Form, template, onSaved }: { Form: DocumentForm; template?: RecurringTemplate; onSaved: (saved: RecurringTemplate) => void }) {
  const options = useQuery(formOptionsQuery());
  const [schedule, setSchedule] = useState<Schedule>(() =>
    template ? { interval: template.interval, endDate: template.endDate, sendMode: template.sendMode, contactIds: template.contactIds } : emptySchedule(),
  );
  const [companyUuid, setCompanyUuid] = useState<string | null>(template?.company.uuid ?? null);
  if (options.isError) return <ErrorAlert what="Could not load customers and payment profiles" error={options.error} onRetry={() => void options.refetch()} />;
  if (!options.data) return <CenteredLoader />;
  return (
    <Stack>
      <ScheduleFields value={schedule} onChange={setSchedule} companyUuid={companyUuid} />
      <Form
        options={options.data}
        invoice={template ? formValuesOf(template) : undefined}
        dateLabels={DATE_LABELS}
        onCompanyChange={setCompanyUuid}
        submitLabel={template ? 'Save recurring invoice' : 'Create recurring invoice'}
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Page title="New recurring invoice">
      <RecurringForm
        Form={Form}
        onSaved={(saved) => {
          void queryClient.invalidateQueries({ queryKey: recurringKey });
          notifications.show({ color: 'green', message: `Recurring invoice created: first on ${formatDate(saved.nextDate)}` });
          void navigate(paths.recurringDetail.getHref(saved.uuid));
        }}
      />
    </Page>
  );
}

/** /invoice/recurring/:uuid: the template (editable) and the invoices it created. */
export function RecurringDetailPage({ uuid, Form }: { uuid: string; Form: DocumentForm }) {
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
  if (template.isError) return <ErrorAlert what="Could not load the recurring invoice" error={template.error} onRetry={() => void template.refetch()} />;
  if (!template.data) return <CenteredLoader />;
  const t = template.data;
  return (
    <Page
      title={`Recurring invoice · ${t.company.name}`}
      actions={
        <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
          Delete
        </Button>
      }
    >
      {remove.error ? <ErrorAlert what="Could not delete" error={remove.error} /> : null}
      <Alert variant="light" color={t.isRunning ? 'blue' : 'gray'}>
        {t.isRunning ? `${INTERVAL_LABEL[t.interval]}; next invoice on ${formatDate(t.nextDate)}.` : 'Ended: no further invoices.'}
      </Alert>
      <Title order={3}>Invoices created</Title>
      <Table aria-label="Invoices created">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Period</Table.Th>
            <Table.Th>Invoice</Table.Th>
            <Table.Th>Sent</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {t.runs.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed">None yet.</Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {t.runs.map((run) => (
            <Table.Tr key={run.periodDate}>
              <Table.Td>{formatDate(run.periodDate)}</Table.Td>
              <Table.Td>
                {run.invoice ? (
                  <Anchor component={Link} to={paths.invoiceDetail.getHref(run.invoice.uuid)}>
                    {run.invoice.refNumber}
                  </Anchor>
                ) : (
                  'deleted'
                )}
              </Table.Td>
              <Table.Td>{run.sent ? 'yes' : run.error ? `no: ${run.error}` : 'no (draft)'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3}>Template</Title>
      <RecurringForm
        key={`${t.uuid}-${t.nextDate}`}
        Form={Form}
        template={t}
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: recurringKey });
          notifications.show({ color: 'green', message: 'Recurring invoice saved' });
        }}
      />
    </Page>
  );
}

/** On an invoice's detail: the recurring invoice that created it (its link back), when one did. */
export function RecurringOrigin({ invoiceUuid }: { invoiceUuid: string }) {
  const origin = useQuery({ queryKey: [...recurringKey, 'by-invoice', invoiceUuid], queryFn: () => recurringOfInvoice(invoiceUuid) });
  if (!origin.data?.recurring) return null;
  return (
    <Text size="sm">
      Created by the{' '}
      <Anchor component={Link} to={paths.recurringDetail.getHref(origin.data.recurring.uuid)}>
        recurring invoice
      </Anchor>{' '}
      for the period of {formatDate(origin.data.recurring.periodDate)}.
    </Text>
  );
}
