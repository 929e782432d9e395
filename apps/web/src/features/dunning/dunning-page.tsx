import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDate, toMoney } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { saveBlob } from '../../lib/save-file';
import { useCan } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import {
  confirmRun,
  dunningKey,
  dunningSettingsQuery,
  fetchReminderPdf,
  runPreviewQuery,
  saveDunningSettings,
  type DunningSettings,
  type Reminder,
  type RunCandidate,
} from './api';
import { useTranslation } from 'react-i18next';

type Delivery = 'email' | 'print';
/** No level yet, or no level chosen. */
const NONE = '–';
type Lang = 'de' | 'fr' | 'it' | 'en';

/**
 * /invoice/dunning (issue 15 §3, decision 030): the dunning run. Lists the overdue sent invoices
 * with what is open, days overdue, current and next level, fee and amount due; the due ones are
 * preselected. Confirming sends the chosen reminders (e-mail to the customer's contacts or for
 * print) in one call; the letters are then downloadable. Below: the reminder levels and accounts.
 */
export function DunningPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canWrite = useCan('write');
  const [date, setDate] = useState<string | null>(null);
  const run = useQuery(runPreviewQuery(date));
  // The user's changes only; by default a due level is selected, e-mailed when there is a contact.
  const [selectedChoice, setSelected] = useState<Record<string, boolean>>({});
  const [deliveryChoice, setDelivery] = useState<Record<string, Delivery>>({});
  const [done, setDone] = useState<Reminder[]>([]);
  const candidates = run.data?.data ?? [];
  const selected = Object.fromEntries(candidates.map((c) => [c.invoice.uuid, selectedChoice[c.invoice.uuid] ?? c.isDue]));
  const delivery = Object.fromEntries(
    candidates.map((c): [string, Delivery] => [c.invoice.uuid, deliveryChoice[c.invoice.uuid] ?? (c.contacts.length > 0 ? 'email' : 'print')]),
  );

  const confirm = useMutation({
    mutationFn: () =>
      confirmRun({
        ...(date ? { date } : {}),
        items: candidates
          .filter((c) => c.isDue && c.nextLevel !== null && selected[c.invoice.uuid])
          .map((c) => ({ invoiceUuid: c.invoice.uuid, level: c.nextLevel!, delivery: delivery[c.invoice.uuid] ?? 'print' })),
      }),
    onSuccess: async (answer) => {
      setDone(answer.data);
      setSelected({});
      await queryClient.invalidateQueries({ queryKey: dunningKey });
      await queryClient.invalidateQueries({ queryKey: ['invoice'] });
    },
  });
  const chosen = candidates.filter((c) => c.isDue && selected[c.invoice.uuid]).length;

  return (
    <Page title={t('Dunning run')}>
      <Group align="end">
        <DateField label={t('Reminder date')} value={date} onChange={setDate} clearable placeholder={t('Today')} w={170} />
        <Text size="sm" c="dimmed">
          {t('Overdue sent invoices with an open amount. Levels that are due are preselected.')}
        </Text>
      </Group>
      {run.isError ? <ErrorAlert what={t('Could not load the run')} error={run.error} /> : null}
      {run.isPending ? <TableSkeleton rows={3} /> : null}
      <Table aria-label={t('Dunning run')} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            <Table.Th>{t('Invoice')}</Table.Th>
            <Table.Th>{t('Customer')}</Table.Th>
            <Table.Th>{t('Due')}</Table.Th>
            <Table.Th className="num">{t('Days overdue')}</Table.Th>
            <Table.Th className="num">{t('Open')}</Table.Th>
            <Table.Th>{t('Level')}</Table.Th>
            <Table.Th>{t('Next level')}</Table.Th>
            <Table.Th className="num">{t('Fee')}</Table.Th>
            <Table.Th className="num">{t('Amount due')}</Table.Th>
            <Table.Th>{t('Delivery')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {run.data && candidates.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={11}>
                <Text c="dimmed" size="sm">
                  {t('No overdue invoices: nothing to remind.')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {candidates.map((c) => (
            <CandidateRow
              key={c.invoice.uuid}
              candidate={c}
              selected={Boolean(selected[c.invoice.uuid])}
              onSelect={(value) => setSelected((s) => ({ ...s, [c.invoice.uuid]: value }))}
              delivery={delivery[c.invoice.uuid] ?? 'print'}
              onDelivery={(value) => setDelivery((d) => ({ ...d, [c.invoice.uuid]: value }))}
            />
          ))}
        </Table.Tbody>
      </Table>
      {canWrite ? (
        <Group>
          <Button onClick={() => confirm.mutate()} loading={confirm.isPending} disabled={chosen === 0}>
            {t('Send {{count}} reminders', { count: chosen })}
          </Button>
        </Group>
      ) : null}
      {confirm.isError ? <ErrorAlert what={t('Could not send the reminders')} error={confirm.error} /> : null}
      {done.length > 0 ? <SentList reminders={done} /> : null}
      <SettingsCard canWrite={canWrite} />
    </Page>
  );
}

function CandidateRow(props: {
  candidate: RunCandidate;
  selected: boolean;
  onSelect: (value: boolean) => void;
  delivery: Delivery;
  onDelivery: (value: Delivery) => void;
}) {
  const { t } = useTranslation();
  const { candidate: c } = props;
  return (
    <Table.Tr>
      <Table.Td>
        <Checkbox
          aria-label={t('Remind {{number}}', { number: c.invoice.refNumber })}
          checked={props.selected && c.isDue}
          disabled={!c.isDue}
          onChange={(event) => props.onSelect(event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={paths.invoiceDetail.getHref(c.invoice.uuid)}>
          {c.invoice.refNumber}
        </Anchor>
      </Table.Td>
      <Table.Td>{c.invoice.company.name}</Table.Td>
      <Table.Td>{formatDate(c.invoice.dateDue)}</Table.Td>
      <Table.Td className="num">{c.daysOverdue}</Table.Td>
      <Table.Td className="num">
        <Amount value={c.openAmount} />
      </Table.Td>
      <Table.Td>{c.currentLevel === 0 ? NONE : c.currentLevel}</Table.Td>
      <Table.Td>
        {c.nextLevel === null ? (
          <Text size="sm" c="dimmed">
            {t('last level sent')}
          </Text>
        ) : (
          <Stack gap={0}>
            <Text size="sm">
              {`${c.nextLevel} · ${c.nextLevelTitle}`}
            </Text>
            {c.isDue ? (
              <Badge size="xs" color="orange" variant="light">
                {t('due')}
              </Badge>
            ) : (
              <Text size="xs" c="dimmed">
                {t('from {{date}}', { date: formatDate(c.nextLevelDate ?? '') })}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td className="num">
        <Amount value={c.fee} />
      </Table.Td>
      <Table.Td className="num">
        <Amount value={c.amountDue} />
      </Table.Td>
      <Table.Td>
        <SegmentedControl
          size="xs"
          aria-label={t('Delivery {{number}}', { number: c.invoice.refNumber })}
          value={props.delivery}
          onChange={(value) => props.onDelivery(value as Delivery)}
          data={[
            { value: 'email', label: t('E-mail'), disabled: c.contacts.length === 0 },
            { value: 'print', label: t('Print') },
          ]}
        />
      </Table.Td>
    </Table.Tr>
  );
}

function SentList({ reminders }: { reminders: Reminder[] }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const pdf = async (reminder: Reminder) => {
    setError(null);
    try {
      saveBlob(await fetchReminderPdf(reminder.uuid), `${reminder.invoice.refNumber}-reminder-${reminder.level}.pdf`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <Alert color="green" variant="light" title={t('Reminders sent')}>
      {error ? <Text c="red">{error}</Text> : null}
      <Stack gap={4}>
        {reminders.map((reminder) => (
          <Group key={reminder.uuid} gap="xs">
            <Text size="sm">
              {`${reminder.invoice.refNumber} · ${reminder.title} · `}
              {reminder.delivery === 'email' ? t('e-mailed ({{number}})', { number: reminder.messageUuids.length }) : t('for print')}
            </Text>
            <Anchor component="button" size="sm" onClick={() => void pdf(reminder)}>
              {t('Letter PDF')}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

type LevelDraft = DunningSettings['levels'][number];

/** The reminder levels (days, fee, title and text per language), the fee account and interest. */
function SettingsCard({ canWrite }: { canWrite: boolean }) {
  const settings = useQuery(dunningSettingsQuery());
  if (!settings.data) return null;
  // A fresh form for each loaded version of the settings (no state copied in an effect).
  return <SettingsForm key={settings.dataUpdatedAt} settings={settings.data} canWrite={canWrite} />;
}

function SettingsForm({ settings: data, canWrite }: { settings: DunningSettings; canWrite: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [levels, setLevels] = useState<LevelDraft[]>(data.levels);
  const [interest, setInterest] = useState<string>(data.interestRate ? toMoney(data.interestRate).times(100).toFixed() : '');
  const [lang, setLang] = useState<Lang>('de');
  const settings = { data };
  const save = useMutation({
    mutationFn: () =>
      saveDunningSettings({
        levels: levels.map((l) => ({ days: l.days, fee: l.fee, texts: l.texts })),
        feeAccountId: data.feeAccount.id,
        interestAccountId: data.interestAccount.id,
        // The percent typed (e.g. 5) as the fraction the API takes ('0.05'), without a binary float.
        interestRate: interest.trim() ? percentToFraction(interest.trim()) : null,
      }),
    onSuccess: async () => queryClient.invalidateQueries({ queryKey: dunningKey }),
  });
  const change = (index: number, patch: Partial<LevelDraft>) => setLevels((all) => all.map((l, i) => (i === index ? { ...l, ...patch } : l)));
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('Reminder levels')}</Text>
        <SegmentedControl size="xs" value={lang} onChange={(v) => setLang(v as Lang)} data={['de', 'fr', 'it', 'en']} aria-label={t('Text language')} />
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t(
          "Level 1 is due the given days after the invoice's due date, each further level the given days after the previous reminder. Fees are posted to {{account}} and added to the invoice's open amount. Placeholders:",
          { account: `${settings.data.feeAccount.number} ${settings.data.feeAccount.name}` },
        )}{' '}
        {Object.keys(settings.data.placeholders)
          .map((p) => `{{${p}}}`)
          .join(' ')}
      </Text>
      <Stack>
        {levels.map((level, index) => (
          <Paper key={index} withBorder p="sm">
            <Group align="end">
              <Text fw={600}>{t('Level {{level}}', { level: index + 1 })}</Text>
              <NumberInput label={t('Days')} value={level.days} min={0} max={3650} w={100} disabled={!canWrite} onChange={(v) => change(index, { days: Number(v) || 0 })} />
              <TextInput label={t('Fee CHF')} value={level.fee} w={120} disabled={!canWrite} onChange={(e) => change(index, { fee: e.currentTarget.value })} />
              <TextInput
                label={t('Title ({{lang}})', { lang })}
                value={level.texts[lang].title}
                style={{ flex: 1 }}
                disabled={!canWrite}
                onChange={(e) => {
                  const title = e.currentTarget.value;
                  change(index, { texts: { ...level.texts, [lang]: { ...level.texts[lang], title } } });
                }}
              />
            </Group>
            <Textarea
              label={t('Text ({{lang}})', { lang })}
              autosize
              minRows={3}
              mt="xs"
              value={level.texts[lang].body}
              disabled={!canWrite}
              onChange={(e) => {
                const body = e.currentTarget.value;
                change(index, { texts: { ...level.texts, [lang]: { ...level.texts[lang], body } } });
              }}
            />
          </Paper>
        ))}
        <Group align="end">
          <TextInput
            label={t('Late-payment interest % p.a.')}
            description={t('Empty = none; 5 % is the Swiss default interest (OR art. 104)')} value={interest} w={260} disabled={!canWrite} onChange={(e) => setInterest(e.currentTarget.value)} />
          <Select
            label={t('Delete level')}
            placeholder={NONE}
            w={140}
            disabled={!canWrite || levels.length <= 1}
            data={levels.map((_, i) => String(i + 1))}
            value={null}
            onChange={(v) => v && setLevels(levels.filter((_, i) => i !== Number(v) - 1))}
          />
          {canWrite ? (
            <>
              <Button variant="default" disabled={levels.length >= 9} onClick={() => setLevels([...levels, { ...levels[levels.length - 1]!, level: levels.length + 1 }])}>
                {t('Add level')}
              </Button>
              <Button onClick={() => save.mutate()} loading={save.isPending}>
                {t('Save levels')}
              </Button>
            </>
          ) : null}
        </Group>
        {save.isError ? <ErrorAlert what={t('Could not save the levels')} error={save.error} /> : null}
        {save.isSuccess ? (
          <Text size="sm" c="green">
            {t('Saved.')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** '5' → '0.05', '4.5' → '0.045': the decimal point moved two places, as text. */
function percentToFraction(percent: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(percent);
  if (!match) return percent; // the server names the field
  const digits = (match[1] ?? '').padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  return `${whole}.${digits.slice(-2)}${match[2] ?? ''}`.replace(/\.?0+$/, '') || '0';
}
