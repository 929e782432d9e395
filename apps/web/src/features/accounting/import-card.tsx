import { useState } from 'react';
import { Alert, Badge, Button, Card, FileInput, Group, List, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import Papa from 'papaparse';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { importProblems } from './import-errors';
import { accountingKey, importCsv, type ChartImportResult, type JournalImportResult } from './api';

export type ImportKind = 'chart' | 'journal';

interface Parsed {
  file: File;
  text: string;
  header: string[];
  preview: string[][];
  rowCount: number;
  problems: string[];
}

type Status =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  | { step: 'booking' }
  | { step: 'done'; result: ChartImportResult | JournalImportResult }
  | { step: 'failed'; error: unknown };

const PREVIEW_ROWS = 20;

function parseCsv(t: TFunction, file: File, text: string): Parsed {
  const result = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const [header = [], ...rows] = result.data;
  return {
    file,
    text,
    header,
    preview: rows.slice(0, PREVIEW_ROWS),
    rowCount: rows.length,
    problems: result.errors.slice(0, 5).map((error) => t('Row {{row}}: {{message}}', { row: (error.row ?? 0) + 1, message: error.message })),
  };
}

function ImportFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const problems = importProblems(serverFieldErrors(error));
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('Nothing was imported')} role="alert">
      {problems ? (
        <Stack gap="xs">
          {problems.unmapped.length ? (
            <div>
              <Text size="sm">{t('These account numbers are not in the chart of accounts. Import or create them first:')}</Text>
              <List size="sm" mt={4}>
                {problems.unmapped.map((line) => (
                  <List.Item key={line}>{line}</List.Item>
                ))}
              </List>
            </div>
          ) : null}
          {problems.rows.length ? (
            <Table withTableBorder fz="sm" verticalSpacing={2} aria-label={t('Row errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Line')}</Table.Th>
                  <Table.Th>{t('Column')}</Table.Th>
                  <Table.Th>{t('Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.rows.map((row) => (
                  <Table.Tr key={`${row.line}.${row.column}`}>
                    <Table.Td>{row.line}</Table.Td>
                    <Table.Td>{row.column}</Table.Td>
                    <Table.Td>{row.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
        </Stack>
      ) : (
        errorMessage(error)
      )}
    </Alert>
  );
}

function ImportResult({ result }: { result: ChartImportResult | JournalImportResult }) {
  const { t } = useTranslation();
  const text =
    'entries' in result
      ? result.dateFrom && result.dateTo
        ? t('{{entries}} entries with {{lines}} lines were booked, from {{from}} to {{to}}.', {
            entries: result.entries,
            lines: result.lines,
            from: formatDate(result.dateFrom),
            to: formatDate(result.dateTo),
          })
        : t('{{entries}} entries with {{lines}} lines were booked.', { entries: result.entries, lines: result.lines })
      : t('{{created}} accounts created, {{updated}} updated.', { created: result.created, updated: result.updated });
  return (
    <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title={t('Import finished')} role="status">
      {text}
    </Alert>
  );
}

interface ImportCardProps {
  kind: ImportKind;
  title: string;
  columns: string;
  help: string;
}

/** One CSV import: pick, preview, upload with progress, then the booking result. */
export function ImportCard({ kind, title, columns, help }: ImportCardProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [parsed, setParsed] = useState<Parsed | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ step: 'idle' });
  const busy = status.step === 'uploading' || status.step === 'booking';

  const choose = async (file: File | null) => {
    setStatus({ step: 'idle' });
    setReadError(null);
    setParsed(null);
    if (!file) return;
    try {
      setParsed(parseCsv(t, file, await file.text()));
    } catch (error) {
      setReadError(t('Could not read {{file}}: {{error}}', { file: file.name, error: errorMessage(error) }));
    }
  };

  const upload = async () => {
    if (!parsed) return;
    setStatus({ step: 'uploading', fraction: 0 });
    try {
      const result = await importCsv(kind, parsed.text, {
        onUploadProgress: (fraction) => setStatus({ step: 'uploading', fraction }),
        onUploaded: () => setStatus({ step: 'booking' }),
      });
      setStatus({ step: 'done', result });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    } catch (error) {
      setStatus({ step: 'failed', error });
    }
  };

  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {title}
          </Title>
          <Badge variant="light" color="gray">
            CSV
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {help} {t('Columns:')} <code>{columns}</code>
        </Text>
        <FileInput
          label={t('File')}
          placeholder={t('Choose a CSV file')}
          accept=".csv,text/csv"
          clearable
          disabled={busy}
          leftSection={<IconFileTypeCsv size={16} aria-hidden />}
          value={parsed?.file ?? null}
          onChange={(file) => void choose(file)}
          error={readError}
        />
        {parsed ? (
          <>
            <Text size="sm">
              <b>{parsed.rowCount}</b> {t('rows in {{file}}', { file: parsed.file.name })}
              {parsed.rowCount > PREVIEW_ROWS ? t(', the first {{rows}} shown', { rows: PREVIEW_ROWS }) : ''}.
            </Text>
            {parsed.problems.length ? (
              <Alert color="yellow" variant="light" title={t('The file has formatting problems')}>
                {parsed.problems.join(' ')}
              </Alert>
            ) : null}
            <Table.ScrollContainer minWidth={400} maxHeight={320}>
              <Table stickyHeader striped withTableBorder fz="xs" verticalSpacing={2}>
                <Table.Thead>
                  <Table.Tr>
                    {parsed.header.map((cell, index) => (
                      <Table.Th key={index}>{cell}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {parsed.preview.map((row, rowIndex) => (
                    <Table.Tr key={rowIndex}>
                      {row.map((cell, index) => (
                        <Table.Td key={index}>{cell}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        ) : null}

        {status.step === 'uploading' ? (
          <Stack gap={4}>
            <Text size="sm">{t('Uploading… {{percent}}%', { percent: Math.round(status.fraction * 100) })}</Text>
            <Progress value={status.fraction * 100} aria-label={t('Upload progress')} />
          </Stack>
        ) : null}
        {status.step === 'booking' ? (
          <Stack gap={4}>
            <Text size="sm">{t('Booking…')}</Text>
            <Progress value={100} striped animated aria-label={t('Booking')} />
          </Stack>
        ) : null}
        {status.step === 'done' ? <ImportResult result={status.result} /> : null}
        {status.step === 'failed' ? <ImportFailure error={status.error} /> : null}

        <Group justify="flex-end">
          <Button onClick={() => void upload()} disabled={!parsed || parsed.rowCount === 0 || busy || status.step === 'done'} loading={busy}>
            {t('Import')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
