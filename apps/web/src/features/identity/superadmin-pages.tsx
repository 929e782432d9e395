import { useState } from 'react';
import { Alert, Anchor, Button, Card, Code, Group, Pagination, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { identityApi } from './api';

const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'medium' });

/** Superadmin pages show nothing to others (the server refuses their calls as well). */
export function SuperadminOnly({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { profile } = useSession();
  if (!profile?.isSuperadmin) {
    return (
      <Page title={title}>
        <Alert color="red" variant="light" role="alert">
          {t('Only platform support (superadmin) may open this page.')}
        </Alert>
      </Page>
    );
  }
  return <Page title={title}>{children}</Page>;
}

export function SuperadminPage() {
  const { t } = useTranslation();
  return (
    <SuperadminOnly title={t('Superadmin')}>
      <Group gap="lg">
        <Anchor component={Link} to={paths.logs.getHref()}>
          {t('Logs')}
        </Anchor>
        <Anchor component={Link} to={paths.analytics.getHref()}>
          {t('Analytics')}
        </Anchor>
        <Anchor component={Link} to={paths.jobs.getHref()}>
          {t('Jobs')}
        </Anchor>
        <Anchor component={Link} to={paths.supportQueue.getHref()}>
          {t('Support queue')}
        </Anchor>
      </Group>
      <BlockedAccounts />
    </SuperadminOnly>
  );
}

function BlockedAccounts() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const analytics = useQuery({ queryKey: ['admin', 'analytics'], queryFn: identityApi.analytics });
  const unblock = useMutation({
    mutationFn: identityApi.unblock,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
  if (analytics.error) return <ErrorAlert what={t('Could not load blocked accounts')} error={analytics.error} />;
  const blocked = analytics.data?.blockedUsers ?? [];
  return (
    <Card withBorder padding="lg" radius="md">
      <Text fw={600} mb="xs">
        {t('Blocked accounts')}
      </Text>
      {analytics.isLoading ? <TableSkeleton rows={2} /> : null}
      {analytics.data && !blocked.length ? <Text c="dimmed">{t('No blocked account.')}</Text> : null}
      <Stack gap="xs">
        {blocked.map((user) => (
          <Group key={user.uuid} justify="space-between">
            <Text>
              {user.email} <Text span c="dimmed" size="sm">{t('since {{date}}', { date: dateTime(user.blockedAt) })}</Text>
            </Text>
            <Button size="compact-sm" variant="light" onClick={() => unblock.mutate(user.uuid)} loading={unblock.isPending}>
              {t('Unblock')}
            </Button>
          </Group>
        ))}
      </Stack>
      {unblock.error ? <ErrorAlert what={t('Could not unblock')} error={unblock.error} /> : null}
    </Card>
  );
}

function AuditTable() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const audit = useQuery({ queryKey: ['admin', 'audit', page], queryFn: () => identityApi.auditLog(page) });
  if (audit.isLoading) return <TableSkeleton />;
  if (audit.error) return <ErrorAlert what={t('Could not load the audit trail')} error={audit.error} onRetry={() => void audit.refetch()} />;
  const total = audit.data?.total ?? 0;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={1100}>
        <Table striped verticalSpacing={4} fz="sm" aria-label={t('Sign-in audit')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Time')}</Table.Th>
              <Table.Th>{t('Event')}</Table.Th>
              <Table.Th>{t('User')}</Table.Th>
              <Table.Th>{t('Instance')}</Table.Th>
              <Table.Th>IP</Table.Th>
              <Table.Th>{t('User agent')}</Table.Th>
              <Table.Th>{t('Detail')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {audit.data?.data.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(row.occurredAt)}</Table.Td>
                <Table.Td>
                  <Code>{row.event}</Code>
                </Table.Td>
                <Table.Td>{row.user?.email ?? '-'}</Table.Td>
                <Table.Td>{row.instance?.name ?? '-'}</Table.Td>
                <Table.Td>{row.ip ?? '-'}</Table.Td>
                <Table.Td maw={260}>
                  {row.userAgent ? (
                    <Text size="xs" lineClamp={2} title={row.userAgent}>
                      {row.userAgent}
                    </Text>
                  ) : (
                    '-'
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {Object.keys(row.detail).length ? JSON.stringify(row.detail) : ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > 50 ? <Pagination total={Math.ceil(total / 50)} value={page} onChange={setPage} /> : null}
    </Stack>
  );
}

function ActionLogTable() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const log = useQuery({ queryKey: ['admin', 'action-log', page], queryFn: () => identityApi.actionLog(page) });
  if (log.isLoading) return <TableSkeleton />;
  if (log.error) return <ErrorAlert what={t('Could not load the action log')} error={log.error} onRetry={() => void log.refetch()} />;
  const total = log.data?.total ?? 0;
  return (
    <Stack gap="sm">
      <Table striped verticalSpacing={4} fz="sm" aria-label={t('Action log')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Time')}</Table.Th>
            <Table.Th>{t('User')}</Table.Th>
            <Table.Th>{t('Instance')}</Table.Th>
            <Table.Th>{t('Page')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {log.data?.data.map((row, index) => (
            <Table.Tr key={`${row.createdAt}-${index}`}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(row.createdAt)}</Table.Td>
              <Table.Td>{row.user?.email ?? '-'}</Table.Td>
              <Table.Td>{row.instance.name}</Table.Td>
              <Table.Td>
                <Code>{row.url}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > 50 ? <Pagination total={Math.ceil(total / 50)} value={page} onChange={setPage} /> : null}
    </Stack>
  );
}

/** Logs: the sign-in audit trail and the action log (issue #3 §4, §5). */
export function LogsPage() {
  const { t } = useTranslation();
  return (
    <SuperadminOnly title={t('Logs')}>
      <Tabs defaultValue="audit" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="audit">{t('Sign-in audit')}</Tabs.Tab>
          <Tabs.Tab value="actions">{t('Action log')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="audit" pt="md">
          <AuditTable />
        </Tabs.Panel>
        <Tabs.Panel value="actions" pt="md">
          <ActionLogTable />
        </Tabs.Panel>
      </Tabs>
    </SuperadminOnly>
  );
}

function Tile({ label, value }: { label: string; value: number }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={600}>
        {value}
      </Text>
    </Card>
  );
}

/** Analytics: platform counts. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const analytics = useQuery({ queryKey: ['admin', 'analytics'], queryFn: identityApi.analytics });
  return (
    <SuperadminOnly title={t('Analytics')}>
      {analytics.isLoading ? <TableSkeleton rows={2} /> : null}
      {analytics.error ? <ErrorAlert what={t('Could not load analytics')} error={analytics.error} /> : null}
      {analytics.data ? (
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Tile label={t('Users')} value={analytics.data.users} />
          <Tile label={t('Instances')} value={analytics.data.instances} />
          <Tile label={t('Live sessions')} value={analytics.data.liveSessions} />
          <Tile label={t('Sign-ins (30 days)')} value={analytics.data.signIns30d} />
          <Tile label={t('Failed sign-ins (30 days)')} value={analytics.data.failedSignIns30d} />
          <Tile label={t('Users with 2FA')} value={analytics.data.twoFactorUsers} />
          <Tile label={t('Users with a passkey')} value={analytics.data.passkeyUsers} />
          <Tile label={t('Blocked accounts')} value={analytics.data.blockedUsers.length} />
        </SimpleGrid>
      ) : null}
    </SuperadminOnly>
  );
}
