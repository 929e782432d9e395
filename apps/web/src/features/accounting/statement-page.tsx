import { Fragment, useState } from 'react';
import { currentLanguage, languageOptions, useNumberFormat } from '../../lib/i18n';
import { Anchor, Badge, Button, Group, Select, Switch, Table, Tabs, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconCircleCheck, IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import { saveBlob } from '../../lib/save-file';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  balanceSheetQuery,
  fetchStatementExport,
  incomeStatementQuery,
  type StatementExportBody,
  type StatementLang,
  type StatementSection,
  type StatementTotal,
} from './statement-api';
import { accountingSettingsQuery } from './api';
import { fiscalYearOf, periodPresets, samePeriod, yearPeriod, type Period } from './statement-periods';
import { WriteError } from './write-error';

type Tab = 'balance-sheet' | 'income';

/** A group of sections with an optional heading and total: a side of the balance sheet, or the income statement. */
interface Block {
  key: string;
  heading: string | null;
  sections: StatementSection[];
  total: StatementTotal | null;
}

const periodText = (from: string, to: string) => `${formatDate(from)} – ${formatDate(to)}`;

function BalancedBadge({ balanced }: { balanced: boolean }) {
  const { t } = useTranslation();
  return balanced ? (
    <Badge color="green" variant="light" size="lg" leftSection={<IconCircleCheck size={16} aria-hidden />}>
      {t('Assets = liabilities + equity')}
    </Badge>
  ) : (
    <Badge color="red" variant="light" size="lg" leftSection={<IconAlertTriangle size={16} aria-hidden />}>
      {t('Not balanced')}
    </Badge>
  );
}

interface StatementTableProps {
  /** The books' currency, shown above the labels. */
  currency: string;
  columns: string[];
  blocks: Block[];
  /** The account page, filtered to the statement's period. */
  accountHref: (accountId: number) => string;
  busy: boolean;
}

/**
 * The statement as one table: headings, lines with their OR reference, section totals (or running
 * results) and block totals. A line opens to its accounts; an account links to its postings.
 */
