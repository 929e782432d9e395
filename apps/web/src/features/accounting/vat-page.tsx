import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Drawer, Group, Menu, Modal, Paper, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconFileCheck, IconLock } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import {
  formatDate,
  INPUT_TAX_ZIFFERN,
  OTHER_FLOW_ZIFFERN,
  toMoney,
  TURNOVER_ZIFFERN,
  VAT_FIGURE_LABELS,
  vatTaxLineLabel,
  type ScalarZiffer,
  type VatLanguage,
} from '@bilan/domain';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import { errorMessage } from '../../lib/errors';
import { isLanguage, msg } from '../../lib/i18n';
import { saveBlob } from '../../lib/save-file';
import { useCan } from '../../lib/session';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  fetchVatFile,
  fileVatReturn,
  vatDrillQuery,
  vatFileName,
  vatPeriodsQuery,
  vatReturnQuery,
  vatSettingsQuery,
  type SubmissionType,
  type VatPeriodList,
  type VatPeriodRequest,
  type VatReturn,
  type VatReturnSummary,
} from './vat-api';
import { BASIS_LABELS, METHOD_LABELS, VatSettingsForm, VatSettingsSection } from './vat-settings';
import { EmptyRow } from '../../ui/empty-row';

const TYPE_LABELS: Record<SubmissionType, string> = { 1: msg('Return'), 2: msg('Correction'), 3: msg('Yearly reconciliation') };
/** The type inside a sentence ("Mark return Q1 2025 as filed"). */
const TYPE_NAMES: Record<SubmissionType, string> = { 1: msg('return'), 2: msg('correction'), 3: msg('yearly reconciliation') };

/** The ESTV form's language for the figures' labels: the UI's. */
function useFormLanguage(): VatLanguage {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : 'en';
}
const LANGS: { value: VatLanguage; label: string }[] = [
  { value: 'de', label: 'Deutsch' },
  { value: 'fr', label: 'Français' },
  { value: 'it', label: 'Italiano' },
  { value: 'en', label: 'English' },
];

/** A figure to drill into: a single figure or a tax row (with its rate). */
interface FigureKey {
  ziffer: string;
  ratePercent?: string;
  label: string;
}

/** An amount that opens the postings behind it. */
function FigureAmount({ value, figure, onOpen, bold }: { value: string; figure: FigureKey; onOpen: (figure: FigureKey) => void; bold?: boolean }) {
  const { t } = useTranslation();
  const zero = toMoney(value).isZero();
  if (zero) return <Amount value={value} c="dimmed" fw={bold ? 700 : undefined} />;
  return (
    <Anchor component="button" type="button" onClick={() => onOpen(figure)} aria-label={figure.ratePercent ? t('Postings of {{ziffer}} at {{rate}} %', { ziffer: figure.ziffer, rate: figure.ratePercent }) : t('Postings of {{ziffer}}', { ziffer: figure.ziffer })} fw={bold ? 700 : undefined}>
      <Amount value={value} />
    </Anchor>
  );
}

function SectionTitle({ children, columns }: { children: React.ReactNode; columns: [string, string] | [string] }) {
  return (
    <Table.Tr bg="var(--mantine-color-gray-1)">
      <Table.Th colSpan={2}>{children}</Table.Th>
      {columns.length === 2 ? (
        <>
          <Table.Th ta="right">{columns[0]}</Table.Th>
          <Table.Th ta="right">{columns[1]}</Table.Th>
        </>
      ) : (
        <Table.Th ta="right" colSpan={2}>
          {columns[0]}
        </Table.Th>
      )}
    </Table.Tr>
  );
}

