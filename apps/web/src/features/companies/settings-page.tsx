import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { currencyCodes, formatDate, instanceSettingsSchema, vatRateToPercent, type InstanceSettings } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { useSession } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { companiesKey, instanceDetailQuery, instanceKey, updateInstance, type InstanceDetail } from './api';
import { UidLink } from './uid-link';
import { canAdmin, countryLabel } from './labels';
import { PaymentProfiles } from './payment-profiles';
import { useTranslation } from 'react-i18next';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">{label}</Text>
      {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
    </div>
  );
}

interface FormValues {
  name: string;
  vat: string;
  vatNumber: string;
  currency: string | null;
}

const known = ['name', 'vat', 'vatNumber', 'currency'];
/** The body's `data` of /instance/update, checked by `instanceSettingsSchema` here and on the server. */
const toPayload = (values: FormValues) => ({ name: values.name, vat: values.vat.trim(), vatNumber: values.vatNumber.trim() || null, currency: values.currency ?? undefined });

function SettingsForm({ instance, onDone }: { instance: InstanceDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<FormValues, unknown, InstanceSettings>({
    resolver: payloadResolver(instanceSettingsSchema, toPayload, { known }),
    defaultValues: {
      name: instance.name,
      vat: instance.vatRate ? vatRateToPercent(instance.vatRate) : '',
      vatNumber: instance.vatNumber ?? '',
      currency: instance.currency,
    },
  });
  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      await updateInstance(data);
      await queryClient.invalidateQueries({ queryKey: instanceKey });
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('Settings saved.') });
      onDone();
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, (p) => p.replace(/^data\./, ''));
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm" maw={520}>
        <Controller control={control} name="name" render={({ field, fieldState }) => <TextInput label={t('Name')} required {...field} error={fieldState.error?.message} />} />
        <Controller
          control={control}
          name="vat"
          render={({ field, fieldState }) => <TextInput label={t('VAT rate (%)')} placeholder="8.1" inputMode="decimal" {...field} error={fieldState.error?.message} />}
        />
        <Controller
          control={control}
          name="vatNumber"
          render={({ field, fieldState }) => <TextInput label={t('VAT number')} placeholder="CHE-123.456.789 MWST" {...field} error={fieldState.error?.message} />}
        />
        <Controller
          control={control}
          name="currency"
          render={({ field, fieldState }) => (
            <Select label={t('Default currency')} data={[...currencyCodes]} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        {failure || formState.errors.root ? <Alert color="red" variant="light" role="alert">{failure ?? formState.errors.root?.message}</Alert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>{t('Cancel')}</Button>
          <Button type="submit" loading={formState.isSubmitting}>{t('Save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /settings (spec §2.7): General Settings (owner/admin may edit) and Payment Configuration. */
/** /settings; `extra` adds cards of other features below (the route composes them: features never import each other). */
export function SettingsPage({ extra }: { extra?: ReactNode } = {}) {
  const { t } = useTranslation();
  const { profile } = useSession();
  const admin = canAdmin(profile?.permissions);
  const instance = useQuery(instanceDetailQuery());
  const [editing, setEditing] = useState(false);

  return (
    <Page title={t('Settings')}>
      {instance.isError ? <ErrorAlert what={t('Could not load the settings')} error={instance.error} onRetry={() => void instance.refetch()} /> : null}
      {!instance.data && !instance.isError ? <TableSkeleton rows={5} /> : null}
      {instance.data ? (
        <>
          <Paper withBorder p="lg">
            <Group justify="space-between" mb="md">
              <Title order={2} size="h4">{t('General Settings')}</Title>
              {admin && !editing ? <Button variant="default" size="xs" onClick={() => setEditing(true)}>{t('Edit')}</Button> : null}
            </Group>
            {editing ? (
              <SettingsForm instance={instance.data} onDone={() => setEditing(false)} />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
                <Field label={t('Name')}>{instance.data.name}</Field>
                <Field label={t('Company')}>
                  {instance.data.address ? (
                    <Anchor component={Link} to={paths.company.getHref(instance.data.address.company.uuid, 'general')} size="sm">
                      {instance.data.address.company.name}
                    </Anchor>
                  ) : (
                    '-'
                  )}
                </Field>
                <Field label={t('Address')}>
                  {instance.data.address
                    ? `${instance.data.address.street}${instance.data.address.houseNumber ? ` ${instance.data.address.houseNumber}` : ''}, ${instance.data.address.zip} ${instance.data.address.city}, ${countryLabel(instance.data.address.country.id)}`
                    : '-'}
                </Field>
                <Field label={t('Date added')}>{formatDate(instance.data.dateAdded)}</Field>
                <Field label={t('VAT rate')}>{instance.data.vatRate ? `${vatRateToPercent(instance.data.vatRate)} %` : '-'}</Field>
                <Field label={t('VAT number')}>
                  <UidLink uid={instance.data.vatNumber} />
                </Field>
                <Field label={t('Default currency')}>{instance.data.currency}</Field>
                <Field label={t('Instance id')}>
                  <Text size="sm" ff="monospace">{instance.data.uuid}</Text>
                </Field>
              </SimpleGrid>
            )}
          </Paper>
          {instance.data.address ? (
            <Paper withBorder p="lg">
              <PaymentProfiles companyUuid={instance.data.address.company.uuid} editable={admin} />
            </Paper>
          ) : null}
          {extra}
        </>
      ) : null}
    </Page>
  );
}
