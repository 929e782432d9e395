import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { defaultVatPeriod, formatDate, vatSettingsSchema, type VatMethod, type VatPeriodKind, type VatSettingsInput } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { useSingleFlight } from '../../lib/single-flight';
import { DateField } from '../../ui/date-field';
import { AccountSelect } from './account-select';
import { instanceVatNumberQuery, updateVatSettings, vatKey, type VatSettings } from './vat-api';

/** English texts, shown through t(). */
export const METHOD_LABELS: Record<VatMethod, string> = { effective: msg('Effective method'), net: msg('Net tax rate method (Saldosteuersatz)') };
export const BASIS_LABELS = { agreed: msg('Agreed consideration (by invoice date)'), received: msg('Received consideration (by payment date)') } as const;
export const PERIOD_LABELS: Record<VatPeriodKind, string> = { monthly: msg('Monthly'), quarterly: msg('Quarterly'), 'half-yearly': msg('Half-yearly'), yearly: msg('Yearly') };

interface RateValues {
  ratePercent: string;
  accountFrom: string;
  accountTo: string;
  previousRatePercent: string;
}

interface FormValues {
  vatNumber: string;
  registrationDate: string | null;
  method: VatMethod;
  netTaxRates: RateValues[];
  period: VatPeriodKind;
  basis: 'agreed' | 'received';
  settlementAccount: number | null;
}

const known = ['vatNumber', 'registrationDate', 'method', 'netTaxRates', 'period', 'basis', 'settlementAccount'];

/** The body's `data` of vat/settings/update, checked by `vatSettingsSchema` here and on the server. */
const toPayload = (values: FormValues): VatSettingsInput => ({
  vatNumber: values.vatNumber.trim(),
  registrationDate: values.registrationDate ?? '',
  method: values.method,
  netTaxRates:
    values.method === 'net'
      ? values.netTaxRates.map((rate) => ({
          ratePercent: rate.ratePercent.trim(),
          accountFrom: rate.accountFrom.trim() || null,
          accountTo: rate.accountTo.trim() || null,
          previousRatePercent: rate.previousRatePercent.trim() || null,
        }))
      : [],
  period: values.period,
  basis: values.basis,
  settlementAccount: values.settlementAccount === null ? null : { id: values.settlementAccount },
});

