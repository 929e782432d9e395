import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, NumberInput, Paper, PasswordInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type ApiBody } from '../../lib/api';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { ErrorAlert } from '../../ui/error-alert';

type ConnectBody = ApiBody<'/api/profile/mail-sync/connect'>;
const key = ['profile', 'mail-sync'] as const;
const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'short' });

/** The connect form: IMAP server, user, app password (sent once, never shown again), folders. */
function ConnectForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ email: '', host: '', port: 993, tls: true, username: '', password: '', folder: 'INBOX', processedFolder: '', refusedFolder: '' });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const set = (name: keyof typeof values) => (value: string | number | boolean) => setValues((v) => ({ ...v, [name]: value }));
  const connect = useMutation({
    mutationFn: () => {
      const body: ConnectBody = {
        email: values.email.trim(),
        host: values.host.trim(),
        port: values.port,
        tls: values.tls,
        username: values.username.trim(),
        password: values.password,
        folder: values.folder.trim() || 'INBOX',
        ...(values.processedFolder.trim() ? { processedFolder: values.processedFolder.trim() } : {}),
        ...(values.refusedFolder.trim() ? { refusedFolder: values.refusedFolder.trim() } : {}),
      };
      return api.post('/api/profile/mail-sync/connect', body);
    },
    onSuccess: () => onDone(),
    onError: (failure) => {
      setFields(serverFieldErrors(failure));
      setError(errorMessage(failure));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    connect.mutate();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label={t('Connect a mailbox')}>
      <Stack gap="xs">
        <Group grow align="flex-start">
          <TextInput label={t('E-mail')} required value={values.email} onChange={(e) => set('email')(e.currentTarget.value)} error={fields.email} />
          <TextInput label={t('IMAP server')} required placeholder={`imap.example.ch`} value={values.host} onChange={(e) => set('host')(e.currentTarget.value)} error={fields.host} />
          <NumberInput label={t('Port')} required min={1} max={65535} value={values.port} onChange={(v) => set('port')(Number(v))} error={fields.port} />
        </Group>
        <Checkbox label={`TLS (IMAPS)`} checked={values.tls} onChange={(e) => set('tls')(e.currentTarget.checked)} />
        <Group grow align="flex-start">
          <TextInput label={t('User')} required autoComplete="off" value={values.username} onChange={(e) => set('username')(e.currentTarget.value)} error={fields.username} />
          <PasswordInput
            label={t('App password')}
            description={t('Stored encrypted, never shown again')}
            required
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => set('password')(e.currentTarget.value)}
            error={fields.password}
          />
        </Group>
        <Group grow align="flex-start">
          <TextInput label={t('Folder')} value={values.folder} onChange={(e) => set('folder')(e.currentTarget.value)} error={fields.folder} />
          <TextInput label={t('Move processed mails to')} placeholder={t('optional')} value={values.processedFolder} onChange={(e) => set('processedFolder')(e.currentTarget.value)} error={fields.processedFolder} />
          <TextInput label={t('Move refused mails to')} placeholder={t('optional')} value={values.refusedFolder} onChange={(e) => set('refusedFolder')(e.currentTarget.value)} error={fields.refusedFolder} />
        </Group>
        {error && !Object.keys(fields).length ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button type="submit" loading={connect.isPending}>
            {t('Connect')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Profile → Mail Sync (spec §2.6, issue 16 §1): the user's connected mailboxes with their e-mail,
 * last sync time and last error ('No mail sync' when none); connect, sync now, disconnect.
 */
export function MailSyncSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const mail = useQuery({ queryKey: key, queryFn: () => api.get('/api/profile/mail-sync') });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const sync = useMutation({
    mutationFn: (id: number) => api.post('/api/profile/mail-sync/sync', { id }),
    onSuccess: (result) => {
      notifications.show({ color: result.error ? 'red' : 'green', message: result.error ?? t('{{taken}} new mail(s) in the inbox', { taken: result.taken }) });
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['payables'] });
    },
  });
  const disconnect = useMutation({ mutationFn: (id: number) => api.post('/api/profile/mail-sync/disconnect', { id }), onSuccess: () => refresh() });
  if (mail.isLoading) return <Text c="dimmed">{t('Loading…')}</Text>;
  if (mail.error) return <ErrorAlert what={t('Could not load mail sync')} error={mail.error} onRetry={() => void mail.refetch()} />;
  const rows = mail.data?.data ?? [];
  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text c="dimmed">{t('No mail sync')}</Text>
      ) : (
        <Table verticalSpacing={4} aria-label={t('Mail sync')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('E-mail')}</Table.Th>
              <Table.Th>{t('Server')}</Table.Th>
              <Table.Th>{t('Last sync')}</Table.Th>
              <Table.Th>{t('Last error')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.email}</Table.Td>
                <Table.Td>
                  {`${row.host}:${row.port} · ${row.folder}`}
                </Table.Td>
                <Table.Td>{row.lastSyncedAt ? dateTime(row.lastSyncedAt) : t('not yet')}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="red">
                    {row.lastError ?? ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="light" loading={sync.isPending && sync.variables === row.id} onClick={() => sync.mutate(row.id)}>
                      {t('Sync now')}
                    </Button>
                    <Button size="xs" variant="default" color="red" onClick={() => disconnect.mutate(row.id)}>
                      {t('Disconnect')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {adding ? (
        <ConnectForm
          onDone={() => {
            setAdding(false);
            notifications.show({ color: 'green', message: t('Mailbox connected; its new mails come into the inbox') });
            void refresh();
          }}
        />
      ) : (
        <Group>
          <Button variant="light" onClick={() => setAdding(true)}>
            {t('Connect a mailbox')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
