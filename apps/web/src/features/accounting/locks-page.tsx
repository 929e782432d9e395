import { useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const [by, setBy] = useState<'date' | 'entry'>('date');
  const [date, setDate] = useState<string | null>(null);
  const [entryId, setEntryId] = useState<number | string>('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setError(null);
    if (by === 'date' && !date) return setError(t('Choose the date up to which the books are locked.'));
    if (by === 'entry' && typeof entryId !== 'number') return setError(t('Enter the number of the last journal entry to lock.'));
    setSaving(true);
    try {
      const lock = await insertLock(by === 'date' ? { date: date! } : { endEntry: { id: entryId as number } });
      notifications.show({ color: 'green', message: t('The books are locked up to {{date}}.', { date: formatDate(lock.lockDate) }) });
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
        <Text fw={600}>{t('Lock the books')}</Text>
        <Text size="sm" c="dimmed">
          {t('Nothing dated on or before the lock date can be posted, changed or deleted.')}
        </Text>
        <SegmentedControl
          w={320}
          value={by}
          onChange={(value) => setBy(value as 'date' | 'entry')}
          data={[
            { value: 'date', label: t('Up to a date') },
            { value: 'entry', label: t('Up to an entry') },
          ]}
        />
        <Group align="flex-end">
          {by === 'date' ? (
            <DateField label={t('Lock date')} w={200} value={date} onChange={setDate} maxDate={today()} />
          ) : (
            <NumberInput label={t('Journal entry number')} description={t('The lock date is its ledger date')} w={240} min={1} allowDecimal={false} value={entryId} onChange={setEntryId} />
          )}
          <Button leftSection={<IconLock size={16} />} loading={saving} onClick={() => void submit()}>
            {t('Lock')}
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
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const locks = useQuery(lockListQuery());
  const members = useQuery(lockMembersQuery());
  const [deleting, setDeleting] = useState<AccountingLock | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const nameOf = (lock: AccountingLock) => {
    if (!lock.createdBy) return '—';
    const member = members.data?.data.find((m) => m.uuid === lock.createdBy!.id);
    return member ? `${member.firstName} ${member.lastName}`.trim() || member.email : t('a former member');
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountingKey });

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setDeleteError(null);
    try {
      await deleteLock(deleting.uuid);
      notifications.show({ color: 'green', message: t('The lock of {{date}} was deleted.', { date: formatDate(deleting.lockDate) }) });
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
    <Page title={t('Accounting Locks')}>
      <Stack gap="lg">
        {inForce ? (
          <Alert color="orange" variant="light" icon={<IconLock size={18} />}>
            {t('Books locked up to {{date}}.', { date: formatDate(inForce.lockDate) })}
          </Alert>
        ) : locks.data ? (
          <Text c="dimmed">{t('The books are not locked.')}</Text>
        ) : null}
        <LockForm onCreated={refresh} />
        {locks.error ? <ErrorAlert what={t('Could not load the locks')} error={locks.error} /> : null}
        {locks.isPending ? <TableSkeleton rows={3} /> : null}
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Lock date')}</Table.Th>
              <Table.Th>{t('Up to entry')}</Table.Th>
              <Table.Th>{t('Locked by')}</Table.Th>
              <Table.Th>{t('Locked at')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {locks.data?.locks.length === 0 ? (
              <EmptyRow columns={5}>{t('No locks')}</EmptyRow>
            ) : null}
            {locks.data?.locks.map((lock) => (
              <Table.Tr key={lock.uuid}>
                <Table.Td>{formatDate(lock.lockDate)}</Table.Td>
                <Table.Td>
                  {lock.endEntry ? <Link to={paths.entryDetail.getHref(lock.endEntry.id)}>{lock.endEntry.id}</Link> : `—`}
                </Table.Td>
                <Table.Td>{nameOf(lock)}</Table.Td>
                <Table.Td>{formatTimestamp(lock.createdAt)}</Table.Td>
                <Table.Td>
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-sm"
                    leftSection={<IconTrash size={14} />}
                    aria-label={t('Delete the lock of {{date}}', { date: formatDate(lock.lockDate) })}
                    onClick={() => {
                      setDeleteError(null);
                      setDeleting(lock);
                    }}
                  >
                    {t('Delete')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>

      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('Delete lock')}
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
        <Text>{t(CONFIRM_DELETE)}</Text>
        {deleting ? <Text size="sm" c="dimmed">{t('The books open again after the previous lock date, if any.')}</Text> : null}
      </ConfirmDeleteModal>
    </Page>
  );
}
