import { useState } from 'react';
import { Alert, Anchor, Button, Code, Group, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { EmptyRow } from '../../ui/empty-row';
import { ErrorAlert } from '../../ui/error-alert';
import { MessageStatusBadge } from '../../ui/message-status-badge';
import { Page } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { TableSkeleton } from '../../ui/table-skeleton';
import { messagingKey, OUTBOX_PAGE_SIZE, outboxQuery, retryMessage, type Message, type MessageStatus } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'short' });

const LIST_SEPARATOR = ', ';

const FILTERS: { value: string; label: string }[] = [
  { value: 'all', label: msg('All') },
  { value: 'queued', label: msg('Queued') },
  { value: 'sent', label: msg('Sent') },
  { value: 'failed', label: msg('Failed') },
  { value: 'not_sent', label: msg('Not sent') },
];

/** What the message is about, linked: the invoice's detail page, or the staff page for an invitation. */
function About({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.kind === 'invoice' && message.documentRef) {
    return (
      <Anchor component={Link} to={paths.invoiceDetail.getHref(message.documentRef)} size="sm">
        {t('Invoice')}
      </Anchor>
    );
  }
  if (message.kind === 'support') {
    return (
      <Anchor component={Link} to={paths.support.getHref()} size="sm">
        {t('Support request')}
      </Anchor>
    );
  }
  return (
    <Anchor component={Link} to={paths.staff.getHref()} size="sm">
      {t('Invitation')}
    </Anchor>
  );
}

/**
 * /outbox (issue 15 §1): every e-mail of the workplace with its status and the mail server's
 * answer. Without a mail server (BILAN_SMTP_URL) messages wait here as 'not sent — no mail server
 * configured'; failed ones can be queued again.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('all');
  const status = filter === 'all' ? undefined : (filter as MessageStatus);
  const outbox = useQuery(outboxQuery(page, status));
  const canWrite = useCan('write');
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: retryMessage,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: messagingKey });
      notifications.show({ color: 'green', message: t('Queued for delivery again') });
    },
  });
  const data = outbox.data;
  return (
    <Page title={t('Outbox')}>
      {data && !data.configured ? (
        <Alert color="yellow" variant="light" title={t('No mail server configured')}>
          <Trans
            t={t}
            i18nKey={msg('E-mails are kept here and not sent. The operator sets <code>BILAN_SMTP_URL</code> (and <code>BILAN_MAIL_FROM</code>) to send them.')}
            components={{ code: <Code /> }}
          />
        </Alert>
      ) : null}
      <Group>
        <SegmentedControl
          aria-label={t('Status')}
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          data={FILTERS.map((entry) => ({ ...entry, label: t(entry.label) }))}
        />
      </Group>
      {outbox.isError ? <ErrorAlert what={t('Could not load the outbox')} error={outbox.error} onRetry={() => void outbox.refetch()} /> : null}
      {outbox.isLoading ? <TableSkeleton /> : null}
      {data ? (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={900}>
            <Table striped verticalSpacing={6} aria-label={t('Outbox')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={130}>{t('Created')}</Table.Th>
                  <Table.Th>{t('To')}</Table.Th>
                  <Table.Th>{t('Subject')}</Table.Th>
                  <Table.Th w={90}>{t('About')}</Table.Th>
                  <Table.Th>{t('Status')}</Table.Th>
                  <Table.Th w={130}>{t('Sent')}</Table.Th>
                  <Table.Th w={110} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.length === 0 ? <EmptyRow columns={7}>{t('No e-mail yet.')}</EmptyRow> : null}
                {data.data.map((message) => (
                  <Table.Tr key={message.uuid}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(message.createdAt)}</Table.Td>
                    <Table.Td>{message.to.join(LIST_SEPARATOR)}</Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm">{message.subject}</Text>
                        {message.attachments.length ? (
                          <Text size="xs" c="dimmed">
                            {message.attachments.map((a) => a.filename).join(LIST_SEPARATOR)}
                          </Text>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <About message={message} />
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2} align="flex-start">
                        <MessageStatusBadge status={message.status} />
                        {message.status === 'failed' && message.serverResponse ? (
                          <Text size="xs" c="red">
                            {message.serverResponse}
                          </Text>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{message.sentAt ? dateTime(message.sentAt) : '-'}</Table.Td>
                    <Table.Td>
                      {canWrite && data.configured && (message.status === 'failed' || message.status === 'not_sent') ? (
                        <Button size="compact-sm" variant="light" loading={retry.isPending && retry.variables === message.uuid} onClick={() => retry.mutate(message.uuid)}>
                          {t('Send again')}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      ) : null}
      {retry.error ? <ErrorAlert what={t('Could not queue the message again')} error={retry.error} /> : null}
      {data ? <Pager page={page} pageSize={OUTBOX_PAGE_SIZE} total={data.total} onChange={setPage} /> : null}
    </Page>
  );
}