/** The form-like figures: I. Turnover, II. Tax calculation, III. Other cash flows; each amount opens its postings. */
function VatForm({ vatReturn, onOpen }: { vatReturn: VatReturn; onOpen: (figure: FigureKey) => void }) {
  const { t } = useTranslation();
  const lang = useFormLanguage();
  const LABELS = VAT_FIGURE_LABELS[lang];
  const f = vatReturn.figures.figures as Record<ScalarZiffer, string>;
  const derived = new Set(['299', '500', '510']);
  const scalar = (ziffer: ScalarZiffer, column: 'base' | 'tax', bold = false) => (
    <Table.Tr key={ziffer}>
      <Table.Td w={60} fw={bold ? 700 : undefined}>
        {ziffer}
      </Table.Td>
      <Table.Td fw={bold ? 700 : undefined}>{LABELS[ziffer]}</Table.Td>
      <Table.Td ta="right" w={140}>
        {column === 'base' ? derived.has(ziffer) ? <Amount value={f[ziffer]} fw={bold ? 700 : undefined} /> : <FigureAmount value={f[ziffer]} figure={{ ziffer, label: LABELS[ziffer]! }} onOpen={onOpen} bold={bold} /> : null}
      </Table.Td>
      <Table.Td ta="right" w={140}>
        {column === 'tax' ? derived.has(ziffer) ? <Amount value={f[ziffer]} fw={bold ? 700 : undefined} /> : <FigureAmount value={f[ziffer]} figure={{ ziffer, label: LABELS[ziffer]! }} onOpen={onOpen} bold={bold} /> : null}
      </Table.Td>
    </Table.Tr>
  );
  const isNet = vatReturn.figures.method === 'net';
  const turnover = TURNOVER_ZIFFERN.map((ziffer) => scalar(ziffer, 'base', ziffer === '289' || ziffer === '299'));
  const taxDue = scalar('399', 'tax', true);
  const inputTax = isNet ? scalar('470', 'tax') : INPUT_TAX_ZIFFERN.map((ziffer) => scalar(ziffer, 'tax', ziffer === '479'));
  const payable = scalar('500', 'tax', true);
  const credit = scalar('510', 'tax', true);
  const otherFlows = OTHER_FLOW_ZIFFERN.map((ziffer) => scalar(ziffer, 'base'));
  return (
    <Table withTableBorder verticalSpacing={6} aria-label={t('VAT return figures')}>
      <Table.Tbody>
        <SectionTitle columns={[t('Turnover CHF'), '']}>{t('I. Turnover')}</SectionTitle>
        {turnover}
        <SectionTitle columns={[t('Turnover CHF'), t('Tax CHF')]}>{t('II. Tax calculation')}</SectionTitle>
        {vatReturn.figures.taxLines.map((line) => {
          const label = vatTaxLineLabel(line, lang);
          const figure = { ziffer: line.ziffer, ratePercent: line.ratePercent, label };
          return (
            <Table.Tr key={`${line.kind}-${line.ziffer}-${line.ratePercent}`}>
              <Table.Td>{line.ziffer}</Table.Td>
              <Table.Td>{label}</Table.Td>
              <Table.Td ta="right">
                <FigureAmount value={line.base} figure={figure} onOpen={onOpen} />
              </Table.Td>
              <Table.Td ta="right">{line.kind === 'net' ? <Amount value={line.tax} /> : <FigureAmount value={line.tax} figure={figure} onOpen={onOpen} />}</Table.Td>
            </Table.Tr>
          );
        })}
        {taxDue}
        {inputTax}
        {payable}
        {credit}
        <SectionTitle columns={[t('Amount CHF'), '']}>{t('III. Other cash flows')}</SectionTitle>
        {otherFlows}
      </Table.Tbody>
    </Table>
  );
}

