import { Group, Select, Stack } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  currencyCodes,
  DEFAULT_CURRENCY,
  DEFAULT_VAT_PERCENT,
  onboardingExtraSchema,
  type OnboardingExtra,
} from '@bilan/domain';
import { payloadResolver } from '../../lib/forms';
import { NumericInput } from '../../ui/numeric-input';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface ExtraFormValues {
  vat: string;
  currency: string | null;
}

/** The step's part of /instance/init; a VAT typed as '8.' counts as '8'. */
const toPayload = (values: ExtraFormValues) => ({ vat: values.vat.endsWith('.') ? values.vat.slice(0, -1) : values.vat, currency: values.currency ?? '' });

interface ExtraStepProps {
  value?: OnboardingExtra;
  serverErrors?: Record<string, string>;
  onBack: () => void;
  onDone: (extra: OnboardingExtra) => void;
}

/** Step 4: VAT percent (default 8.1, 1–99) and default currency (default CHF) (spec §2.9, §5, §9). */
export function ExtraStep({ value, serverErrors, onBack, onDone }: ExtraStepProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm<ExtraFormValues, unknown, OnboardingExtra>({
    defaultValues: { vat: value ? (value.vat ?? '') : DEFAULT_VAT_PERCENT, currency: value?.currency ?? DEFAULT_CURRENCY },
    resolver: payloadResolver(onboardingExtraSchema, toPayload, { known: ['vat', 'currency'] }),
  });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit(onDone);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Group align="flex-start" grow>
          <Controller
            control={control}
            name="vat"
            render={({ field, fieldState }) => (
              <NumericInput
                label={t('VAT')}
                description={t('Standard rate in percent')}
                allowDecimal
                maxDecimals={3}
                rightSection="%"
                {...field}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="currency"
            render={({ field, fieldState }) => (
              <Select
                label={t('Default currency')}
                description={t('The currency your books are kept in')}
                required
                searchable
                data={currencyCodes}
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error?.message}
              />
            )}
          />
        </Group>
        <StepActions onBack={onBack} nextLabel={t('Finish')} error={formState.errors.root?.message} />
      </Stack>
    </form>
  );
}
