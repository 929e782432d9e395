import { Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { EmptyRow } from '../../ui/empty-row';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { jobsOverview } from './api';
import { useTranslation } from 'react-i18next';

type Overview = Awaited<ReturnType<typeof jobsOverview>>;
type JobRow = Overview['recent'][number];

const dateTime = (value: string | null) => (value ? new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'medium' }) : '-');
const STATE_COLOR: Record<string, string> = { created: 'blue', retry: 'orange', active: 'cyan', completed: 'green', cancelled: 'gray', failed: 'red' };
const STATES = ['created', 'retry', 'active', 'completed', 'failed', 'cancelled'] as const;

function JobsTable({ label, rows, empty }: { label: string; rows: JobRow[]; empty: string }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table striped verticalSpacing={4} fz="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Created')}</Table.Th>
            <Table.Th>{t('Queue')}</Table.Th>
            <Table.Th>{t('State')}</Table.Th>
            <Table.Th>{t('Attempts')}</Table.Th>
            <Table.Th>{t('Due')}</Table.Th>
            <Table.Th>{t('Finished')}</Table.Th>
            <Table.Th>{t('Data')}</Table.Th>
            <Table.Th>{t('Error')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? <EmptyRow columns={8}>{empty}</EmptyRow> : null}
          {rows.map((job) => (
            <Table.Tr key={job.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(job.createdOn)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Code>{job.queue}</Code>
              </Table.Td>
              <Table.Td>
                {/* Text, not a badge: a badge in a narrow column cuts the state to 'co…'. */}
                <Text size="sm" fw={600} c={STATE_COLOR[job.state]}>
                  {job.state}
                </Text>
              </Table.Td>
              <Table.Td>
                {job.retryCount + (job.startedOn ? 1 : 0)} / {job.retryLimit + 1}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(job.startAfter)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime(job.completedOn)}</Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {JSON.stringify(job.data)}
                </Text>
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="xs" c="red" lineClamp={3} title={job.error ?? undefined}>
                  {job.error ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /superadmin/jobs (issue 15 §5): the job runner's queues, latest jobs and failures. */
export function JobsOverview() {
  const { t } = useTranslation();
  const overview = useQuery({ queryKey: ['admin', 'jobs'], queryFn: jobsOverview, refetchInterval: 5000 });
  if (overview.isLoading) return <TableSkeleton />;
  if (overview.error) return <ErrorAlert what={t('Could not load the jobs')} error={overview.error} onRetry={() => void overview.refetch()} />;
  const data = overview.data!;
  return (
    <Stack gap="lg">
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          {t('Queues')}
        </Title>
        <Table verticalSpacing={4} fz="sm" aria-label={t('Queues')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Queue')}</Table.Th>
              <Table.Th>{t('Retries')}</Table.Th>
              {STATES.map((state) => (
                <Table.Th key={state} className="num">
                  {state}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.queues.length === 0 ? <EmptyRow columns={2 + STATES.length}>{t('No queue.')}</EmptyRow> : null}
            {data.queues.map((queue) => (
              <Table.Tr key={queue.name}>
                <Table.Td>
                  <Code>{queue.name}</Code>
                </Table.Td>
                <Table.Td>
                  {queue.retryBackoff
                    ? t('{{limit}} × from {{delay}} s, doubling; expires after {{expire}} s', { limit: queue.retryLimit, delay: queue.retryDelaySeconds, expire: queue.expireSeconds })
                    : t('{{limit}} × from {{delay}} s; expires after {{expire}} s', { limit: queue.retryLimit, delay: queue.retryDelaySeconds, expire: queue.expireSeconds })}
                </Table.Td>
                {STATES.map((state) => (
                  <Table.Td key={state} className="num">
                    {queue.counts[state] ?? 0}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4">
            {t('Failures')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('failed for good, or failed and waiting for a retry')}
          </Text>
        </Group>
        <JobsTable label={t('Failures')} rows={data.failures} empty={t('No failure.')} />
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h4" mb="xs">
          {t('Recent jobs')}
        </Title>
        <JobsTable label={t('Recent jobs')} rows={data.recent} empty={t('No job yet.')} />
      </Paper>
    </Stack>
  );
}
