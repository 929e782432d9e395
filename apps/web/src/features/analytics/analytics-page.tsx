import { Anchor, Button, Group, Paper, Progress, Table, Tabs, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { csvDialectOf, decimalSeparatorOf, formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useNumberFormat } from '../../lib/i18n';
import { saveBlob } from '../../lib/save-file';
import { useSession } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { useObservedYear, YearField } from '../../ui/year-field';
import { analyticsCsv, analyticsFileName } from './analytics-csv';
import { analyticsQuery, isAnalyticsKind, kindInfo, KINDS, type AnalyticsKind } from './api';

/** A share string ("55.0") as a bar length 0–100; a float for the pixels only, never for an amount. */
const barValue = (share: string) => Math.min(100, Math.max(0, Number(share) || 0));

/** "55.0" → "55,0 %" (fr-CH, spec §9) or "55.0 %": the decimal separator of the amounts. */
const shownShare = (share: string) => `${share.replace('.', decimalSeparatorOf())} %`;

function AnalyticsTable({ kind, year }: { kind: AnalyticsKind; year: number }) {
  const { t } = useTranslation();
  const info = kindInfo(kind);
  const currency = useSession().profile?.instance.currency ?? '';
  const result = useQuery(analyticsQuery(kind, year));
  const numberFormat = useNumberFormat();
  if (result.isError) return <ErrorAlert what={t(info.failure)} error={result.error} onRetry={() => void result.refetch()} />;
  const data = result.data;
  if (!data) return <TableSkeleton />;
  const download = () => saveBlob(new Blob([analyticsCsv(data, csvDialectOf(numberFormat))], { type: 'text/csv;charset=utf-8' }), analyticsFileName(data));
  const columns = info.documents ? 5 : 4;

  return (
    <>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Text size="sm" c="dimmed">
            {`${formatDate(data.dateFrom)} – ${formatDate(data.dateTo)} · `}
            {t(info.explanation)}
          </Text>
          <Text fw={600} fz="lg">
            {t('Total')} <Amount value={data.total} /> {currency}
          </Text>
        </div>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={download} disabled={data.rows.length === 0}>
          {t('Download CSV')}
        </Button>
      </Group>
      {data.rows.length === 0 ? (
        <Text c="dimmed">{t(info.empty, { year: data.label })}</Text>
      ) : (
        <Table.ScrollContainer minWidth={680}>
          <Table striped withTableBorder aria-busy={result.isFetching} aria-label={`${t(info.label)} ${data.label}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>#</Table.Th>
                <Table.Th>{t(info.party)}</Table.Th>
                {info.documents ? (
                  <Table.Th className="num" w={90}>
                    {t(info.documents)}
                  </Table.Th>
                ) : null}
                <Table.Th className="num" w={160}>
                  {t('Amount {{currency}}', { currency })}
                </Table.Th>
                <Table.Th w={260}>{t('Share')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.map((row, index) => (
                <Table.Tr key={row.uuid ?? row.id ?? row.label}>
                  <Table.Td c="dimmed">{index + 1}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={row.link} size="sm">
                      {row.label}
                    </Anchor>
                  </Table.Td>
                  {info.documents ? <Table.Td className="num">{row.documents}</Table.Td> : null}
                  <Table.Td className="num">
                    <Amount value={row.amount} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <Progress value={barValue(row.share)} size="lg" radius="sm" style={{ flex: 1 }} aria-label={`${row.label}: ${shownShare(row.share)}`} />
                      <Text size="sm" className="amount" w={60} ta="right">
                        {shownShare(row.share)}
                      </Text>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr className="totals">
                <Table.Td colSpan={columns - 2}>{t('Total ({{rows}})', { rows: data.rows.length })}</Table.Td>
                <Table.Td className="num">
                  <Amount value={data.total} />
                </Table.Td>
                <Table.Td />
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

/**
 * /report/analytics: the four analyses of spec §7.1 ("Analytics", issue 12 §4) for a year — revenue
 * by customer, expenses by supplier, revenue and expenses by ledger account — each a ranked table
 * with its share of the total as a bar, links to the customer, supplier or account, and a CSV file.
 * The year is the dashboard's observed year (spec §3 local storage); the tab is in the URL.
 */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('kind');
  const kind: AnalyticsKind = isAnalyticsKind(requested) ? requested : 'revenue-by-customer';
  const observed = useObservedYear(search.get('year'));
  const year = observed.year;

  return (
    <Page
      title={t('Analytics')}
      actions={
        <YearField observed={observed} />
      }
    >
      <Anchor component={Link} to={paths.reports.getHref()} size="sm">
        {`← `}
        {t('Reports')}
      </Anchor>
      <Tabs value={kind} onChange={(value) => value && setSearch({ kind: value }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          {KINDS.map((info) => (
            <Tabs.Tab key={info.kind} value={info.kind}>
              {t(info.label)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {KINDS.map((info) => (
          <Tabs.Panel key={info.kind} value={info.kind} pt="md">
            <Paper withBorder p="md" radius="md">
              <Group gap="md" style={{ flexDirection: 'column', alignItems: 'stretch' }}>
                {year === null ? (
                  <Text c="dimmed">{t('Enter a year between 1900 and 2300.')}</Text>
                ) : (
                  <AnalyticsTable kind={info.kind} year={year} />
                )}
              </Group>
            </Paper>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Page>
  );
}
