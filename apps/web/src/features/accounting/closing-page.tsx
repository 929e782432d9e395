import { useEffect, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  List,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconInfoCircle, IconLock, IconLockOpen, IconSettings } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { accountingSettingsPatchSchema, formatAmount, formatDate, toMoney, type AccountingSettingsPatch } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { useCan, useSession } from '../../lib/session';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { AccountSelect } from './account-select';
import { CheckRow, RANK } from './checks-page';
import {
  accountingKey,
  accountingSettingsQuery,
  bookClosing,
  closingChecksQuery,
  closingPreviewQuery,
  fiscalYearListQuery,
  lockMembersQuery,
  reopenClosing,
  updateAccountingSettings,
  type AccountingSettings,
  type ClosingPreview,
  type FiscalYearClosing,
  type FiscalYearSummary,
} from './api';
import { EmptyRow } from '../../ui/empty-row';

const MONTHS = [
  msg('January'),
  msg('February'),
  msg('March'),
  msg('April'),
  msg('May'),
  msg('June'),
  msg('July'),
  msg('August'),
  msg('September'),
  msg('October'),
  msg('November'),
  msg('December'),
];

/** "January – December", "July – June". */
const fiscalYearSpan = (t: TFunction, startMonth: number) => `${t(MONTHS[startMonth - 1]!)} – ${t(MONTHS[(startMonth + 10) % 12]!)}`;

/** 'Profit' or 'Loss', an English text to show through t(). */
const resultLabel = (result: string) => (toMoney(result).isNegative() ? msg('Loss') : msg('Profit'));
/** The same inside a sentence. */
const resultName = (result: string) => (toMoney(result).isNegative() ? msg('loss') : msg('profit'));

/** The member who did something, by user id (the API answers ids). */
function useMemberName() {
  const { t } = useTranslation();
  const members = useQuery(lockMembersQuery());
  return (user: { id: string } | null) => {
    if (!user) return '—';
    const member = members.data?.data.find((m) => m.uuid === user.id);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : t('a former member');
  };
}

// ------------------------------------------------------------------------------------------------
// Fiscal-year settings (admin and owner)
// ------------------------------------------------------------------------------------------------

interface SettingsValues {
  fiscalYearStartMonth: string;
  profitLossAccountId: number | null;
}

const toSettingsPayload = (values: SettingsValues): unknown => ({
  fiscalYearStartMonth: Number(values.fiscalYearStartMonth),
  profitLossAccount: values.profitLossAccountId === null ? null : { id: values.profitLossAccountId },
});

