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
import { Link, useSearchParams } from 'react-router';
import { accountingSettingsPatchSchema, formatAmount, formatDate, toMoney, type AccountingSettingsPatch } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "January – December", "July – June". */
const fiscalYearSpan = (startMonth: number) => `${MONTHS[startMonth - 1]} – ${MONTHS[(startMonth + 10) % 12]}`;

const resultLabel = (result: string) => (toMoney(result).isNegative() ? 'Loss' : 'Profit');

/** The member who did something, by user id (the API answers ids). */
function useMemberName() {
  const members = useQuery(lockMembersQuery());
  return (user: { id: string } | null) => {
    if (!user) return '—';
    const member = members.data?.data.find((m) => m.uuid === user.id);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : 'a former member';
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
      notifications.show({ color: 'green', message: 'The accounting settings were saved.' });
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
    <Modal opened={opened} onClose={onClose} title="Fiscal year settings" centered>
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
                label="Fiscal year starts in"
                description="January is the calendar year; e.g. July for a fiscal year from July to June."
                data={MONTHS.map((label, index) => ({ value: String(index + 1), label }))}
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
                label="Profit-or-loss account"
                description="An equity account; empty: 2979 Jahresgewinn oder -verlust of the Swiss SME chart."
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
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function SettingsLine() {
  const settings = useQuery(accountingSettingsQuery());
  const isAdmin = useCan('admin');
  const [editing, setEditing] = useState(false);
  if (!settings.data) return settings.error ? <ErrorAlert what="Could not load the accounting settings" error={settings.error} /> : null;
  const { fiscalYearStartMonth, profitLossAccount } = settings.data;
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed">
        Fiscal year {fiscalYearSpan(fiscalYearStartMonth)} · result to {profitLossAccount.number} {profitLossAccount.name}
        {profitLossAccount.id === null ? ' (created by the first closing)' : ''}
      </Text>
      {isAdmin ? (
        <Button variant="subtle" size="compact-sm" leftSection={<IconSettings size={14} />} onClick={() => setEditing(true)}>
          Change
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
  const items: [string, string, string?][] = [
    ['Revenue', preview.revenue],
    ['Expenses', preview.expenses],
    [resultLabel(preview.result), toMoney(preview.result).abs().toFixed(2), toMoney(preview.result).isNegative() ? 'red' : 'green'],
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {items.map(([label, value, color]) => (
        <Paper key={label} withBorder p="md">
          <Text size="sm" c="dimmed">
            {label} {preview.fiscalYear.label}
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
  const label = `${account.number} ${account.name}`;
  return account.id === null ? (
    <Text span size="sm">
      {label}{' '}
      <Text span c="dimmed" size="xs">
        (new)
      </Text>
    </Text>
  ) : (
    <Anchor component={Link} to={paths.accountDetail.getHref(account.id)} size="sm">
      {label}
    </Anchor>
  );
}

function ClosingEntryTable({ preview }: { preview: ClosingPreview }) {
  const { entry } = preview;
  if (entry.lines.length === 0) {
    return <Text c="dimmed">No revenue or expense account has a balance for {preview.fiscalYear.label}: the closing posts no entry, it records the closing and locks the year.</Text>;
  }
  const total = entry.lines.reduce((sum, line) => (line.direction === 1 ? sum.plus(toMoney(line.amount)) : sum), toMoney(0));
  return (
    <Table striped withTableBorder aria-label="Closing entry">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Ledger account</Table.Th>
          <Table.Th ta="right">Balance {preview.fiscalYear.label}</Table.Th>
          <Table.Th ta="right">Debit</Table.Th>
          <Table.Th ta="right">Credit</Table.Th>
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
          <Table.Th colSpan={2}>Total</Table.Th>
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
  const { opening } = preview;
  const debit = opening.accounts.reduce((sum, a) => (toMoney(a.balance).isPositive() ? sum.plus(toMoney(a.balance)) : sum), toMoney(0));
  const credit = opening.accounts.reduce((sum, a) => (toMoney(a.balance).isNegative() ? sum.minus(toMoney(a.balance)) : sum), toMoney(0));
  return (
    <Stack gap="xs">
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
        Bilan's balances are cumulative: the balance sheet accounts carry into the next fiscal year as they are, so no opening entry is
        posted. These are the balances on {formatDate(opening.date)}.
      </Alert>
      <Table striped withTableBorder aria-label="Opening balances">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Ledger account</Table.Th>
            <Table.Th ta="right">Debit</Table.Th>
            <Table.Th ta="right">Credit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {opening.accounts.length === 0 ? (
            <EmptyRow columns={3}>No balances</EmptyRow>
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
            <Table.Th>Total</Table.Th>
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
  const checks = useQuery(closingChecksQuery(year));
  if (checks.error) return <ErrorAlert what="Could not run the checks" error={checks.error} onRetry={() => void checks.refetch()} />;
  if (!checks.data) return <TableSkeleton rows={4} />;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Checks for {formatDate(checks.data.dateFrom)} – {formatDate(checks.data.dateTo)}. A failed check must be resolved, or acknowledged with a note that is kept
          with the closing.
        </Text>
        <Button variant="default" size="compact-sm" loading={checks.isFetching} onClick={() => void checks.refetch()}>
          Run again
        </Button>
      </Group>
      {[...checks.data.checks]
        .sort((a, b) => RANK[a.status] - RANK[b.status])
        .map((check) => (
          <CheckRow key={check.key} check={check}>
            {check.status === 'failed' ? (
              <Textarea
                label="Note to acknowledge this failure"
                placeholder="Why the year can be closed anyway"
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
  if (preview.blockers.length === 0) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={`The fiscal year ${preview.fiscalYear.label} cannot be closed yet`}>
      <List size="sm">
        {preview.blockers.map((blocker) => (
          <List.Item key={blocker.code}>{blocker.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}

function DoneStep({ closing }: { closing: FiscalYearClosing }) {
  return (
    <Stack gap="sm">
      <Alert color="green" variant="light" icon={<IconLock size={18} />} title={`The fiscal year ${closing.fiscalYear.label} is closed`}>
        The books are locked up to {formatDate(closing.lockDate)}. {resultLabel(closing.result)} {formatAmount(toMoney(closing.result).abs().toFixed(2))} went to{' '}
        {closing.profitLossAccount.number} {closing.profitLossAccount.name}.
      </Alert>
      <Group gap="md">
        <Anchor component={Link} to={paths.statement.getHref()}>
          Financial statements
        </Anchor>
        {closing.closingEntry ? (
          <Anchor component={Link} to={paths.entryDetail.getHref(closing.closingEntry.id)}>
            Closing entry {closing.closingEntry.id}
          </Anchor>
        ) : null}
        <Anchor component={Link} to={paths.lock.getHref()}>
          Accounting locks
        </Anchor>
      </Group>
    </Stack>
  );
}

function ClosingWizard({ preview, onBooked }: { preview: ClosingPreview; onBooked: (closing: FiscalYearClosing) => void }) {
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
      notifications.show({ color: 'green', message: `The fiscal year ${closing.fiscalYear.label} is closed.` });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
  });
  const book = useSingleFlight(mutation.mutateAsync);

  const next = (
    <Group justify="flex-end">
      {step > 0 && step < 3 ? (
        <Button variant="default" onClick={() => setStep(step - 1)}>
          Back
        </Button>
      ) : null}
      {step === 0 ? (
        <Button onClick={() => setStep(1)} disabled={!checks.data || unacknowledged.length > 0}>
          {unacknowledged.length > 0 ? `Acknowledge ${unacknowledged.length} failed check${unacknowledged.length === 1 ? '' : 's'} first` : 'Next: preview'}
        </Button>
      ) : null}
      {step === 1 ? <Button onClick={() => setStep(2)}>Next: book</Button> : null}
    </Group>
  );

  return (
    <Stack gap="lg">
      <Blockers preview={preview} />
      <Stepper active={step === 3 ? 4 : step} onStepClick={(target) => target < step && step < 3 && setStep(target)} allowNextStepsSelect={false} size="sm">
        <Stepper.Step label="Checks" description="Resolve or acknowledge" />
        <Stepper.Step label="Preview" description="Closing entry and result" />
        <Stepper.Step label="Book" description="Post and lock" />
        <Stepper.Step label="Done" description="Year locked" />
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
            Closing entry {formatDate(preview.entry.dateLedger)}: {preview.entry.description}
          </Title>
          <Text size="sm" c="dimmed">
            Every revenue and expense account with a balance for {preview.fiscalYear.label} is moved to {preview.profitLossAccount.number}{' '}
            {preview.profitLossAccount.name}.
          </Text>
          <ClosingEntryTable preview={preview} />
          <Title order={2} size="h4">
            Opening balances {formatDate(preview.opening.date)}
          </Title>
          <OpeningBalances preview={preview} />
          {next}
        </Stack>
      ) : null}

      {step === 2 ? (
        <Stack gap="md">
          <Text>
            Booking posts the closing entry dated {formatDate(preview.entry.dateLedger)} ({preview.entry.lines.length} postings,{' '}
            {resultLabel(preview.result).toLowerCase()} {formatAmount(toMoney(preview.result).abs().toFixed(2))}) and locks the books up to{' '}
            {formatDate(preview.fiscalYear.dateTo)}.
            {failed.length ? ` ${failed.length} failed check${failed.length === 1 ? ' is' : 's are'} acknowledged with a note.` : ''}
          </Text>
          {!isAdmin ? <Alert color="gray">Only an owner or admin can close a fiscal year.</Alert> : null}
          {mutation.isError ? <ErrorAlert what="Could not close the year" error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep(1)}>
              Back
            </Button>
            <Button leftSection={<IconLock size={16} />} disabled={!isAdmin || preview.blockers.length > 0} onClick={() => setConfirming(true)}>
              Close fiscal year {preview.fiscalYear.label}
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 3 && booked ? <DoneStep closing={booked} /> : null}

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Close fiscal year ${preview.fiscalYear.label}`} centered>
        <Stack>
          <Text>
            The closing entry of {formatDate(preview.entry.dateLedger)} is posted and the books are locked up to {formatDate(preview.fiscalYear.dateTo)}: nothing
            in {preview.fiscalYear.label} can be posted, changed or deleted afterwards. Only an owner can reopen the year.
          </Text>
          {mutation.isError ? <ErrorAlert what="Could not close the year" error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button loading={mutation.isPending} onClick={() => book(undefined)} data-autofocus>
              Book and lock
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function ClosedYear({ preview }: { preview: ClosingPreview }) {
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const nameOf = useMemberName();
  const [confirming, setConfirming] = useState(false);
  const closing = preview.closing!;
  const mutation = useMutation({
    mutationFn: () => reopenClosing(preview.fiscalYear.year),
    onSuccess: async (reopened) => {
      setConfirming(false);
      notifications.show({ color: 'green', message: `The fiscal year ${reopened.fiscalYear.label} is open again.` });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
  });
  const reopen = useSingleFlight(mutation.mutateAsync);
  return (
    <Stack gap="lg">
      <Alert color="green" variant="light" icon={<IconLock size={18} />} title={`The fiscal year ${preview.fiscalYear.label} is closed`}>
        <Stack gap={4}>
          <Text size="sm">
            Closed on {formatDate(closing.closedAt)} by {nameOf(closing.closedBy)}; the books are locked up to {formatDate(closing.lockDate)}.
          </Text>
          <Group gap="md">
            {closing.closingEntry ? (
              <Anchor component={Link} to={paths.entryDetail.getHref(closing.closingEntry.id)} size="sm">
                Closing entry {closing.closingEntry.id}
              </Anchor>
            ) : (
              <Text size="sm">No closing entry (nothing to move).</Text>
            )}
            <Anchor component={Link} to={paths.statement.getHref()} size="sm">
              Financial statements
            </Anchor>
            <Anchor component={Link} to={paths.lock.getHref()} size="sm">
              Accounting locks
            </Anchor>
          </Group>
        </Stack>
      </Alert>
      {closing.acknowledgements.length ? (
        <Card withBorder>
          <Text fw={600} mb="xs">
            Failed checks acknowledged at closing
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
                  Note: <em>{ack.note}</em>
                </Text>
              </List.Item>
            ))}
          </List>
        </Card>
      ) : null}
      <ResultSummary preview={preview} />
      <Title order={2} size="h4">
        Closing entry {formatDate(preview.entry.dateLedger)}
      </Title>
      <ClosingEntryTable preview={preview} />
      <Title order={2} size="h4">
        Opening balances {formatDate(preview.opening.date)}
      </Title>
      <OpeningBalances preview={preview} />
      {profile?.role === 'owner' ? (
        <Group justify="flex-end">
          <Button color="red" variant="light" leftSection={<IconLockOpen size={16} />} onClick={() => setConfirming(true)}>
            Reopen year
          </Button>
        </Group>
      ) : null}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Reopen fiscal year ${preview.fiscalYear.label}`} centered>
        <Stack>
          <Text>
            Reopening removes the lock of {formatDate(closing.lockDate)} and posts the reversal of the closing entry
            {closing.closingEntry ? ` ${closing.closingEntry.id}` : ''} on {formatDate(preview.fiscalYear.dateTo)}: the revenue and expense accounts show the
            year's balances again and postings into {preview.fiscalYear.label} are possible until it is closed again. A later closed year or a later lock must
            be removed first. The reopening is recorded in the audit trail.
          </Text>
          {mutation.isError ? <ErrorAlert what="Could not reopen the year" error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" loading={mutation.isPending} onClick={() => reopen(undefined)}>
              Reopen year
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function YearClosing({ year }: { year: number }) {
  const preview = useQuery(closingPreviewQuery(year));
  // After booking, the wizard stays on its last step although the year now reads as closed.
  const [justBooked, setJustBooked] = useState(false);
  if (preview.error) return <ErrorAlert what="Could not load the closing" error={preview.error} onRetry={() => void preview.refetch()} />;
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
    <Page title="Year-end closing" documentTitle={paths.close.label}>
      <Stack gap="lg">
        <Group align="flex-end" justify="space-between" wrap="wrap">
          <Select
            label="Fiscal year"
            w={360}
            allowDeselect={false}
            value={year === undefined ? null : String(year)}
            onChange={(value) => value && setSearch({ year: value })}
            data={list.map((y) => ({
              value: String(y.year),
              label: `${y.label} (${formatDate(y.dateFrom)} – ${formatDate(y.dateTo)}) · ${y.status === 'closed' ? 'closed' : 'open'}`,
            }))}
          />
          <SettingsLine />
        </Group>
        {years.error ? <ErrorAlert what="Could not load the fiscal years" error={years.error} /> : null}
        {years.isPending ? <TableSkeleton rows={3} /> : null}
        {year !== undefined ? <YearClosing key={year} year={year} /> : null}
      </Stack>
    </Page>
  );
}
