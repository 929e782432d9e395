import { useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import { errorMessage } from '../../lib/errors';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { accountingKey, deleteLock, insertLock, lockListQuery, lockMembersQuery, type AccountingLock } from './api';
import { CONFIRM_DELETE, ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { EmptyRow } from '../../ui/empty-row';

/** The spec's delete confirmation (§2.3 "Settings"), used for every delete in the app. */

const formatTimestamp = (iso: string) => new Date(iso).toLocaleString('de-CH', { dateStyle: 'medium', timeStyle: 'short' });

function LockForm({ onCreated }: { onCreated: () => Promise<void> }) {
  const [by, setBy] = useState<'date' | 'entry'>('date');
  const [date, setDate] = useState<string | null>(null);
  const [entryId, setEntryId] = useState<number | string>('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    if (by === 'date' && !date) return setError('Choose the date up to which the books are locked.');
    if (by === 'entry' && typeof entryId !== 'number') return setError('Enter the number of the last journal entry to lock.');
    setSaving(true);
    try {
      const lock = await insertLock(by === 'date' ? { date: date! } : { endEntry: { id: entryId as number } });
      notifications.show({ color: 'green', message: `The books are locked up to ${formatDate(lock.lockDate)}.` });
      setDate(null);
      setEntryId('');
      await onCreated();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Text fw={600}>Lock the books</Text>
        <Text size="sm" c="dimmed">
          Nothing dated on or before the lock date can be posted, changed or deleted.
        </Text>
        <SegmentedControl
          w={320}
          value={by}
          onChange={(value) => setBy(value as 'date' | 'entry')}
          data={[
            { value: 'date', label: 'Up to a date' },
            { value: 'entry', label: 'Up to an entry' },
          ]}
        />
        <Group align="flex-end">
          {by === 'date' ? (
            <DateField label="Lock date" w={200} value={date} onChange={setDate} maxDate={today()} />
          ) : (
            <NumberInput label="Journal entry number" description="The lock date is its ledger date" w={240} min={1} allowDecimal={false} value={entryId} onChange={setEntryId} />
          )}
          <Button leftSection={<IconLock size={16} />} loading={saving} onClick={() => void submit()}>
            Lock
          </Button>
        </Group>
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * /accounting/lock (spec §2.2, §7.1 "Locks"): the instance's locks with date, creator and time; a
 * lock by date or up to an entry; delete after the spec's confirmation. Owner and admin only (the
 * API refuses others with 403).
 */
export function LocksPage() {
  const queryClient = useQueryClient();
  const locks = useQuery(lockListQuery());
  const members = useQuery(lockMembersQuery());
  const [deleting, setDeleting] = useState<AccountingLock | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const nameOf = (lock: AccountingLock) => {
    if (!lock.createdBy) return '—';
    const member = members.data?.data.find((m) => m.uuid === lock.createdBy!.id);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : 'a former member';
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountingKey });

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deleteLock(deleting.uuid);
      notifications.show({ color: 'green', message: `The lock of ${formatDate(deleting.lockDate)} was deleted.` });
      setDeleting(null);
      await refresh();
    } catch (caught) {
      setDeleteError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  const inForce = locks.data?.locks[0];
  return (
    <Page title="Accounting Locks">
      <Stack gap="lg">
        {inForce ? (
          <Alert color="orange" variant="light" icon={<IconLock size={18} />}>
            Books locked up to {formatDate(inForce.lockDate)}.
          </Alert>
        ) : locks.data ? (
          <Text c="dimmed">The books are not locked.</Text>
        ) : null}
        <LockForm onCreated={refresh} />
        {locks.error ? <ErrorAlert what="Could not load the locks" error={locks.error} /> : null}
        {locks.isPending ? <TableSkeleton rows={3} /> : null}
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Lock date</Table.Th>
              <Table.Th>Up to entry</Table.Th>
              <Table.Th>Locked by</Table.Th>
              <Table.Th>Locked at</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {locks.data?.locks.length === 0 ? (
              <EmptyRow columns={5}>No locks</EmptyRow>
            ) : null}
            {locks.data?.locks.map((lock) => (
              <Table.Tr key={lock.uuid}>
                <Table.Td>{formatDate(lock.lockDate)}</Table.Td>
                <Table.Td>
                  {lock.endEntry ? <Link to={paths.entryDetail.getHref(lock.endEntry.id)}>{lock.endEntry.id}</Link> : '—'}
                </Table.Td>
                <Table.Td>{nameOf(lock)}</Table.Td>
                <Table.Td>{formatTimestamp(lock.createdAt)}</Table.Td>
                <Table.Td>
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    leftSection={<IconTrash size={14} />}
                    aria-label={`Delete the lock of ${formatDate(lock.lockDate)}`}
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(lock);
                    }}
                  >
                    Delete
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>

      <ConfirmDeleteModal
        opened={deleting !== null}
        title="Delete lock"
        pending={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
        error={
          deleteError ? (
            <Alert color="red" variant="light" role="alert">
              {deleteError}
            </Alert>
          ) : null
        }
      >
        <Text>{CONFIRM_DELETE}</Text>
        {deleting ? <Text size="sm" c="dimmed">The books open again after the previous lock date, if any.</Text> : null}
      </ConfirmDeleteModal>
    </Page>
  );
}
