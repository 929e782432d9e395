import { useState } from 'react';
import {
  Accordion,
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Progress,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconFileSpreadsheet, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { Page } from '../../ui/page';
import {
  fileBody,
  postSalaryImport,
  previewSalaryImport,
  rowProblems,
  salaryImportsQuery,
  salaryKey,
  saveWageTypes,
  wageTypesQuery,
  type SalaryImportBody,
  type SalaryImportResult,
  type SalaryPreview,
  type WageType,
} from './api';

type Status =
  | { step: 'idle' }
  | { step: 'previewing' }
  | { step: 'previewed'; body: SalaryImportBody; preview: SalaryPreview }
  | { step: 'posting'; body: SalaryImportBody; preview: SalaryPreview }
  | { step: 'done'; result: SalaryImportResult }
  | { step: 'failed'; error: unknown };

const fieldsOf = (error: unknown) =>
  error instanceof ApiError && typeof error.body === 'object' && error.body !== null ? (error.body as { fields?: Record<string, string> }).fields : undefined;

/**
 * /salary/import (spec §2.2, issue 16 §3): a payroll journal (CSV or XLSX) → preview of the journal
 * entries (per month or per employee) and of the net salaries owed → posted all or nothing. A
 * refused file lists every bad row; the wage-type mapping is edited below and saved per instance.
 */
export function SalaryImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [groupBy, setGroupBy] = useState<'period' | 'employee'>('period');
  const [netClaims, setNetClaims] = useState(true);
  const [status, setStatus] = useState<Status>({ step: 'idle' });
  const busy = status.step === 'previewing' || status.step === 'posting';

  const preview = async () => {
    if (!file) return;
    setStatus({ step: 'previewing' });
    try {
      const body: SalaryImportBody = { file: await fileBody(file), groupBy, netClaims };
      setStatus({ step: 'previewed', body, preview: await previewSalaryImport(body) });
    } catch (error) {
      setStatus({ step: 'failed', error });
    }
  };
  const post = async () => {
    if (status.step !== 'previewed') return;
    setStatus({ step: 'posting', body: status.body, preview: status.preview });
    try {
      const result = await postSalaryImport(status.body);
      setStatus({ step: 'done', result });
      await queryClient.invalidateQueries({ queryKey: salaryKey });
    } catch (error) {
      setStatus({ step: 'failed', error });
    }
  };
  const reset = () => setStatus({ step: 'idle' });
  const problems = status.step === 'failed' ? rowProblems(fieldsOf(status.error)) : [];
  const shown = status.step === 'previewed' || status.step === 'posting' ? status.preview : null;

  return (
    <Page title={t('Salary Import')}>
      <Card withBorder radius="md" padding="md" maw={1100}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('A payroll journal from your payroll software (CSV with')} <code>{`,`}</code> {t('or')} <code>{`;`}</code>
            {t(
              ', or XLSX) with the columns period (2026-03 or 03.2026), employee, wage type (Lohnart) and amount; optional description, date, IBAN, or debit/credit accounts instead of a wage type. Wage types post to the accounts of the mapping below. Nothing is posted before you confirm the preview.',
            )}
          </Text>
          <Group align="flex-end" gap="lg" wrap="wrap">
            <FileInput
              label={t('Payroll journal')}
              placeholder={t('Choose a CSV or XLSX file')}
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              clearable
              disabled={busy}
              leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
              value={file}
              onChange={(chosen) => {
                setFile(chosen);
                reset();
              }}
              w={340}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('One journal entry per')}
              </Text>
              <SegmentedControl
                aria-label={t('One journal entry per')}
                value={groupBy}
                onChange={(value) => {
                  setGroupBy(value as 'period' | 'employee');
                  reset();
                }}
                data={[
                  { value: 'period', label: t('Month') },
                  { value: 'employee', label: t('Month and employee') },
                ]}
                disabled={busy}
              />
            </Stack>
            <Switch
              label={t('Net salaries as claims to pay in a payment run')}
              checked={netClaims}
              onChange={(event) => {
                setNetClaims(event.currentTarget.checked);
                reset();
              }}
              disabled={busy}
            />
          </Group>
          {busy ? <Progress value={100} animated aria-label={status.step === 'posting' ? t('Posting') : t('Reading the file')} /> : null}
          {status.step === 'failed' ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('Nothing was posted')} role="alert">
              {problems.length ? t('{{count}} problems in the file: correct them and preview again.', { count: problems.length }) : errorMessage(status.error)}
            </Alert>
          ) : null}
          {problems.length ? (
            <Table withTableBorder striped fz="sm" aria-label={t('Row errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('Line')}</Table.Th>
                  <Table.Th w={140}>{t('Column')}</Table.Th>
                  <Table.Th>{t('Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.map((problem, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>{problem.line ?? `—`}</Table.Td>
                    <Table.Td>{problem.column}</Table.Td>
                    <Table.Td>{problem.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          {status.step === 'done' ? (
            <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title={t('Salaries posted')} role="status">
              {status.result.claims.length
                ? t('{{entries}} journal entries ({{from}} to {{to}}) and {{claims}} net salaries owed to employees.', {
                    entries: status.result.entries.length,
                    from: status.result.periodFrom,
                    to: status.result.periodTo,
                    claims: status.result.claims.length,
                  })
                : t('{{entries}} journal entries ({{from}} to {{to}}).', {
                    entries: status.result.entries.length,
                    from: status.result.periodFrom,
                    to: status.result.periodTo,
                  })}{' '}
              <Anchor component={Link} to="/accounting/journal">
                {t('Open the journal')}
              </Anchor>
              {status.result.claims.length ? (
                <>
                  {` · `}
                  <Anchor component={Link} to="/bill">
                    {t('Pay the net salaries')}
                  </Anchor>
                </>
              ) : null}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void preview()} disabled={!file || busy} loading={status.step === 'previewing'}>
              {t('Preview')}
            </Button>
            <Button onClick={() => void post()} disabled={status.step !== 'previewed'} loading={status.step === 'posting'}>
              {t('Post')}
            </Button>
          </Group>
        </Stack>
      </Card>
      {shown ? <PreviewCard preview={shown} /> : null}
      <MappingCard />
      <ImportsCard />
    </Page>
  );
}

function PreviewCard({ preview }: { preview: SalaryPreview }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" maw={1100} aria-label={t('Preview')}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('Preview: {{entries}} entries, {{rows}} rows, {{employees}} employees, {{from}} to {{to}}', {
            entries: preview.entries.length,
            rows: preview.rows,
            employees: preview.employees,
            from: preview.periodFrom,
            to: preview.periodTo,
          })}
        </Title>
        <Text size="sm">{t('Salary cost (debited to expense accounts): {{cost}}', { cost: preview.totalCost })}</Text>
        <Accordion variant="separated" multiple>
          {preview.entries.map((entry) => (
            <Accordion.Item key={entry.key} value={entry.key}>
              <Accordion.Control>
                {t('{{date}} · {{description}} · {{postings}} postings · {{total}}', {
                  date: entry.date,
                  description: entry.description,
                  postings: entry.lines.length,
                  total: entry.total,
                })}
              </Accordion.Control>
              <Accordion.Panel>
                <Table fz="sm" striped aria-label={t('Postings of {{description}}', { description: entry.description })}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('Account')}</Table.Th>
                      <Table.Th>{t('Text')}</Table.Th>
                      <Table.Th ta="right">{t('Debit')}</Table.Th>
                      <Table.Th ta="right">{t('Credit')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {entry.lines.map((line, index) => (
                      <Table.Tr key={index}>
                        <Table.Td>
                          {line.account.number} {line.account.name}{' '}
                          {line.account.isNew ? (
                            <Badge size="xs" variant="light">
                              {t('new')}
                            </Badge>
                          ) : null}
                        </Table.Td>
                        <Table.Td>{line.description}</Table.Td>
                        <Table.Td ta="right">{line.debit}</Table.Td>
                        <Table.Td ta="right">{line.credit}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        {preview.claims.length ? (
          <>
            <Title order={3} size="h5">
              {t('Net salaries owed ({{claims}}), booked from {{account}} to the staff account and payable in a payment run', {
                claims: preview.claims.length,
                account: preview.clearingAccount,
              })}
            </Title>
            <Table fz="sm" striped withTableBorder aria-label={t('Net salaries owed')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Period')}</Table.Th>
                  <Table.Th>{t('Employee')}</Table.Th>
                  <Table.Th>IBAN</Table.Th>
                  <Table.Th ta="right">{t('Net salary')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {preview.claims.map((claim) => (
                  <Table.Tr key={`${claim.period} ${claim.employee}`}>
                    <Table.Td>{claim.period}</Table.Td>
                    <Table.Td>{claim.employee}</Table.Td>
                    <Table.Td>{claim.iban}</Table.Td>
                    <Table.Td ta="right">{claim.amount}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The wage-type → ledger account mapping, edited in place and saved as a whole. */
function MappingCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saved = useQuery(wageTypesQuery());
  const [draft, setDraft] = useState<WageType[] | null>(null);
  const [state, setState] = useState<{ saving: boolean; error: unknown; ok: boolean }>({ saving: false, error: null, ok: false });
  const rows = draft ?? saved.data?.data ?? [];
  const fields = fieldsOf(state.error) ?? {};
  const change = (index: number, patch: Partial<WageType>) => {
    setDraft(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
    setState({ saving: false, error: null, ok: false });
  };
  const save = async () => {
    setState({ saving: true, error: null, ok: false });
    try {
      const answer = await saveWageTypes(rows.map((row) => ({ ...row, debitAccount: row.debitAccount || null, creditAccount: row.creditAccount || null })));
      queryClient.setQueryData(wageTypesQuery().queryKey, answer);
      setDraft(null);
      setState({ saving: false, error: null, ok: true });
    } catch (error) {
      setState({ saving: false, error, ok: false });
    }
  };
  return (
    <Card withBorder radius="md" padding="md" maw={1100}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('Wage types → ledger accounts')}
          </Title>
          {saved.data?.isDefault && !draft ? <Badge variant="light">{t('Swiss SME chart defaults')}</Badge> : null}
        </Group>
        <Text size="sm" c="dimmed">
          {t(
            'Each row of the payroll journal with this wage type is debited and credited to these accounts. Leave a side empty when the file gives it. Net pay rows become the claims owed to employees when you choose so.',
          )}
        </Text>
        <Table fz="sm" aria-label={t('Wage types')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={110}>{t('Wage type')}</Table.Th>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th w={110}>{t('Debit')}</Table.Th>
              <Table.Th w={110}>{t('Credit')}</Table.Th>
              <Table.Th w={80}>{t('Net pay')}</Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, index) => (
              <Table.Tr key={index}>
                <Table.Td>
                  <TextInput size="xs" aria-label={t('Wage type {{number}} code', { number: index + 1 })} value={row.code} onChange={(e) => change(index, { code: e.currentTarget.value })} error={fields[`data.${index}.code`]} />
                </Table.Td>
                <Table.Td>
                  <TextInput size="xs" aria-label={t('Wage type {{number}} name', { number: index + 1 })} value={row.name} onChange={(e) => change(index, { name: e.currentTarget.value })} />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    size="xs"
                    aria-label={t('Wage type {{code}} debit account', { code: row.code })}
                    value={row.debitAccount ?? ''}
                    onChange={(e) => change(index, { debitAccount: e.currentTarget.value })}
                    error={fields[`data.${index}.debitAccount`]}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    size="xs"
                    aria-label={t('Wage type {{code}} credit account', { code: row.code })}
                    value={row.creditAccount ?? ''}
                    onChange={(e) => change(index, { creditAccount: e.currentTarget.value })}
                    error={fields[`data.${index}.creditAccount`]}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox aria-label={t('Wage type {{code}} is net pay', { code: row.code })} checked={row.isNetPay} onChange={(e) => change(index, { isNetPay: e.currentTarget.checked })} />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="red" aria-label={t('Remove wage type {{code}}', { code: row.code })} onClick={() => setDraft(rows.filter((_, i) => i !== index))}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {state.error ? (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {errorMessage(state.error)}
          </Alert>
        ) : null}
        {state.ok ? (
          <Text size="sm" c="green" role="status">
            {t('Mapping saved.')}
          </Text>
        ) : null}
        <Group justify="space-between">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} />}
            onClick={() => setDraft([...rows, { code: '', name: '', debitAccount: null, creditAccount: null, isNetPay: false }])}
          >
            {t('Add wage type')}
          </Button>
          <Group>
            <Button variant="default" disabled={!draft} onClick={() => setDraft(null)}>
              {t('Discard changes')}
            </Button>
            <Button onClick={() => void save()} disabled={!draft} loading={state.saving}>
              {t('Save mapping')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

function ImportsCard() {
  const { t } = useTranslation();
  const imports = useQuery(salaryImportsQuery());
  const data = imports.data?.data ?? [];
  if (!data.length) return null;
  return (
    <Card withBorder radius="md" padding="md" maw={1100}>
      <Title order={2} size="h4" mb="sm">
        {t('Posted salary imports')}
      </Title>
      <Table fz="sm" striped aria-label={t('Posted salary imports')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('File')}</Table.Th>
            <Table.Th>{t('Periods')}</Table.Th>
            <Table.Th>{t('Entries')}</Table.Th>
            <Table.Th>{t('Claims')}</Table.Th>
            <Table.Th ta="right">{t('Salary cost')}</Table.Th>
            <Table.Th>{t('Posted')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{row.fileName || t('Import {{id}}', { id: row.id })}</Table.Td>
              <Table.Td>
                {`${row.periodFrom} – ${row.periodTo}`}
              </Table.Td>
              <Table.Td>{row.entryIds.length}</Table.Td>
              <Table.Td>{row.payableUuids.length}</Table.Td>
              <Table.Td ta="right">{row.totalGross}</Table.Td>
              <Table.Td>{row.createdAt.slice(0, 10)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
