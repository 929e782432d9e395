import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconFileText, IconPhoto } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { TableSkeleton } from '../../ui/table-skeleton';
import { changeMailStatus, mailListQuery, mailStatusColor, mailStatusLabel, PAGE_SIZE, payablesKey, type InboxFile, type Mail, type MailFilters } from './api';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const STATUS_FILTERS = [
  { value: '1', label: msg('Pending') },
  { value: '2', label: msg('Processed') },
  { value: '3', label: msg('Refused') },
  { value: 'all', label: msg('All') },
];

/** Received time of a mail, Swiss style (11.03.2025, 09:30). */
export const receivedAt = (iso: string) => new Date(iso).toLocaleString('de-CH', { dateStyle: 'medium', timeStyle: 'short' });

export function MailStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const label = mailStatusLabel[status];
  return (
    <Badge color={mailStatusColor[status]} variant="light">
      {label ? t(label) : status}
    </Badge>
  );
}

/** An attachment: a link to its bill draft (/inbox/{uuid}) or, once entered, to its bill. */
export function AttachmentLink({ file }: { file: InboxFile }) {
  const { t } = useTranslation();
  const Icon = file.mimeType.startsWith('image/') ? IconPhoto : IconFileText;
  return (
    <Group gap={6} wrap="nowrap">
      <Icon size={16} aria-hidden />
      <Anchor component={Link} to={`/inbox/${file.uuid}`} size="sm">
        {file.name}
      </Anchor>
      {file.payable ? (
        <Badge variant="light" size="sm">
          {t('Bill {{id}}', { id: file.payable.id })}
        </Badge>
      ) : null}
    </Group>
  );
}

/** /inbox/mail: mails that brought bills, by status (pending first), with their attachments. */
export function MailPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('1');
  const [page, setPage] = useState(1);
  const mails = useQuery(mailListQuery(status === 'all' ? {} : { status: Number(status) as NonNullable<MailFilters['status']> }, page));

  return (
    <Page
      title={t('Mail')}
      actions={
        <Button component={Link} to={paths.inbox.getHref()} variant="default" leftSection={<IconArrowLeft size={16} />}>
          {t('Inbox')}
        </Button>
      }
    >
      <SegmentedControl
        data={STATUS_FILTERS.map((filter) => ({ ...filter, label: t(filter.label) }))}
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
        aria-label={t('Status')}
        w={420}
      />
      {mails.isError ? <ErrorAlert what={t('Could not load the mails')} error={mails.error} onRetry={() => void mails.refetch()} /> : null}
      {!mails.data && !mails.isError ? <TableSkeleton /> : null}
      {mails.data?.data.length === 0 ? <Text c="dimmed">{t('No mails here. Drop a forwarded .eml into the inbox.')}</Text> : null}
      {mails.data?.data.length ? (
        <Table.ScrollContainer minWidth={800}>
          <Table withTableBorder striped aria-busy={mails.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={160}>{t('Received')}</Table.Th>
                <Table.Th w={260}>{t('From')}</Table.Th>
                <Table.Th>{t('Subject')}</Table.Th>
                <Table.Th>{t('Attachments')}</Table.Th>
                <Table.Th w={140}>{t('Status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mails.data.data.map((mail) => (
                <Table.Tr key={mail.id}>
                  <Table.Td>{receivedAt(mail.receivedAt)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" truncate maw={250}>
                      {mail.from}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.mailDetail.getHref(mail.id)}>
                      {mail.subject || t('(no subject)')}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {mail.files.length ? (
                      <Stack gap={2}>
                        {mail.files.map((file) => (
                          <AttachmentLink key={file.uuid} file={file} />
                        ))}
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('none')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <MailStatusBadge status={mail.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {mails.data ? <Pager page={page} pageSize={PAGE_SIZE} total={mails.data.total} capped={mails.data.totalCapped} onChange={setPage} /> : null}
    </Page>
  );
}

function MailView({ mail }: { mail: Mail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <div>
            <Text size="xs" c="dimmed">
              {t('From')}
            </Text>
            <Text size="sm">{mail.from}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('Received')}
            </Text>
            <Text size="sm">{receivedAt(mail.receivedAt)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('Status')}
            </Text>
            <MailStatusBadge status={mail.status} />
          </div>
        </SimpleGrid>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="xs">
          {t('Attachments')}
        </Title>
        {mail.files.length ? (
          <Stack gap={4}>
            {mail.files.map((file) => (
              <Group key={file.uuid} justify="space-between">
                <AttachmentLink file={file} />
                {!file.payable ? (
                  <Button component={Link} to={`/inbox/${file.uuid}`} size="compact-sm" variant="light">
                    {t('Open as bill draft')}
                  </Button>
                ) : null}
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('This mail brought no PDF or image.')}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="xs">
          {t('Message')}
        </Title>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} aria-label={t('Mail text')}>
          {mail.text || t('(no text)')}
        </Text>
      </Paper>
    </Stack>
  );
}

/** /inbox/mail/{id}: one mail (from, subject, date, text, attachments); mark it processed or refuse it. */
export function MailDetailPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mails = useQuery(mailListQuery({ id }));
  const change = useMutation({
    mutationFn: (status: 2 | 3) => changeMailStatus(id, status),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payablesKey }),
  });
  const mail = mails.data?.data[0];

  return (
    <Page
      title={mail ? mail.subject || t('(no subject)') : t('Mail {{id}}', { id })}
      actions={
        <>
          <Button component={Link} to={paths.mails.getHref()} variant="default" leftSection={<IconArrowLeft size={16} />}>
            {t('Mail')}
          </Button>
          {mail?.status === 1 ? (
            <>
              <Button variant="default" color="gray" loading={change.isPending && change.variables === 3} onClick={() => change.mutate(3)}>
                {t('Refuse')}
              </Button>
              <Button loading={change.isPending && change.variables === 2} onClick={() => change.mutate(2)}>
                {t('Mark processed')}
              </Button>
            </>
          ) : null}
        </>
      }
    >
      {mails.isError ? <ErrorAlert what={t('Could not load the mail')} error={mails.error} onRetry={() => void mails.refetch()} /> : null}
      {change.isError ? <ErrorAlert what={t('Could not change the mail')} error={change.error} /> : null}
      {!mails.data && !mails.isError ? <TableSkeleton /> : null}
      {mails.data && !mail ? <Text c="dimmed">{t('Mail {{id}} was not found.', { id })}</Text> : null}
      {mail ? <MailView mail={mail} /> : null}
    </Page>
  );
}