/** The VAT registration form (owner and admin): number, date, method with its rates, period, basis, settlement account. */
export function VatSettingsForm({ settings, onDone }: { settings: VatSettings | null; onDone?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const instanceVatNumber = useQuery({ ...instanceVatNumberQuery(), enabled: settings === null });
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState, setValue } = useForm<FormValues, unknown, VatSettingsInput>({
    resolver: payloadResolver(vatSettingsSchema, toPayload, { known }),
    defaultValues: {
      vatNumber: settings?.vatNumber ?? '',
      registrationDate: settings?.registrationDate ?? null,
      method: settings?.method ?? 'effective',
      netTaxRates: settings?.netTaxRates.length
        ? settings.netTaxRates.map((rate) => ({ ratePercent: rate.ratePercent, accountFrom: rate.accountFrom ?? '', accountTo: rate.accountTo ?? '', previousRatePercent: rate.previousRatePercent ?? '' }))
        : [{ ratePercent: '', accountFrom: '', accountTo: '', previousRatePercent: '' }],
      period: settings?.period ?? 'quarterly',
      basis: settings?.basis ?? 'agreed',
      settlementAccount: settings && !settings.settlementAccount.isDefault ? settings.settlementAccount.id : null,
    },
  });
  const rates = useFieldArray({ control, name: 'netTaxRates' });
  const method = useWatch({ control, name: 'method' });
  const vatNumber = useWatch({ control, name: 'vatNumber' });
  const proposed = settings === null && !vatNumber ? instanceVatNumber.data : null;

  const save = useMutation({
    mutationFn: updateVatSettings,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: vatKey });
      notifications.show({ color: 'green', message: t('VAT settings saved.') });
      onDone?.();
    },
    onError: (error) => {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, (path) => path.replace(/^data\./, '').replace(/^settlementAccount\.id$/, 'settlementAccount'));
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    },
  });
  const send = useSingleFlight(save.mutateAsync);
  const submit = handleSubmit((data) => {
    setFailure(null);
    send(data);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={t('VAT settings')}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Controller
            control={control}
            name="vatNumber"
            render={({ field, fieldState }) => (
              <TextInput
                label={t('VAT number')}
                placeholder="CHE-123.456.789 MWST"
                required
                {...field}
                error={fieldState.error?.message}
                description={proposed ? t('From the settings: {{number}}', { number: proposed }) : undefined}
                rightSection={
                  proposed ? (
                    <Button size="compact-xs" variant="subtle" onClick={() => setValue('vatNumber', /\s(MWST|TVA|IVA)$/.test(proposed) ? proposed : `${proposed} MWST`)}>
                      {t('Use')}
                    </Button>
                  ) : null
                }
                rightSectionWidth={proposed ? 56 : undefined}
              />
            )}
          />
          <Controller
            control={control}
            name="registrationDate"
            render={({ field, fieldState }) => <DateField label={t('Registered since')} required value={field.value} onChange={field.onChange} error={fieldState.error?.message} />}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="method"
          render={({ field }) => (
            <div>
              <Text size="sm" fw={500} mb={4}>{t('Method')}</Text>
              <SegmentedControl
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  // The net tax rate method reports half-yearly unless the ESTV agreed otherwise.
                  setValue('period', defaultVatPeriod(value as VatMethod));
                }}
                data={[
                  { value: 'effective', label: t('Effective') },
                  { value: 'net', label: t('Net tax rate') },
                ]}
              />
            </div>
          )}
        />
        {method === 'net' ? (
          <Paper withBorder p="sm">
            <Stack gap="xs">
              <Text size="sm" fw={500}>{t('Approved net tax rates')}</Text>
              <Text size="xs" c="dimmed">
                {t(
                  "Turnover including VAT on the revenue accounts of a range goes to that rate; turnover on no rate's accounts to the first. Supplies made up to 31.12.2023 are taxed at the rate approved then (figures 321/331) when you enter it.",
                )}
              </Text>
              {rates.fields.map((item, index) => (
                <Group key={item.id} align="flex-start" gap="xs" wrap="nowrap">
                  <Controller
                    control={control}
                    name={`netTaxRates.${index}.ratePercent`}
                    render={({ field, fieldState }) => <TextInput label={t('Rate {{number}} (%)', { number: index + 1 })} placeholder="6.5" w={110} {...field} error={fieldState.error?.message} />}
                  />
                  <Controller
                    control={control}
                    name={`netTaxRates.${index}.previousRatePercent`}
                    render={({ field, fieldState }) => (
                      <TextInput label={t('Up to 2023 (%)')} placeholder={t('same')} w={120} {...field} error={fieldState.error?.message} />
                    )}
                  />
                  <Controller
                    control={control}
                    name={`netTaxRates.${index}.accountFrom`}
                    render={({ field, fieldState }) => <TextInput label={t('Accounts from')} placeholder="3000" w={130} {...field} error={fieldState.error?.message} />}
                  />
                  <Controller
                    control={control}
                    name={`netTaxRates.${index}.accountTo`}
                    render={({ field, fieldState }) => <TextInput label={t('to')} placeholder="3999" w={130} {...field} error={fieldState.error?.message} />}
                  />
                  {rates.fields.length > 1 ? (
                    <ActionIcon variant="subtle" color="red" mt={26} aria-label={t('Remove rate {{number}}', { number: index + 1 })} onClick={() => rates.remove(index)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  ) : null}
                </Group>
              ))}
              {rates.fields.length < 2 ? (
                <Button variant="subtle" size="xs" w="fit-content" leftSection={<IconPlus size={14} />} onClick={() => rates.append({ ratePercent: '', accountFrom: '', accountTo: '', previousRatePercent: '' })}>
                  {t('Second rate')}
                </Button>
              ) : null}
              {formState.errors.netTaxRates?.message ? <Text size="xs" c="red">{formState.errors.netTaxRates.message}</Text> : null}
            </Stack>
          </Paper>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Controller
            control={control}
            name="period"
            render={({ field, fieldState }) => (
              <Select
                label={t('Period')}
                data={Object.entries(PERIOD_LABELS).map(([value, label]) => ({ value, label: t(label) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? 'quarterly')}
                allowDeselect={false}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="basis"
            render={({ field, fieldState }) => (
              <Select
                label={t('Basis')}
                data={Object.entries(BASIS_LABELS).map(([value, label]) => ({ value, label: t(label) }))}
                value={field.value}
                onChange={(value) => field.onChange(value ?? 'agreed')}
                allowDeselect={false}
                error={fieldState.error?.message}
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="settlementAccount"
          render={({ field, fieldState }) => (
            <AccountSelect
              label={t('Settlement account')}
              description={t('The account a filed return moves the VAT to (the amount owed to or claimed from the ESTV).')}
              placeholder={t('2209 Abrechnungskonto MWST (default, created on the first filing)')}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        {failure || formState.errors.root ? (
          <Alert color="red" variant="light" role="alert">
            {failure ?? formState.errors.root?.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          {onDone && settings ? (
            <Button variant="default" onClick={onDone}>
              {t('Cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={save.isPending}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/** The settings section of the VAT page: the registration at a glance, editable by owner and admin. */
export function VatSettingsSection({ settings, canEdit }: { settings: VatSettings; canEdit: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const rates = settings.netTaxRates
    .map(
      (rate) =>
        `${rate.ratePercent} %${rate.previousRatePercent ? ` ${t('(up to 2023: {{rate}} %)', { rate: rate.previousRatePercent })}` : ''}${rate.accountFrom || rate.accountTo ? ` ${t('(accounts {{from}}–{{to}})', { from: rate.accountFrom ?? '…', to: rate.accountTo ?? '…' })}` : ''}`,
    )
    .join(', ');
  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          {t('VAT settings')}
        </Title>
        {canEdit && !editing ? (
          <Button variant="default" size="xs" onClick={() => setEditing(true)}>
            {t('Edit')}
          </Button>
        ) : null}
      </Group>
      {editing ? (
        <VatSettingsForm settings={settings} onDone={() => setEditing(false)} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
          <Fact label={t('VAT number')}>{settings.vatNumber}</Fact>
          <Fact label={t('Registered since')}>{formatDate(settings.registrationDate)}</Fact>
          <Fact label={t('Method')}>
            {t(METHOD_LABELS[settings.method])}
            {settings.method === 'net' ? `: ${rates}` : ''}
          </Fact>
          <Fact label={t('Period')}>{t(PERIOD_LABELS[settings.period])}</Fact>
          <Fact label={t('Basis')}>{t(BASIS_LABELS[settings.basis])}</Fact>
          <Fact label={t('Settlement account')}>
            {settings.settlementAccount.number} {settings.settlementAccount.name}
            {settings.settlementAccount.id === null ? ` ${t('(created on the first filing)')}` : ''}
          </Fact>
        </SimpleGrid>
      )}
    </Paper>
  );
}