/** The postings behind one figure, each linked to its journal entry. */
function DrillDrawer({ request, figure, onClose }: { request: VatPeriodRequest; figure: FigureKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  const drill = useQuery(vatDrillQuery(figure ? { dateFrom: request.dateFrom, dateTo: request.dateTo, ziffer: figure.ziffer, ...(figure.ratePercent ? { ratePercent: figure.ratePercent } : {}) } : null));
  const data = drill.data;
  return (
    <Drawer opened={figure !== null} onClose={onClose} position="right" size="xl" title={figure ? `${figure.ziffer} — ${figure.label}` : ''}>
      {drill.isError ? <ErrorAlert what={t('Could not load the postings')} error={drill.error} /> : null}
      {drill.isPending && figure ? <TableSkeleton rows={4} /> : null}
      {data ? (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t('The postings of {{from}}–{{to}} that make the figure, each with what it adds.', { from: formatDate(request.dateFrom), to: formatDate(request.dateTo) })}
            {request.type !== 1 ? ` ${t('These are the postings of the books; the correction is their total minus what was filed.')}` : ''}
          </Text>
          <Table striped withTableBorder aria-label={t('Postings of the figure')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Date')}</Table.Th>
                <Table.Th>{t('Entry')}</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th>{t('Code')}</Table.Th>
                <Table.Th ta="right">{t('Turnover')}</Table.Th>
                <Table.Th ta="right">{t('Tax')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.length === 0 ? (
                <EmptyRow columns={6}>{t('No postings')}</EmptyRow>
              ) : null}
              {data.data.map((row, index) => (
                <Table.Tr key={`${row.entry.id}-${row.account.id}-${row.role}-${index}`}>
                  <Table.Td>
                    {formatDate(row.countedOn)}
                    {row.payment ? (
                      <Text size="xs" c="dimmed">
                        {t('paid by')} <Link to={paths.entryDetail.getHref(row.payment.entry.id)}>{t('entry {{id}}', { id: row.payment.entry.id })}</Link>
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.entryDetail.getHref(row.entry.id)}>
                      {row.entry.id}
                    </Anchor>{' '}
                    {row.entry.description}
                  </Table.Td>
                  <Table.Td>
                    {row.account.number} {row.account.name}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {row.vatCode} <Text span size="xs" c="dimmed">{t(row.role)} {row.ratePercent} %</Text>
                  </Table.Td>
                  <Table.Td ta="right">{toMoney(row.base).isZero() ? '' : <Amount value={row.base} />}</Table.Td>
                  <Table.Td ta="right">{toMoney(row.tax).isZero() ? '' : <Amount value={row.tax} />}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={4}>{t('Total')}</Table.Th>
                <Table.Th ta="right">{data.column === 'tax' ? '' : <Amount value={data.total.base} />}</Table.Th>
                <Table.Th ta="right">{data.column === 'base' ? '' : <Amount value={data.total.tax} />}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Stack>
      ) : null}
    </Drawer>
  );
}

/** The VAT accounts' movements in the period beside what the return accounts for. */
function Reconciliation({ vatReturn }: { vatReturn: VatReturn }) {
  const { t } = useTranslation();
  const { reconciliation } = vatReturn;
  const received = vatReturn.basis === 'received';
  const showNotCounted = received || vatReturn.method === 'net' || reconciliation.accounts.some((a) => !toMoney(a.notCounted).isZero());
  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('Reconciliation with the VAT accounts')}
        </Title>
        {reconciliation.isBalanced ? (
          <Badge color="green" variant="light" leftSection={<IconCircleCheck size={14} />}>
            {t('The VAT accounts agree with the return')}
          </Badge>
        ) : (
          <Badge color="orange" variant="light" leftSection={<IconAlertTriangle size={14} />}>
            {t('Differences')}
          </Badge>
        )}
      </Group>
      <Table withTableBorder aria-label={t('VAT accounts')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Account')}</Table.Th>
            <Table.Th ta="right">{t('Movement (credit − debit)')}</Table.Th>
            <Table.Th ta="right">{t('In the return')}</Table.Th>
            <Table.Th ta="right">{t('Without VAT code')}</Table.Th>
            {showNotCounted ? <Table.Th ta="right">{received ? t('Not paid in the period') : t('Not counted (input tax)')}</Table.Th> : null}
            <Table.Th ta="right">{t('Difference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reconciliation.accounts.length === 0 ? (
            <EmptyRow columns={showNotCounted ? 6 : 5}>{t('No movements on the VAT accounts in the period')}</EmptyRow>
          ) : null}
          {reconciliation.accounts.map((row) => (
            <Table.Tr key={row.account.id}>
              <Table.Td>
                <Anchor component={Link} to={`${paths.accountDetail.getHref(row.account.id)}?${new URLSearchParams({ dateFrom: vatReturn.dateFrom, dateTo: vatReturn.dateTo })}`}>
                  {row.account.number} {row.account.name}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">
                <Amount value={row.movement} />
              </Table.Td>
              <Table.Td ta="right">
                <Amount value={row.inReturn} />
              </Table.Td>
              <Table.Td ta="right">
                <Amount value={row.uncoded} />
              </Table.Td>
              {showNotCounted ? (
                <Table.Td ta="right">
                  <Amount value={row.notCounted} />
                </Table.Td>
              ) : null}
              <Table.Td ta="right">
                <Amount value={row.difference} c={toMoney(row.difference).isZero() ? undefined : 'red'} fw={toMoney(row.difference).isZero() ? undefined : 700} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {reconciliation.uncodedPostings.length ? (
        <Stack gap={4} mt="sm">
          <Text size="sm" fw={500}>
            {t('Postings on VAT accounts without a VAT code')}
          </Text>
          {reconciliation.uncodedPostings.map((posting, index) => (
            <Text size="sm" key={`${posting.entry.id}-${index}`}>
              {formatDate(posting.entry.dateLedger)}
              {` · `}
              <Link to={paths.entryDetail.getHref(posting.entry.id)}>{t('entry {{id}}', { id: posting.entry.id })}</Link> {posting.entry.description}
              {` · `}
              {posting.account.number}
              {` · `}
              <Amount value={posting.amount} />
            </Text>
          ))}
        </Stack>
      ) : null}
    </Paper>
  );
}

/** Download buttons: XML for the ESTV portal, the PDF in a language. */
function Downloads({ onXml, onPdf, busy }: { onXml: () => void; onPdf: (lang: VatLanguage) => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={onXml} loading={busy}>
        {t('Download XML')}
      </Button>
      <Menu>
        <Menu.Target>
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={busy}>
            PDF
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {LANGS.map((lang) => (
            <Menu.Item key={lang.value} onClick={() => onPdf(lang.value)}>
              {lang.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

function useDownload() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fetcher: () => Promise<Blob>, fileName: string) => {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await fetcher(), fileName);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

const formatTimestamp = (iso: string) => new Date(iso).toLocaleString('de-CH', { dateStyle: 'medium', timeStyle: 'short' });

function FiledReturns({ returns }: { returns: VatReturnSummary[] }) {
  const { t } = useTranslation();
  const download = useDownload();
  if (!returns.length) return null;
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="sm">
        {t('Filed')}
      </Title>
      {download.error ? <ErrorAlert what={t('Could not download the return')} error={download.error} /> : null}
      <Table withTableBorder aria-label={t('Filed returns')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('No.')}</Table.Th>
            <Table.Th>{t('Type')}</Table.Th>
            <Table.Th>{t('Filed')}</Table.Th>
            <Table.Th ta="right">{t('Payable (500 − 510)')}</Table.Th>
            <Table.Th>{t('Settlement')}</Table.Th>
            <Table.Th>{t('Locked up to')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {returns.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{row.id}</Table.Td>
              <Table.Td>{t(TYPE_LABELS[row.typeOfSubmission as SubmissionType])}</Table.Td>
              <Table.Td>{formatTimestamp(row.filedAt)}</Table.Td>
              <Table.Td ta="right">
                <Amount value={row.payable} />
              </Table.Td>
              <Table.Td>{row.settlementEntry ? <Link to={paths.entryDetail.getHref(row.settlementEntry.id)}>{t('entry {{id}}', { id: row.settlementEntry.id })}</Link> : `—`}</Table.Td>
              <Table.Td>{formatDate(row.lockDate)}</Table.Td>
              <Table.Td>
                <Downloads
                  busy={download.busy}
                  onXml={() => void download.run(() => fetchVatFile('/api/accounting/vat/return/filed/xml', { id: row.id }), vatFileName(row.dateFrom, row.dateTo, row.typeOfSubmission, 'xml'))}
                  onPdf={(lang) => void download.run(() => fetchVatFile('/api/accounting/vat/return/filed/pdf', { id: row.id, lang }), vatFileName(row.dateFrom, row.dateTo, row.typeOfSubmission, 'pdf'))}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The confirmation before filing: what it books and locks. */
function FileModal({ vatReturn, opened, onClose }: { vatReturn: VatReturn; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const file = useMutation({
    mutationFn: fileVatReturn,
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['accounting'] });
      notifications.show({ color: 'green', message: t('{{type}} {{label}} filed; the books are locked up to {{date}}.', {
          type: t(TYPE_LABELS[answer.filed.typeOfSubmission as SubmissionType]),
          label: answer.label,
          date: formatDate(answer.filed.lockDate),
        }) });
      onClose();
    },
  });
  const send = useSingleFlight(file.mutateAsync);
  const type = vatReturn.typeOfSubmission as SubmissionType;
  const payable = toMoney(vatReturn.settlement.payable);
  return (
    <Modal opened={opened} onClose={onClose} title={t('Mark {{type}} {{label}} as filed', { type: t(TYPE_NAMES[type]), label: vatReturn.label })}>
      <Stack gap="sm">
        <Text size="sm">
          {payable.gte(0) ? t('Amount payable') : t('Credit')} <b>CHF <Amount value={payable.abs().toFixed(2)} /></b>.{' '}
          {t(
            'Filing stores the figures as they are now, books the settlement entry (the VAT accounts to {{account}}) and locks the books up to {{date}}: afterwards nothing dated in the period can be posted or changed.',
            {
              account: `${vatReturn.settlement.settlementAccount.number} ${vatReturn.settlement.settlementAccount.name}`,
              date: formatDate(vatReturn.dateTo),
            },
          )}
        </Text>
        <Text size="sm" c="dimmed">
          {t('Upload the XML on the ESTV portal (or submit the form there) yourself; Bilan records that it was filed.')}
        </Text>
        {file.error ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(file.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button leftSection={<IconLock size={16} />} loading={file.isPending} onClick={() => send({ dateFrom: vatReturn.dateFrom, dateTo: vatReturn.dateTo, type })}>
            {t('Mark as filed')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The return of the chosen period: facts, actions, figures, reconciliation, filed returns. */
function ReturnView({ request }: { request: VatPeriodRequest }) {
  const { t } = useTranslation();
  const canAdmin = useCan('admin');
  const vatReturn = useQuery(vatReturnQuery(request));
  const [figure, setFigure] = useState<FigureKey | null>(null);
  const [filing, setFiling] = useState(false);
  const download = useDownload();
  if (vatReturn.isError) return <ErrorAlert what={t('Could not compute the return')} error={vatReturn.error} onRetry={() => void vatReturn.refetch()} />;
  if (!vatReturn.data) return <TableSkeleton rows={12} />;
  const data = vatReturn.data;
  const type = data.typeOfSubmission as SubmissionType;
  const filedOriginal = type === 1 ? data.status === 'filed' : type === 3 && data.status === 'filed';
  const canFile = canAdmin && !filedOriginal && data.dateTo <= today() && (type !== 2 || !isZeroCorrection(data));
  return (
    <Stack gap="md">
      <Paper withBorder p="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="sm">
              <Title order={2} size="h3">
                {t(TYPE_LABELS[type])} {data.label}
              </Title>
              {data.status === 'filed' ? (
                <Badge color="green" leftSection={<IconFileCheck size={14} />}>
                  {t('Filed')}
                </Badge>
              ) : (
                <Badge color="gray">{t('Open')}</Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {[`${formatDate(data.dateFrom)}–${formatDate(data.dateTo)}`, t(METHOD_LABELS[data.method]), t(BASIS_LABELS[data.basis]), data.vatNumber].join(` · `)}
            </Text>
            <Text size="sm">
              {toMoney(data.settlement.payable).gte(0) ? t('Amount payable') : t('Credit')}: <b>CHF <Amount value={toMoney(data.settlement.payable).abs().toFixed(2)} /></b>
              {data.filed ? (
                <Text span size="sm" c="dimmed">
                  {' '}
                  {`(`}
                  {t('books')} <Amount value={data.books.figures['500'] !== '0.00' ? data.books.figures['500'] : `-${data.books.figures['510']}`} />
                  {`, `}
                  {t('filed')} <Amount value={data.filed.figures['500'] !== '0.00' ? data.filed.figures['500'] : `-${data.filed.figures['510']}`} />
                  {`)`}
                </Text>
              ) : null}
            </Text>
          </Stack>
          <Group gap="xs">
            <Downloads
              busy={download.busy}
              onXml={() => void download.run(() => fetchVatFile('/api/accounting/vat/return/xml', { ...request }), vatFileName(data.dateFrom, data.dateTo, type, 'xml'))}
              onPdf={(lang) => void download.run(() => fetchVatFile('/api/accounting/vat/return/pdf', { ...request, lang }), vatFileName(data.dateFrom, data.dateTo, type, 'pdf'))}
            />
            {canFile ? (
              <Button leftSection={<IconLock size={16} />} onClick={() => setFiling(true)}>
                {t('Mark as filed')}
              </Button>
            ) : null}
          </Group>
        </Group>
        {download.error ? <ErrorAlert what={t('Could not download the return')} error={download.error} /> : null}
        {type === 2 && isZeroCorrection(data) ? (
          <Alert color="green" variant="light" mt="sm">
            {t('The filed returns of {{label}} match the books: there is nothing to correct.', { label: data.label })}
          </Alert>
        ) : null}
        {type === 1 && data.status === 'filed' ? (
          <Alert color="blue" variant="light" mt="sm">
            {t('This period is filed and locked. To change it, delete its lock, post the change, and file a correction for the difference.')}
          </Alert>
        ) : null}
      </Paper>
      <VatForm vatReturn={data} onOpen={setFigure} />
      <Reconciliation vatReturn={data} />
      <FiledReturns returns={data.returns} />
      <DrillDrawer request={request} figure={figure} onClose={() => setFigure(null)} />
      {filing ? <FileModal vatReturn={data} opened={filing} onClose={() => setFiling(false)} /> : null}
    </Stack>
  );
}

const isZeroCorrection = (data: VatReturn) =>
  Object.values(data.figures.figures).every((amount) => toMoney(amount).isZero()) && data.figures.taxLines.every((line) => toMoney(line.base).isZero() && toMoney(line.tax).isZero());

/** The period to show first: the last ended period that is open, else the current one. */
function defaultPeriod(list: VatPeriodList): { dateFrom: string; dateTo: string } | null {
  const now = today();
  const ended = list.periods.filter((p) => p.dateTo < now);
  const open = ended.filter((p) => p.status === 'open');
  return open[open.length - 1] ?? list.periods.find((p) => p.dateFrom <= now && now <= p.dateTo) ?? ended[ended.length - 1] ?? list.periods[0] ?? null;
}

/**
 * /accounting/vat (issue 13 §3): the VAT return of a period computed from the postings, grouped as
 * on the ESTV form, each figure opening its postings; the reconciliation with the VAT accounts;
 * XML for the ESTV portal and the PDF; filing (owner and admin); corrections and the yearly
 * reconciliation; the settings. The chosen period lives in the address (?dateFrom&dateTo&type).
 */
export function VatPage() {
  const { t } = useTranslation();
  const canAdmin = useCan('admin');
  const settings = useQuery(vatSettingsQuery());
  const [params, setParams] = useSearchParams();
  const paramFrom = params.get('dateFrom');
  const paramTo = params.get('dateTo');
  const paramType = Number(params.get('type') ?? '1') as SubmissionType;
  const [year, setYear] = useState<number | null>(paramFrom ? Number(paramFrom.slice(0, 4)) : null);
  const configured = Boolean(settings.data?.settings);
  const periods = useQuery({ ...vatPeriodsQuery(year), enabled: configured });
  const list = periods.data;

  const chosen = useMemo(() => {
    if (paramFrom && paramTo) return { dateFrom: paramFrom, dateTo: paramTo };
    const first = list ? defaultPeriod(list) : null;
    return first ? { dateFrom: first.dateFrom, dateTo: first.dateTo } : null;
  }, [paramFrom, paramTo, list]);
  const isYear = list?.yearly && chosen && chosen.dateFrom === list.yearly.dateFrom && chosen.dateTo === list.yearly.dateTo;
  const period = list?.periods.find((p) => chosen && p.dateFrom === chosen.dateFrom && p.dateTo === chosen.dateTo);
  const type: SubmissionType = isYear ? 3 : paramType === 2 && period?.status === 'filed' ? 2 : 1;
  const request: VatPeriodRequest | null = chosen ? { ...chosen, type } : null;

  const choose = (next: { dateFrom: string; dateTo: string }, nextType: SubmissionType = 1) =>
    setParams({ dateFrom: next.dateFrom, dateTo: next.dateTo, ...(nextType !== 1 ? { type: String(nextType) } : {}) }, { replace: true });

  if (settings.isError) return <Page title={t('VAT Return')}><ErrorAlert what={t('Could not load the VAT settings')} error={settings.error} onRetry={() => void settings.refetch()} /></Page>;
  if (!settings.data) return <Page title={t('VAT Return')}><TableSkeleton rows={6} /></Page>;
  const current = settings.data.settings;
  if (!current) {
    return (
      <Page title={t('VAT Return')}>
        <Paper withBorder p="lg" maw={760}>
          <Title order={2} size="h4" mb="xs">
            {t('Set up the VAT registration')}
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            {t("The return is computed from the postings' VAT codes. Enter the VAT number, the method, the period and the basis the ESTV registered.")}
          </Text>
          {canAdmin ? <VatSettingsForm settings={null} /> : <Alert variant="light">{t('An owner or an admin of the workplace sets up the VAT registration.')}</Alert>}
        </Paper>
      </Page>
    );
  }

  const periodOptions = [
    ...(list?.periods ?? []).map((p) => ({ value: `${p.dateFrom}|${p.dateTo}`, label: `${p.label} · ${p.status === 'filed' ? t('filed') : t('open')}` })),
    ...(list?.yearly ? [{ value: `${list.yearly.dateFrom}|${list.yearly.dateTo}`, label: `${t('Year {{label}} (reconciliation)', { label: list.yearly.label })} · ${list.yearly.status === 'filed' ? t('filed') : t('open')}` }] : []),
  ];
  return (
    <Page title={t('VAT Return')}>
      <Paper withBorder p="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label={t('Year')}
            w={110}
            data={(list?.years ?? []).map(String)}
            value={list ? String(list.year) : null}
            onChange={(value) => {
              if (!value) return;
              setYear(Number(value));
              setParams({}, { replace: true });
            }}
            allowDeselect={false}
          />
          <Select
            label={t('Period')}
            w={300}
            data={periodOptions}
            value={chosen ? `${chosen.dateFrom}|${chosen.dateTo}` : null}
            onChange={(value) => {
              if (!value) return;
              const [dateFrom, dateTo] = value.split('|') as [string, string];
              choose({ dateFrom, dateTo });
            }}
            allowDeselect={false}
          />
          {period?.status === 'filed' && chosen ? (
            <SegmentedControl
              value={String(type)}
              onChange={(value) => choose(chosen, Number(value) as SubmissionType)}
              data={[
                { value: '1', label: t('As filed / books') },
                { value: '2', label: t('Correction') },
              ]}
            />
          ) : null}
        </Group>
        {periods.isError ? <ErrorAlert what={t('Could not load the periods')} error={periods.error} /> : null}
      </Paper>
      {request ? <ReturnView key={`${request.dateFrom}|${request.dateTo}|${request.type}`} request={request} /> : periods.isPending ? <TableSkeleton rows={8} /> : <Text c="dimmed">{t('No VAT period in this year.')}</Text>}
      <VatSettingsSection settings={current} canEdit={canAdmin} />
    </Page>
  );
}
