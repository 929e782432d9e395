import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, FileInput, Group, Paper, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  answerRequest,
  downloadAttachment,
  fileBody,
  followUp,
  MAX_FILE_BYTES,
  ownRequestsQuery,
  queueQuery,
  sendRequest,
  setRequestStatus,
  supportKey,
  type SupportRequest,
  type SupportStatus,
} from './api';

const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'short' });
const STATUS_COLOR: Record<SupportStatus, string> = { open: 'blue', answered: 'green', closed: 'gray' };
const STATUS_LABEL: Record<SupportStatus, string> = { open: msg('open'), answered: msg('answered'), closed: msg('closed') };

export function StatusBadge({ status }: { status: SupportStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {t(STATUS_LABEL[status])}
    </Badge>
  );
}

/**
 * The request form: subject, message, an optional screenshot or file (≤ 5 MB); with `withEmail`
 * (the sign-in pages, no session) also the e-mail and the workplace name.
 */
export function SupportForm({ withEmail = false, instance = '', onSent }: { withEmail?: boolean; instance?: string; onSent: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [workplace, setWorkplace] = useState(instance);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: async () =>
      sendRequest({
        subject,
        message,
        ...(withEmail ? { email: email.trim(), ...(workplace.trim() ? { instance: workplace.trim() } : {}) } : {}),
        ...(file ? { file: await fileBody(file) } : {}),
      }),
    onSuccess: () => {
      setSubject('');
      setMessage('');
      setFile(null);
      setFields({});
      setError(null);
      onSent();
    },
    onError: (failure) => {
      setFields(serverFieldErrors(failure));
      setError(errorMessage(failure));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (withEmail && !email.trim()) missing.email = t('This field is required');
    if (!subject.trim()) missing.subject = t('This field is required');
    if (!message.trim()) missing.message = t('This field is required');
    if (file && file.size > MAX_FILE_BYTES) missing.file = t('larger than 5 MB');
    setFields(missing);
    if (Object.keys(missing).length === 0) send.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('Support request')}>
      <Stack gap="sm">
        {withEmail ? (
          <>
            <TextInput label={t('E-mail')} name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fields.email} />
            <TextInput label={t('Workplace')} name="instance" description={t('The name you sign in with (optional)')} value={workplace} onChange={(e) => setWorkplace(e.currentTarget.value)} error={fields.instance} />
          </>
        ) : null}
        <TextInput label={t('Subject')} name="subject" required maxLength={200} value={subject} onChange={(e) => setSubject(e.currentTarget.value)} error={fields.subject} />
        <Textarea label={t('Message')} name="message" required autosize minRows={5} maxLength={10000} value={message} onChange={(e) => setMessage(e.currentTarget.value)} error={fields.message} />
        <FileInput
          label={t('Screenshot or file')}
          description={t('Optional, at most 5 MB')}
          clearable
          value={file}
          onChange={setFile}
          error={fields.file ?? fields['file.content'] ?? fields['file.contentType']}
        />
        {error && !Object.keys(fields).length ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={send.isPending}>
            {t('Send request')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A request with its replies, oldest first; `children` holds the actions of the page. */
function RequestCard({ request, showRequester = false, children }: { request: SupportRequest; showRequester?: boolean; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="article" aria-label={request.subject}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5">
            {request.subject}
          </Title>
          <StatusBadge status={request.status} />
        </Group>
        <Text size="xs" c="dimmed">
          {dateTime(request.createdAt)}
          {showRequester ? ` · ${request.email}${request.instance ? ` · ${request.instance.name}` : ''}${request.origin === 'signin' ? ` · ${t('written at sign-in')}` : ''}` : ''}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {request.message}
        </Text>
        {request.attachment ? (
          showRequester ? (
            <Group>
              <Anchor component="button" type="button" size="sm" onClick={() => void downloadAttachment(request)}>
                {`${request.attachment.filename} (${Math.ceil(request.attachment.size / 1024)} KB)`}
              </Anchor>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('Attached: {{file}}', { file: request.attachment.filename })}
            </Text>
          )
        ) : null}
        {request.replies.map((reply) => (
          <Paper key={reply.position} p="sm" bg={reply.authorRole === 'support' ? 'var(--mantine-color-green-light)' : 'var(--mantine-color-gray-light)'}>
            <Text size="xs" fw={600}>
              {reply.authorRole === 'support' ? t('Bilan support') : t('You')}
              {` · ${dateTime(reply.createdAt)}`}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {reply.message}
            </Text>
          </Paper>
        ))}
        {children}
      </Stack>
    </Paper>
  );
}

/** A one-field reply form (follow-up of the user, answer of the support team). */
function ReplyForm({ label, submitLabel, onSubmit }: { label: string; submitLabel: string; onSubmit: (message: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: () => onSubmit(message),
    onSuccess: () => {
      setMessage('');
      setError(null);
    },
    onError: (failure) => setError(serverFieldErrors(failure).message ?? errorMessage(failure)),
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!message.trim()) return setError(t('This field is required'));
        mutation.mutate();
      }}
      noValidate
    >
      <Stack gap={6}>
        <Textarea label={label} autosize minRows={2} maxLength={10000} value={message} onChange={(e) => setMessage(e.currentTarget.value)} error={error} />
        <Group>
          <Button type="submit" size="xs" loading={mutation.isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /support (spec §2.2, issue 16 §2): write a request; the user's requests with the team's answers. */
export function SupportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const own = useQuery(ownRequestsQuery());
  const refresh = () => queryClient.invalidateQueries({ queryKey: supportKey });
  return (
    <Page title={t('Support')}>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          {t('Write to our support team')}
        </Title>
        <SupportForm
          onSent={() => {
            notifications.show({ color: 'green', message: t('Your request was sent to our support team') });
            void refresh();
          }}
        />
      </Paper>
      <Title order={2} size="h4">
        {t('Your requests')}
      </Title>
      {own.isLoading ? <TableSkeleton /> : null}
      {own.error ? <ErrorAlert what={t('Could not load your requests')} error={own.error} onRetry={() => void own.refetch()} /> : null}
      {own.data?.data.length === 0 ? <Text c="dimmed">{t('No support request yet.')}</Text> : null}
      {own.data?.data.map((request) => (
        <RequestCard key={request.uuid} request={request}>
          {request.status !== 'closed' ? (
            <ReplyForm
              label={t('Add a message')}
              submitLabel={t('Send')}
              onSubmit={async (message) => {
                await followUp(request.uuid, message);
                await refresh();
              }}
            />
          ) : null}
        </RequestCard>
      ))}
    </Page>
  );
}

/** /login/support: the same form without a session (a user blocked by two-factor attempts, spec §8). */
export function LoginSupportPage({ instance }: { instance: string }) {
  const { t } = useTranslation();
  const [sent, setSent] = useState(false);
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('Contact support')}
      </Title>
      {sent ? (
        <Alert color="green" variant="light" role="status">
          {t('Thank you. Our support team will answer you by e-mail.')}
        </Alert>
      ) : (
        <>
          <Text size="sm">{t('Cannot sign in? Tell us what happened; we answer by e-mail.')}</Text>
          <SupportForm withEmail instance={instance} onSent={() => setSent(true)} />
        </>
      )}
      <Anchor component={Link} to={paths.login.getHref()} size="sm" ta="center">
        {t('Go Back')}
      </Anchor>
    </Stack>
  );
}