function SettingsModal({ settings, opened, onClose }: { settings: AccountingSettings; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<SettingsValues, unknown, AccountingSettingsPatch>({
    resolver: payloadResolver(accountingSettingsPatchSchema, toSettingsPayload, {
      known: ['fiscalYearStartMonth', 'profitLossAccountId'],
      formPath: (path) => (path.startsWith('profitLossAccount') ? 'profitLossAccountId' : path),
    }),
    defaultValues: {
      fiscalYearStartMonth: String(settings.fiscalYearStartMonth),
      profitLossAccountId: settings.profitLossAccount.isDefault ? null : settings.profitLossAccount.id,
    },
  });
  const mutation = useMutation({
    mutationFn: (payload: AccountingSettingsPatch) => updateAccountingSettings(payload),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      notifications.show({ color: 'green', message: t('The accounting settings were saved.') });
      onClose();
    },
    onError: (error) => {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), ['fiscalYearStartMonth', 'profitLossAccountId'], (path) =>
        path.startsWith('profitLossAccount') ? 'profitLossAccountId' : path,
      );
      setFailure(rest.length || Object.keys(serverFieldErrors(error)).length === 0 ? errorMessage(error) : null);
    },
  });
  const save = useSingleFlight(mutation.mutateAsync);
  return (
    <Modal opened={opened} onClose={onClose} title={t('Fiscal year settings')} centered>
      <form
        onSubmit={handleSubmit((payload) => {
          setFailure(null);
          save(payload);
        })}
      >
        <Stack>
          <Controller
            control={control}
            name="fiscalYearStartMonth"
            render={({ field }) => (
              <Select
                label={t('Fiscal year starts in')}
                description={t('January is the calendar year; e.g. July for a fiscal year from July to June.')}
                data={MONTHS.map((label, index) => ({ value: String(index + 1), label: t(label) }))}
                allowDeselect={false}
                value={field.value}
                onChange={(value) => field.onChange(value ?? '1')}
                error={formState.errors.fiscalYearStartMonth?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="profitLossAccountId"
            render={({ field }) => (
              <AccountSelect
                label={t('Profit-or-loss account')}
                description={t('An equity account; empty: 2979 Jahresgewinn oder -verlust of the Swiss SME chart.')}
                placeholder="2979 Jahresgewinn oder -verlust"
                value={field.value}
                onChange={field.onChange}
                error={formState.errors.profitLossAccountId?.message}
              />
            )}
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SettingsLine() {
  const { t } = useTranslation();
  const settings = useQuery(accountingSettingsQuery());
  const isAdmin = useCan('admin');
  const [editing, setEditing] = useState(false);
  if (!settings.data) return settings.error ? <ErrorAlert what={t('Could not load the accounting settings')} error={settings.error} /> : null;
  const { fiscalYearStartMonth, profitLossAccount } = settings.data;
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('Fiscal year {{span}} · result to {{account}}', {
          span: fiscalYearSpan(t, fiscalYearStartMonth),
          account: `${profitLossAccount.number} ${profitLossAccount.name}`,
        })}
        {profitLossAccount.id === null ? ` ${t('(created by the first closing)')}` : ''}
      </Text>
      {isAdmin ? (
        <Button variant="subtle" size="compact-sm" leftSection={<IconSettings size={14} />} onClick={() => setEditing(true)}>
          {t('Change')}
        </Button>
      ) : null}
      {editing ? <SettingsModal settings={settings.data} opened onClose={() => setEditing(false)} /> : null}
    </Group>
  );
}

// ------------------------------------------------------------------------------------------------
// Figures: result, closing entry, opening balances
// ------------------------------------------------------------------------------------------------

function ResultSummary({ preview }: { preview: ClosingPreview }) {
  const { t } = useTranslation();
  const items: [string, string, string?][] = [
    [msg('Revenue'), preview.revenue],
    [msg('Expenses'), preview.expenses],
    [resultLabel(preview.result), toMoney(preview.result).abs().toFixed(2), toMoney(preview.result).isNegative() ? 'red' : 'green'],
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {items.map(([label, value, color]) => (
        <Paper key={label} withBorder p="md">
          <Text size="sm" c="dimmed">
            {t(label)} {preview.fiscalYear.label}
          </Text>
          <Text size="xl" fw={700} c={color}>
            <Amount value={value} />
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

const debitOf = (amount: string, direction: number) => (direction === 1 ? amount : null);
const creditOf = (amount: string, direction: number) => (direction === -1 ? amount : null);

function AccountCell({ account }: { account: { id: number | null; number: string; name: string } }) {
  const { t } = useTranslation();
  const label = `${account.number} ${account.name}`;
  return account.id === null ? (
    <Text span size="sm">
      {label}{' '}
      <Text span c="dimmed" size="xs">
        {t('(new)')}
      </Text>
    </Text>
  ) : (
    <Anchor component={Link} to={paths.accountDetail.getHref(account.id)} size="sm">
      {label}
    </Anchor>
  );
}

function ClosingEntryTable({ preview }: { preview: ClosingPreview }) {
  const { t } = useTranslation();
  const { entry } = preview;
  if (entry.lines.length === 0) {
    return (
      <Text c="dimmed">
        {t('No revenue or expense account has a balance for {{year}}: the closing posts no entry, it records the closing and locks the year.', {
          year: preview.fiscalYear.label,
        })}
      </Text>
    );
  }
  const total = entry.lines.reduce((sum, line) => (line.direction === 1 ? sum.plus(toMoney(line.amount)) : sum), toMoney(0));
  return (
    <Table striped withTableBorder aria-label={t('Closing entry')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Ledger account')}</Table.Th>
          <Table.Th ta="right">{t('Balance {{year}}', { year: preview.fiscalYear.label })}</Table.Th>
          <Table.Th ta="right">{t('Debit')}</Table.Th>
          <Table.Th ta="right">{t('Credit')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entry.lines.map((line, index) => (
          <Table.Tr key={`${line.account.number}-${index}`}>
            <Table.Td>
              <AccountCell account={line.account} />
            </Table.Td>
            <Table.Td ta="right">
              <Amount value={line.balance} />
            </Table.Td>
            <Table.Td ta="right">{debitOf(line.amount, line.direction) ? <Amount value={line.amount} /> : null}</Table.Td>
            <Table.Td ta="right">{creditOf(line.amount, line.direction) ? <Amount value={line.amount} /> : null}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th colSpan={2}>{t('Total')}</Table.Th>
          <Table.Th ta="right">
            <Amount value={total.toFixed(2)} />
          </Table.Th>
          <Table.Th ta="right">
            <Amount value={total.toFixed(2)} />
          </Table.Th>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

function OpeningBalances({ preview }: { preview: ClosingPreview }) {
  const { t } = useTranslation();
  const { opening } = preview;
  const debit = opening.accounts.reduce((sum, a) => (toMoney(a.balance).isPositive() ? sum.plus(toMoney(a.balance)) : sum), toMoney(0));
  const credit = opening.accounts.reduce((sum, a) => (toMoney(a.balance).isNegative() ? sum.minus(toMoney(a.balance)) : sum), toMoney(0));
  return (
    <Stack gap="xs">
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
        {t(
          "Bilan's balances are cumulative: the balance sheet accounts carry into the next fiscal year as they are, so no opening entry is posted. These are the balances on {{date}}.",
          { date: formatDate(opening.date) },
        )}
      </Alert>
      <Table striped withTableBorder aria-label={t('Opening balances')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Ledger account')}</Table.Th>
            <Table.Th ta="right">{t('Debit')}</Table.Th>
            <Table.Th ta="right">{t('Credit')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {opening.accounts.length === 0 ? (
            <EmptyRow columns={3}>{t('No balances')}</EmptyRow>
          ) : null}
          {opening.accounts.map((account) => (
            <Table.Tr key={account.number}>
              <Table.Td>
                <AccountCell account={account} />
              </Table.Td>
              <Table.Td ta="right">{toMoney(account.balance).isPositive() ? <Amount value={account.balance} /> : null}</Table.Td>
              <Table.Td ta="right">{toMoney(account.balance).isNegative() ? <Amount value={toMoney(account.balance).abs().toFixed(2)} /> : null}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>{t('Total')}</Table.Th>
            <Table.Th ta="right">
              <Amount value={debit.toFixed(2)} />
            </Table.Th>
            <Table.Th ta="right">
              <Amount value={credit.toFixed(2)} />
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Stack>
  );
}

// ------------------------------------------------------------------------------------------------
// Step 1: checks
// ------------------------------------------------------------------------------------------------

function ChecksStep({ year, notes, onNote }: { year: number; notes: Record<string, string>; onNote: (key: string, note: string) => void }) {
  const { t } = useTranslation();
  const checks = useQuery(closingChecksQuery(year));
  if (checks.error) return <ErrorAlert what={t('Could not run the checks')} error={checks.error} onRetry={() => void checks.refetch()} />;
  if (!checks.data) return <TableSkeleton rows={4} />;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('Checks for {{from}} – {{to}}. A failed check must be resolved, or acknowledged with a note that is kept with the closing.', {
            from: formatDate(checks.data.dateFrom),
            to: formatDate(checks.data.dateTo),
          })}
        </Text>
        <Button variant="default" size="compact-sm" loading={checks.isFetching} onClick={() => void checks.refetch()}>
          {t('Run again')}
        </Button>
      </Group>
      {[...checks.data.checks]
        .sort((a, b) => RANK[a.status] - RANK[b.status])
        .map((check) => (
          <CheckRow key={check.key} check={check}>
            {check.status === 'failed' ? (
              <Textarea
                label={t('Note to acknowledge this failure')}
                placeholder={t('Why the year can be closed anyway')}
                autosize
                minRows={1}
                maw={720}
                value={notes[check.key] ?? ''}
                onChange={(event) => onNote(check.key, event.currentTarget.value)}
              />
            ) : null}
          </CheckRow>
        ))}
    </Stack>
  );
}

// ------------------------------------------------------------------------------------------------
// The wizard of an open year, the view of a closed one
// ------------------------------------------------------------------------------------------------

function Blockers({ preview }: { preview: ClosingPreview }) {
  const { t } = useTranslation();
  if (preview.blockers.length === 0) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('The fiscal year {{year}} cannot be closed yet', { year: preview.fiscalYear.label })}>
      <List size="sm">
        {preview.blockers.map((blocker) => (
          <List.Item key={blocker.code}>{blocker.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

function DoneStep({ closing }: { closing: FiscalYearClosing }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="green" variant="light" icon={<IconLock size={18} />} title={t('The fiscal year {{year}} is closed', { year: closing.fiscalYear.label })}>
        {t('The books are locked up to {{date}}. {{result}} {{amount}} went to {{account}}.', {
          date: formatDate(closing.lockDate),
          result: t(resultLabel(closing.result)),
          amount: formatAmount(toMoney(closing.result).abs().toFixed(2)),
          account: `${closing.profitLossAccount.number} ${closing.profitLossAccount.name}`,
        })}
      </Alert>
      <Group gap="md">
        <Anchor component={Link} to={paths.statement.getHref()}>
          {t('Financial statements')}
        </Anchor>
        {closing.closingEntry ? (
          <Anchor component={Link} to={paths.entryDetail.getHref(closing.closingEntry.id)}>
            {t('Closing entry {{id}}', { id: closing.closingEntry.id })}
          </Anchor>
        ) : null}
        <Anchor component={Link} to={paths.lock.getHref()}>
          {t('Accounting locks')}
        </Anchor>
      </Group>
    </Stack>
  );
}

function ClosingWizard({ preview, onBooked }: { preview: ClosingPreview; onBooked: (closing: FiscalYearClosing) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isAdmin = useCan('admin');
  const year = preview.fiscalYear.year;
  const [step, setStep] = useState(0);
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [booked, setBooked] = useState<FiscalYearClosing | null>(null);
  const checks = useQuery(closingChecksQuery(year));
  const failed = checks.data?.checks.filter((check) => check.status === 'failed') ?? [];
  const unacknowledged = failed.filter((check) => !notes[check.key]?.trim());

  const mutation = useMutation({
    mutationFn: () =>
      bookClosing(
        year,
        failed.map((check) => ({ key: check.key, note: notes[check.key]!.trim() })),
      ),
    onSuccess: async (closing) => {
      setBooked(closing);
      setConfirming(false);
      setStep(3);
      onBooked(closing);
      notifications.show({ color: 'green', message: t('The fiscal year {{year}} is closed.', { year: closing.fiscalYear.label }) });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
  });
  const book = useSingleFlight(mutation.mutateAsync);
  const acknowledged = t('{{count}} failed checks are acknowledged with a note.', { count: failed.length });

  const next = (
    <Group justify="flex-end">
      {step > 0 && step < 3 ? (
        <Button variant="default" onClick={() => setStep(step - 1)}>
          {t('Back')}
        </Button>
      ) : null}
      {step === 0 ? (
        <Button onClick={() => setStep(1)} disabled={!checks.data || unacknowledged.length > 0}>
          {unacknowledged.length > 0 ? t('Acknowledge {{count}} failed checks first', { count: unacknowledged.length }) : t('Next: preview')}
        </Button>
      ) : null}
      {step === 1 ? <Button onClick={() => setStep(2)}>{t('Next: book')}</Button> : null}
    </Group>
  );

  return (
    <Stack gap="lg">
      <Blockers preview={preview} />
      <Stepper active={step === 3 ? 4 : step} onStepClick={(target) => target < step && step < 3 && setStep(target)} allowNextStepsSelect={false} size="sm">
        <Stepper.Step label={t('Checks')} description={t('Resolve or acknowledge')} />
        <Stepper.Step label={t('Preview')} description={t('Closing entry and result')} />
        <Stepper.Step label={t('Book')} description={t('Post and lock')} />
        <Stepper.Step label={t('Done')} description={t('Year locked')} />
      </Stepper>

      {step === 0 ? (
        <Stack gap="md">
          <ChecksStep year={year} notes={notes} onNote={(key, note) => setNotes((current) => ({ ...current, [key]: note }))} />
          {next}
        </Stack>
      ) : null}

      {step === 1 ? (
        <Stack gap="md">
          <ResultSummary preview={preview} />
          <Title order={2} size="h4">
            {t('Closing entry {{date}}: {{description}}', { date: formatDate(preview.entry.dateLedger), description: preview.entry.description })}
          </Title>
          <Text size="sm" c="dimmed">
            {t('Every revenue and expense account with a balance for {{year}} is moved to {{account}}.', {
              year: preview.fiscalYear.label,
              account: `${preview.profitLossAccount.number} ${preview.profitLossAccount.name}`,
            })}
          </Text>
          <ClosingEntryTable preview={preview} />
          <Title order={2} size="h4">
            {t('Opening balances {{date}}', { date: formatDate(preview.opening.date) })}
          </Title>
          <OpeningBalances preview={preview} />
          {next}
        </Stack>
      ) : null}

      {step === 2 ? (
        <Stack gap="md">
          <Text>
            {t('Booking posts the closing entry dated {{date}} ({{postings}} postings, {{result}} {{amount}}) and locks the books up to {{lockDate}}.', {
              date: formatDate(preview.entry.dateLedger),
              postings: preview.entry.lines.length,
              result: t(resultName(preview.result)),
              amount: formatAmount(toMoney(preview.result).abs().toFixed(2)),
              lockDate: formatDate(preview.fiscalYear.dateTo),
            })}
            {failed.length ? ` ${acknowledged}` : ''}
          </Text>
          {!isAdmin ? <Alert color="gray">{t('Only an owner or admin can close a fiscal year.')}</Alert> : null}
          {mutation.isError ? <ErrorAlert what={t('Could not close the year')} error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(1)}>
              {t('Back')}
            </Button>
            <Button leftSection={<IconLock size={16} />} disabled={!isAdmin || preview.blockers.length > 0} onClick={() => setConfirming(true)}>
              {t('Close fiscal year {{year}}', { year: preview.fiscalYear.label })}
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 3 && booked ? <DoneStep closing={booked} /> : null}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('Close fiscal year {{year}}', { year: preview.fiscalYear.label })} centered>
        <Stack>
          <Text>
            {t(
              'The closing entry of {{date}} is posted and the books are locked up to {{lockDate}}: nothing in {{year}} can be posted, changed or deleted afterwards. Only an owner can reopen the year.',
              { date: formatDate(preview.entry.dateLedger), lockDate: formatDate(preview.fiscalYear.dateTo), year: preview.fiscalYear.label },
            )}
          </Text>
          {mutation.isError ? <ErrorAlert what={t('Could not close the year')} error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('Cancel')}
            </Button>
            <Button loading={mutation.isPending} onClick={() => book(undefined)} data-autofocus>
              {t('Book and lock')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function ClosedYear({ preview }: { preview: ClosingPreview }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const nameOf = useMemberName();
  const [confirming, setConfirming] = useState(false);
  const closing = preview.closing!;
  const mutation = useMutation({
    mutationFn: () => reopenClosing(preview.fiscalYear.year),
    onSuccess: async (reopened) => {
      setConfirming(false);
      notifications.show({ color: 'green', message: t('The fiscal year {{year}} is open again.', { year: reopened.fiscalYear.label }) });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
  });
  const reopen = useSingleFlight(mutation.mutateAsync);
  return (
    <Stack gap="lg">
      <Alert color="green" variant="light" icon={<IconLock size={18} />} title={t('The fiscal year {{year}} is closed', { year: preview.fiscalYear.label })}>
        <Stack gap={4}>
          <Text size="sm">
            {t('Closed on {{date}} by {{name}}; the books are locked up to {{lockDate}}.', {
              date: formatDate(closing.closedAt),
              name: nameOf(closing.closedBy),
              lockDate: formatDate(closing.lockDate),
            })}
          </Text>
          <Group gap="md">
            {closing.closingEntry ? (
              <Anchor component={Link} to={paths.entryDetail.getHref(closing.closingEntry.id)} size="sm">
                {t('Closing entry {{id}}', { id: closing.closingEntry.id })}
              </Anchor>
            ) : (
              <Text size="sm">{t('No closing entry (nothing to move).')}</Text>
            )}
            <Anchor component={Link} to={paths.statement.getHref()} size="sm">
              {t('Financial statements')}
            </Anchor>
            <Anchor component={Link} to={paths.lock.getHref()} size="sm">
              {t('Accounting locks')}
            </Anchor>
          </Group>
        </Stack>
      </Alert>
      {closing.acknowledgements.length ? (
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t('Failed checks acknowledged at closing')}
          </Text>
          <List size="sm">
            {closing.acknowledgements.map((ack) => (
              <List.Item key={ack.key}>
                <Text size="sm" fw={600}>
                  {ack.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {ack.detail}
                </Text>
                <Text size="sm">
                  {t('Note:')} <em>{ack.note}</em>
                </Text>
              </List.Item>
            ))}
          </List>
        </Card>
      ) : null}
      <ResultSummary preview={preview} />
      <Title order={2} size="h4">
        {t('Closing entry {{date}}', { date: formatDate(preview.entry.dateLedger) })}
      </Title>
      <ClosingEntryTable preview={preview} />
      <Title order={2} size="h4">
        {t('Opening balances {{date}}', { date: formatDate(preview.opening.date) })}
      </Title>
      <OpeningBalances preview={preview} />
      {profile?.role === 'owner' ? (
        <Group justify="flex-end">
          <Button color="red" variant="light" leftSection={<IconLockOpen size={16} />} onClick={() => setConfirming(true)}>
            {t('Reopen year')}
          </Button>
        </Group>
      ) : null}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('Reopen fiscal year {{year}}', { year: preview.fiscalYear.label })} centered>
        <Stack>
          <Text>
            {t(
              "Reopening removes the lock of {{lockDate}} and posts the reversal of the closing entry{{entry}} on {{date}}: the revenue and expense accounts show the year's balances again and postings into {{year}} are possible until it is closed again. A later closed year or a later lock must be removed first. The reopening is recorded in the audit trail.",
              {
                lockDate: formatDate(closing.lockDate),
                entry: closing.closingEntry ? ` ${closing.closingEntry.id}` : '',
                date: formatDate(preview.fiscalYear.dateTo),
                year: preview.fiscalYear.label,
              },
            )}
          </Text>
          {mutation.isError ? <ErrorAlert what={t('Could not reopen the year')} error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('Cancel')}
            </Button>
            <Button color="red" loading={mutation.isPending} onClick={() => reopen(undefined)}>
              {t('Reopen year')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function YearClosing({ year }: { year: number }) {
  const { t } = useTranslation();
  const preview = useQuery(closingPreviewQuery(year));
  // After booking, the wizard stays on its last step although the year now reads as closed.
  const [justBooked, setJustBooked] = useState(false);
  if (preview.error) return <ErrorAlert what={t('Could not load the closing')} error={preview.error} onRetry={() => void preview.refetch()} />;
  if (!preview.data) return <TableSkeleton rows={6} />;
  if (preview.data.status === 'closed' && !justBooked) return <ClosedYear preview={preview.data} />;
  return <ClosingWizard preview={preview.data} onBooked={() => setJustBooked(true)} />;
}

/** The year to show first: the earliest ended open year with postings, else the latest year. */
function defaultYear(years: FiscalYearSummary[], currentYear: number): number | undefined {
  const candidates = years.filter((y) => y.status === 'open' && y.hasPostings && y.year < currentYear);
  return (candidates[candidates.length - 1] ?? years[0])?.year;
}

/**
 * /accounting/close (spec §2.2, issue 12 §3): choose a fiscal year; an open one goes through the
 * wizard (checks with notes for failures, preview of the closing entry and the next year's opening
 * balances, book with confirmation, done), a closed one shows its closing and, for owners, 'Reopen
 * year'. The fiscal year start and the profit-or-loss account are set here (owner and admin).
 */
export function ClosingPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const years = useQuery(fiscalYearListQuery());
  const list = years.data?.years ?? [];
  const requested = Number(search.get('year'));
  const year = list.some((y) => y.year === requested) ? requested : years.data ? defaultYear(list, years.data.currentYear) : undefined;
  // The year goes into the address, so it stays chosen when closing changes which year is the default.
  useEffect(() => {
    if (year !== undefined && year !== requested) setSearch({ year: String(year) }, { replace: true });
  }, [year, requested, setSearch]);

  return (
    <Page title={t('Year-end closing')} documentTitle={t('Closing')}>
      <Stack gap="lg">
        <Group align="flex-end" justify="space-between" wrap="wrap">
          <Select
            label={t('Fiscal year')}
            w={360}
            allowDeselect={false}
            value={year === undefined ? null : String(year)}
            onChange={(value) => value && setSearch({ year: value })}
            data={list.map((y) => ({
              value: String(y.year),
              label: `${y.label} (${formatDate(y.dateFrom)} – ${formatDate(y.dateTo)}) · ${y.status === 'closed' ? t('closed') : t('open')}`,
            }))}
          />
          <SettingsLine />
        </Group>
        {years.error ? <ErrorAlert what={t('Could not load the fiscal years')} error={years.error} /> : null}
        {years.isPending ? <TableSkeleton rows={3} /> : null}
        {year !== undefined ? <YearClosing key={year} year={year} /> : null}
      </Stack>
    </Page>
  );
}