function StatementTable({ currency, columns, blocks, accountHref, busy }: StatementTableProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const allLineKeys = blocks.flatMap((block) => block.sections.flatMap((section) => section.lines.map((line) => `${block.key}/${line.key}`)));
  const span = 1 + columns.length;
  const amounts = (item: { amount: string; compareAmount: string | null }) => (
    <>
      <Table.Td className="num">
        <Amount value={item.amount} />
      </Table.Td>
      {columns.length > 1 ? (
        <Table.Td className="num">
          <Amount value={item.compareAmount} />
        </Table.Td>
      ) : null}
    </>
  );
  return (
    <>
      <Group justify="flex-end" gap="xs">
        <Button variant="subtle" size="compact-sm" onClick={() => setOpen(new Set(allLineKeys))}>
          {t('Show all accounts')}
        </Button>
        <Button variant="subtle" size="compact-sm" onClick={() => setOpen(new Set())}>
          {t('Hide accounts')}
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={6} withTableBorder className="statement" aria-busy={busy}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th c="dimmed" fw={500}>
                {currency}
              </Table.Th>
              {columns.map((column) => (
                <Table.Th key={column} className="num" w={170}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {blocks.map((block) => (
              <Fragment key={block.key}>
                {block.heading ? (
                  <Table.Tr className="statement-heading">
                    <Table.Td colSpan={span}>{block.heading}</Table.Td>
                  </Table.Tr>
                ) : null}
                {block.sections.map((section, index) => {
                  const last = index === block.sections.length - 1;
                  // Income statement: a running result equal to the one before (no lines) is not repeated.
                  const showTotal = section.label !== null || section.lines.length > 0 || last || index === 0;
                  return (
                    <Fragment key={section.key}>
                      {section.label ? (
                        <Table.Tr className="statement-section">
                          <Table.Td colSpan={span}>{section.label}</Table.Td>
                        </Table.Tr>
                      ) : null}
                      {section.lines.map((line) => {
                        const key = `${block.key}/${line.key}`;
                        const isOpen = open.has(key);
                        return (
                          <Fragment key={key}>
                            <Table.Tr className="clickable statement-line" onClick={() => toggle(key)}>
                              <Table.Td>
                                {/* The row opens on a click anywhere; the button is what keyboards and screen readers use (a row cannot be expanded, WAI-ARIA). */}
                                <UnstyledButton
                                  aria-expanded={isOpen}
                                  onClick={(event) => {
                                    event.stopPropagation();
                                    toggle(key);
                                  }}
                                >
                                  <Group gap={6} wrap="nowrap" align="flex-start">
                                    {isOpen ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
                                    <div>
                                      <Text span size="sm">
                                        {line.label}
                                      </Text>{' '}
                                      <Text span size="xs" c="dimmed">
                                        {line.ref}
                                      </Text>
                                    </div>
                                  </Group>
                                </UnstyledButton>
                              </Table.Td>
                              {amounts(line)}
                            </Table.Tr>
                            {isOpen
                              ? line.accounts.map((account) => (
                                  <Table.Tr key={`${key}/${account.id ?? 'result'}`} className="statement-account">
                                    <Table.Td pl={44}>
                                      {account.id !== null ? (
                                        <Anchor component={Link} to={accountHref(account.id)} size="sm">
                                          {account.number} {account.name}
                                        </Anchor>
                                      ) : (
                                        <Text span size="sm" fs="italic">
                                          {account.name}
                                        </Text>
                                      )}
                                    </Table.Td>
                                    {amounts(account)}
                                  </Table.Tr>
                                ))
                              : null}
                          </Fragment>
                        );
                      })}
                      {showTotal ? (
                        <Table.Tr className={`totals${last && !block.total ? ' grand' : ''}`}>
                          <Table.Td>{section.total.label}</Table.Td>
                          {amounts(section.total)}
                        </Table.Tr>
                      ) : null}
                    </Fragment>
                  );
                })}
                {block.total ? (
                  <Table.Tr className="totals grand">
                    <Table.Td>{block.total.label}</Table.Td>
                    {amounts(block.total)}
                  </Table.Tr>
                ) : null}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}

/**
 * /accounting/statement (spec §2.2 "Financials", issue 12 §4): balance sheet and income statement
 * in the structure of OR 959a/959b, with a prior-period column, lines that open to their accounts,
 * and downloads as PDF, XLSX or CSV in the chosen language.
 */
export function StatementPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('balance-sheet');
  // The presets and the first period follow the fiscal year of the accounting settings (calendar year by default).
  const settings = useQuery(accountingSettingsQuery());
  const startMonth = settings.data?.fiscalYearStartMonth ?? 1;
  const [chosen, setPeriod] = useState<Period | null>(null);
  const period = chosen ?? yearPeriod(fiscalYearOf(today(), startMonth), startMonth);
  const ready = !settings.isPending;
  const [withCompare, setWithCompare] = useState(true);
  // The statements start in the UI's language; the picker prints them in another.
  const [lang, setLang] = useState<StatementLang>(currentLanguage());
  const isValid = period.dateFrom <= period.dateTo;

  const balance = useQuery({
    ...balanceSheetQuery({ date: period.dateTo, lang, ...(withCompare ? {} : { compareDate: null }) }),
    enabled: tab === 'balance-sheet' && ready,
  });
  const income = useQuery({
    ...incomeStatementQuery({ dateFrom: period.dateFrom, dateTo: period.dateTo, lang, ...(withCompare ? {} : { compareFrom: null, compareTo: null }) }),
    enabled: tab === 'income' && isValid && ready,
  });

  const exportFile = useMutation({
    mutationFn: fetchStatementExport,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
  const runExport = useSingleFlight(exportFile.mutateAsync);
  // A CSV for the person downloading it: their number format (decision 034).
  const numberFormat = useNumberFormat();
  const download = (format: StatementExportBody['format']) => {
    const common = { format, lang, ...(format === 'csv' ? { numberFormat } : {}) };
    return runExport(
      tab === 'balance-sheet'
        ? { kind: 'balance-sheet', ...common, date: period.dateTo, ...(withCompare ? {} : { compareDate: null }) }
        : { kind: 'income', ...common, dateFrom: period.dateFrom, dateTo: period.dateTo, ...(withCompare ? {} : { compareFrom: null, compareTo: null }) },
    );
  };

  const sheet = tab === 'balance-sheet' ? balance.data : undefined;
  const statement = tab === 'income' ? income.data : undefined;
  const query = tab === 'balance-sheet' ? balance : income;

  return (
    <Page
      title={t('Financials')}
      actions={
        <Group gap="xs">
          <Select
            aria-label={t('Statement language')}
            w={130}
            data={languageOptions}
            value={lang}
            allowDeselect={false}
            onChange={(value) => value && setLang(value as StatementLang)}
          />
          {(['pdf', 'xlsx', 'csv'] as const).map((format) => (
            <Button
              key={format}
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exportFile.isPending && exportFile.variables?.format === format}
              disabled={!isValid}
              onClick={() => download(format)}
            >
              {format.toUpperCase()}
            </Button>
          ))}
        </Group>
      }
    >
      <Tabs value={tab} onChange={(value) => value && setTab(value as Tab)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="balance-sheet">{t('Balance sheet')}</Tabs.Tab>
          <Tabs.Tab value="income">{t('Income statement')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {tab === 'income' ? (
          <DateField
            label={t('From')}
            w={150}
            value={period.dateFrom}
            onChange={(dateFrom) => dateFrom && setPeriod({ ...period, dateFrom })}
            error={isValid ? undefined : t('After "To"')}
          />
        ) : null}
        <DateField label={tab === 'income' ? t('To') : t('As of')} w={150} value={period.dateTo} onChange={(dateTo) => dateTo && setPeriod({ ...period, dateTo })} />
        <Group gap={4} mb={4} wrap="wrap">
          {periodPresets(today(), period, startMonth).map((preset) => (
            <Button
              key={preset.label}
              size="compact-sm"
              variant={samePeriod(preset.period, period) ? 'light' : 'subtle'}
              onClick={() => setPeriod(preset.period)}
            >
              {t(preset.label)}
            </Button>
          ))}
        </Group>
        <Switch label={t('Prior-period column')} checked={withCompare} onChange={(event) => setWithCompare(event.currentTarget.checked)} mb={8} />
      </Group>
      {exportFile.isError ? <WriteError error={exportFile.error} what={t('Could not make the file')} /> : null}
      {query.isError ? <ErrorAlert what={t('Could not load the statement')} error={query.error} onRetry={() => void query.refetch()} /> : null}
      {!query.data && !query.isError && isValid ? <TableSkeleton /> : null}

      {sheet ? (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('{{title}} as of {{date}}, {{currency}}; the result not yet closed is shown in equity.', { title: sheet.title, date: formatDate(sheet.date), currency: sheet.currency })}
            </Text>
            <BalancedBadge balanced={sheet.balanced && sheet.compareBalanced !== false} />
          </Group>
          <StatementTable
            currency={sheet.currency}
            columns={sheet.compareDate ? [formatDate(sheet.date), formatDate(sheet.compareDate)] : [formatDate(sheet.date)]}
            blocks={sheet.sides.map((side) => ({ key: side.key, heading: side.label, sections: side.sections, total: side.total }))}
            accountHref={(id) => paths.accountDetail.getHref(id, { dateFrom: yearPeriod(fiscalYearOf(sheet.date, startMonth), startMonth).dateFrom, dateTo: sheet.date })}
            busy={balance.isFetching}
          />
        </>
      ) : null}

      {statement ? (
        <>
          <Text size="sm" c="dimmed">
            {t('{{title}} {{period}}, {{currency}}; year-end closing entries are left out.', {
              title: statement.title,
              period: periodText(statement.dateFrom, statement.dateTo),
              currency: statement.currency,
            })}
          </Text>
          <StatementTable
            currency={statement.currency}
            columns={
              statement.compareFrom && statement.compareTo
                ? [periodText(statement.dateFrom, statement.dateTo), periodText(statement.compareFrom, statement.compareTo)]
                : [periodText(statement.dateFrom, statement.dateTo)]
            }
            blocks={[{ key: 'income', heading: null, sections: statement.sections, total: null }]}
            accountHref={(id) => paths.accountDetail.getHref(id, { dateFrom: statement.dateFrom, dateTo: statement.dateTo })}
            busy={income.isFetching}
          />
        </>
      ) : null}
    </Page>
  );
}
