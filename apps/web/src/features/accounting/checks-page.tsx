import { useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { Anchor, Badge, Button, Card, Collapse, Group, Loader, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconCircleCheck, IconCircleX, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { today } from '../../lib/dates';
import { msg } from '../../lib/i18n';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { checksQuery, type CheckResult, type CheckStatus } from './api';
import { periodPresets, presetOf, type Period, type PeriodPreset } from './check-periods';

const STATUS: Record<CheckStatus, { color: string; label: string; icon: typeof IconCircleCheck }> = {
  passed: { color: 'green', label: msg('Passed'), icon: IconCircleCheck },
  warning: { color: 'yellow', label: msg('Warning'), icon: IconAlertTriangle },
  failed: { color: 'red', label: msg('Failed'), icon: IconCircleX },
};

function StatusBadge({ status, size = 'md', testId }: { status: CheckStatus; size?: 'md' | 'lg'; testId?: string }) {
  const { t } = useTranslation();
  const { color, label, icon: Icon } = STATUS[status];
  return (
    // At least as wide as the English words so the names line up; never cut ("Avertissement", "Non superato").
    <Badge data-testid={testId} color={color} variant="light" size={size} miw={size === 'md' ? 96 : undefined} style={{ flexShrink: 0 }} leftSection={<Icon size={14} aria-hidden />}>
      {t(label)}
    </Badge>
  );
}

/** Problems first: failed, then warnings, then passed; the API's order within each. */
export const RANK: Record<CheckStatus, number> = { failed: 0, warning: 1, passed: 2 };

/** A preset's label: this year and last year name their year; the quarters are Q1–Q4. */
function presetLabel(t: TFunction, preset: PeriodPreset): string {
  const year = preset.dateFrom.slice(0, 4);
  if (preset.key === 'this-year') return t('This year ({{year}})', { year });
  if (preset.key === 'last-year') return t('Last year ({{year}})', { year });
  return preset.label;
}

/**
 * One check: status, what is checked, what was found, and the offending items (expandable);
 * `children` below them (the closing wizard's note to acknowledge a failure).
 */
export function CheckRow({ check, children }: { check: CheckResult; children?: ReactNode }) {
  const { t } = useTranslation();
  // Failures open with their items; warnings wait for a click.
  const [open, setOpen] = useState(check.status === 'failed');
  const items = check.items;
  return (
    <Paper withBorder p="sm" data-testid={`check-${check.key}`} data-status={check.status}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <StatusBadge status={check.status} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={600} size="sm">
            {check.name}
          </Text>
          <Text size="sm" c="dimmed">
            {check.detail}
          </Text>
          {items.length ? (
            <>
              <UnstyledButton onClick={() => setOpen((value) => !value)} aria-expanded={open} c="blue" fz="sm">
                <Group gap={4}>
                  {open ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
                  {open ? t('Hide {{count}} items', { count: items.length }) : t('Show {{count}} items', { count: items.length })}
                  {items.length === 50 ? ` ${t('(the first 50)')}` : ''}
                </Group>
              </UnstyledButton>
              <Collapse expanded={open}>
                <Table withTableBorder striped mt={4} fz="sm">
                  <Table.Tbody>
                    {items.map((item, index) => (
                      <Table.Tr key={`${item.link ?? ''}-${index}`}>
                        <Table.Td>
                          {item.link ? (
                            <Anchor component={Link} to={item.link} size="sm">
                              {item.label}
                            </Anchor>
                          ) : (
                            item.label
                          )}
                        </Table.Td>
                        <Table.Td className="num" w={140}>
                          {item.amount !== null ? <Amount value={item.amount} /> : null}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Collapse>
            </>
          ) : null}
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * /accounting/checks (spec §2.2, issue 12 §2): the accounting checks for a period — the same report
 * the API and the closing wizard get — run on load and again with Run or a preset; failed checks
 * first (with their items open), then warnings, then the passed ones.
 */
export function ChecksPage() {
  const { t } = useTranslation();
  const presets = periodPresets(today());
  const [period, setPeriod] = useState<Period>({ dateFrom: presets[0]!.dateFrom, dateTo: presets[0]!.dateTo });
  const [dateFrom, setDateFrom] = useState<string | null>(period.dateFrom);
  const [dateTo, setDateTo] = useState<string | null>(period.dateTo);
  const report = useQuery(checksQuery(period));
  const data = report.data;
  const invalid = !dateFrom || !dateTo || dateFrom > dateTo;

  const run = ({ dateFrom: from, dateTo: to }: Period) => {
    const next = { dateFrom: from, dateTo: to };
    setDateFrom(next.dateFrom);
    setDateTo(next.dateTo);
    // The same period again runs the checks again (the books may have changed since).
    if (next.dateFrom === period.dateFrom && next.dateTo === period.dateTo) void report.refetch();
    else setPeriod(next);
  };
  const chosen = presetOf(presets, { dateFrom: dateFrom ?? '', dateTo: dateTo ?? '' });
  const tally = (status: CheckStatus) => data?.checks.filter((check) => check.status === status).length ?? 0;
  const failedChecks = t('{{count}} checks failed', { count: tally('failed') });
  const warnings = t('{{count}} warnings', { count: tally('warning') });

  return (
    <Page title={t('Accounting Checks')} actions={data && !report.isFetching ? <StatusBadge status={data.status} size="lg" testId="checks-status" /> : null}>
      <Card withBorder>
        <Stack gap="sm">
          <Group align="flex-end" gap="sm">
            <DateField label={t('From')} w={170} value={dateFrom} onChange={setDateFrom} error={dateFrom && dateTo && dateFrom > dateTo ? t('After "To"') : undefined} />
            <DateField label={t('To')} w={170} value={dateTo} onChange={setDateTo} />
            <Button
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
              disabled={invalid}
              loading={report.isFetching}
              onClick={() => run({ dateFrom: dateFrom!, dateTo: dateTo! })}
            >
              {t('Run checks')}
            </Button>
          </Group>
          <Group gap="xs">
            {presets.map((preset) => (
              <Button key={preset.key} size="compact-sm" variant={chosen?.key === preset.key ? 'light' : 'subtle'} onClick={() => run(preset)}>
                {presetLabel(t, preset)}
              </Button>
            ))}
          </Group>
        </Stack>
      </Card>

      {report.isError ? <ErrorAlert what={t('Could not run the checks')} error={report.error} onRetry={() => void report.refetch()} /> : null}
      {report.isPending ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{t('Running the checks for {{from}} to {{to}}…', { from: formatDate(period.dateFrom), to: formatDate(period.dateTo) })}</Text>
        </Group>
      ) : null}
      {data ? (
        <Stack gap="xs" aria-busy={report.isFetching}>
          <Text size="sm" c="dimmed" role="status">
            {report.isFetching
              ? t('Running the checks for {{from}} to {{to}}…', { from: formatDate(period.dateFrom), to: formatDate(period.dateTo) })
              : t('{{from}} to {{to}}: {{failed}}, {{warnings}}, {{passed}} passed.', {
                  from: formatDate(data.dateFrom),
                  to: formatDate(data.dateTo),
                  failed: failedChecks,
                  warnings,
                  passed: tally('passed'),
                })}
          </Text>
          {[...data.checks].sort((a, b) => RANK[a.status] - RANK[b.status]).map((check) => (
            <CheckRow key={`${data.dateFrom}-${data.dateTo}-${check.key}`} check={check} />
          ))}
        </Stack>
      ) : null}
    </Page>
  );
}