const FILTERS = [
  { value: 'open', label: msg('Open') },
  { value: 'answered', label: msg('Answered') },
  { value: 'closed', label: msg('Closed') },
  { value: 'all', label: msg('All') },
];

/** /superadmin/support (issue 16 §2): the queue of every request; answer, close or reopen. */
export function SupportQueue() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('open');
  const queryClient = useQueryClient();
  const queue = useQuery(queueQuery(filter === 'all' ? undefined : (filter as SupportStatus)));
  const refresh = () => queryClient.invalidateQueries({ queryKey: supportKey });
  const status = useMutation({
    mutationFn: ({ uuid, to }: { uuid: string; to: SupportStatus }) => setRequestStatus(uuid, to),
    onSuccess: () => refresh(),
    onError: (failure) => notifications.show({ color: 'red', message: errorMessage(failure) }),
  });
  return (
    <Stack gap="md">
      <SegmentedControl data={FILTERS.map((option) => ({ ...option, label: t(option.label) }))} value={filter} onChange={setFilter} aria-label={t('Status')} w="fit-content" />
      {queue.isLoading ? <TableSkeleton /> : null}
      {queue.error ? <ErrorAlert what={t('Could not load the support queue')} error={queue.error} onRetry={() => void queue.refetch()} /> : null}
      {queue.data?.data.length === 0 ? <Text c="dimmed">{t('No request.')}</Text> : null}
      {queue.data?.data.map((request) => (
        <RequestCard key={request.uuid} request={request} showRequester>
          {request.status !== 'closed' ? (
            <ReplyForm
              label={t('Answer')}
              submitLabel={t('Send answer')}
              onSubmit={async (message) => {
                await answerRequest(request.uuid, message);
                notifications.show({ color: 'green', message: t('Answer e-mailed to {{email}}', { email: request.email }) });
                await refresh();
              }}
            />
          ) : null}
          <Group>
            {request.status === 'closed' ? (
              <Button size="xs" variant="default" onClick={() => status.mutate({ uuid: request.uuid, to: 'open' })}>
                {t('Reopen')}
              </Button>
            ) : (
              <Button size="xs" variant="default" onClick={() => status.mutate({ uuid: request.uuid, to: 'closed' })}>
                {t('Close')}
              </Button>
            )}
          </Group>
        </RequestCard>
      ))}
    </Stack>
  );
}
