import { useState } from 'react';
import { entrySourceLabel } from '../../lib/entry-source';
import { Alert, Anchor, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconLock, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DebitCredit, formatDate, type JournalEntryInput } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { NotFound } from '../../ui/not-found';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { isApiError } from '../../lib/errors';
import { accountingKey, deleteEntry, entryDetailQuery, updateEntry, type JournalEntry, type PostingDocument } from './api';
import { EntryForm } from './entry-form';
import { WriteError } from './write-error';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';

function EntryLines({ entry }: { entry: JournalEntry }) {
  const { t } = useTranslation();
  const creditTotal = entry.debitTotal;
  return (
    <Table withTableBorder striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Account')}</Table.Th>
          <Table.Th>{t('Text')}</Table.Th>
          <Table.Th>{t('VAT')}</Table.Th>
          <Table.Th className="num">{t('Debit')}</Table.Th>
          <Table.Th className="num">{t('Credit')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entry.entryAccounts.map((line) => (
          <Table.Tr key={line.id}>
            <Table.Td>
              <Anchor component={Link} to={paths.accountDetail.getHref(line.account.id)} size="sm">
                {line.account.number} {line.account.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              {line.description}
              {line.currency && line.originalAmount ? (
                <Text span size="xs" c="dimmed">
                  {' '}
                  {`(`}
                  {line.currency} <Amount value={line.originalAmount} /> {t('at {{rate}}', { rate: line.exchangeRate })}
                  {`)`}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              {line.vat ? (
                <Text size="sm" span title={t('base {{base}}, tax {{tax}}', { base: line.vat.base, tax: line.vat.amount })}>
                  {line.vat.code} {line.vat.role} {line.vat.percent} %
                  <Text span size="xs" c="dimmed">
                    {' '}
                    {line.vat.role === 'base' ? <>{t('tax')} <Amount value={line.vat.amount} /></> : <>{t('on')} <Amount value={line.vat.base} /></>}
                  </Text>
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td className="num">{line.direction === DebitCredit.debit ? <Amount value={line.amount} /> : null}</Table.Td>
            <Table.Td className="num">{line.direction === DebitCredit.credit ? <Amount value={line.amount} /> : null}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr className="totals">
          <Table.Td colSpan={3}>{t('Total')}</Table.Td>
          <Table.Td className="num">
            <Amount value={entry.debitTotal} />
          </Table.Td>
          <Table.Td className="num">
            <Amount value={creditTotal} />
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * An entry posted by a document is changed only through that document (issue 11 §2; the API
 * answers 409 document_posting): the page names the document and links to it instead of offering
 * edit and delete.
 */
function PostedBy({ document }: { document: PostingDocument }) {
  const { t } = useTranslation();
  const name = `${document.type} ${document.reference}`;
  return (
    <Alert variant="light" color="blue" icon={<IconLock size={18} />} title={t('Posted by {{name}}', { name })}>
      <Text size="sm">
        {t('This entry belongs to the {{type}}: it changes only through the {{type}}', { type: document.type })}
        {document.link ? (
          <>
            {` — `}
            <Anchor component={Link} to={document.link}>
              {t('open the {{type}}', { type: document.type })}
            </Anchor>
          </>
        ) : null}
        .
      </Text>
    </Alert>
  );
}

export function EntryDetailPage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const entry = useQuery({ ...entryDetailQuery(id), enabled: Number.isSafeInteger(id) && id > 0 });
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const canWrite = useCan('write');
  const { t } = useTranslation();

  if (!Number.isSafeInteger(id) || id <= 0 || isApiError(entry.error, 404)) return <NotFound />;

  const save = async (payload: JournalEntryInput) => {
    await updateEntry(id, payload);
    await queryClient.invalidateQueries({ queryKey: accountingKey });
    setEditing(false);
    notifications.show({ color: 'green', message: t('Journal Entry {{id}} was saved.', { id }) });
  };

  const remove = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteEntry(id);
      queryClient.removeQueries({ queryKey: entryDetailQuery(id).queryKey });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      notifications.show({ color: 'green', message: t('Journal Entry {{id}} was deleted.', { id }) });
      await navigate(paths.entries.getHref());
    } catch (error) {
      setDeleteError(error);
      setDeleting(false);
    }
  };

  const data = entry.data;
  return (
    <Page
      title={t('Journal Entry {{id}}', { id })}
      actions={
        data && !editing && canWrite && !data.document ? (
          <>
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => setEditing(true)}>
              {t('Edit')}
            </Button>
            <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)}>
              {t('Delete')}
            </Button>
          </>
        ) : null
      }
    >
      <Anchor component={Link} to={paths.entries.getHref()} size="sm">
        {`← `}
        {t('All entries')}
      </Anchor>
      {entry.isError ? <ErrorAlert what={t('Could not load the journal entry')} error={entry.error} onRetry={() => void entry.refetch()} /> : null}
      {!data && !entry.isError ? <TableSkeleton rows={4} /> : null}
      {data?.document ? <PostedBy document={data.document} /> : null}
      {data && editing && !data.document ? (
        <Paper withBorder p="md" radius="md">
          <EntryForm initial={data} submitLabel={t('Save changes')} onSubmit={save} onCancel={() => setEditing(false)} />
        </Paper>
      ) : null}
      {data && !editing ? (
        <Stack gap="sm">
          <Group gap="xl">
            <div>
              <Text size="xs" c="dimmed">
                {t('Date')}
              </Text>
              <Text>{formatDate(data.dateLedger)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {t('Description')}
              </Text>
              <Text>{data.description || '-'}</Text>
            </div>
            {data.source ? (
              <div>
                <Text size="xs" c="dimmed">
                  {t('Source')}
                </Text>
                <Text>{entrySourceLabel(data.source)}</Text>
              </div>
            ) : null}
          </Group>
          <EntryLines entry={data} />
        </Stack>
      ) : null}

      <ConfirmDeleteModal
        opened={confirming}
        title={t('Delete Journal Entry {{id}}?', { id })}
        pending={deleting}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
        error={deleteError ? <WriteError error={deleteError} what={t('Could not delete the journal entry')} /> : null}
      >
        <Text>{t('The entry and its {{lines}} lines are removed from the books. This cannot be undone.', { lines: data?.entryAccounts.length ?? '' })}</Text>
      </ConfirmDeleteModal>
    </Page>
  );
}
