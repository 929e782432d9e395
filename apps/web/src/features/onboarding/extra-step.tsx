import { Group, Select, Stack } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import {
  currencyCodes,
  DEFAULT_CURRENCY,
  DEFAULT_VAT_PERCENT,
  fieldErrors,
  onboardingExtraSchema,
  type OnboardingExtra,
} from '@bilan/domain';
import { applyFieldErrors } from '../../lib/forms';
import { NumericInput } from '../../ui/numeric-input';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface ExtraFormValues {
  vat: string;
  currency: string | null;
}

interface ExtraStepProps {
  value?: OnboardingExtra;
  serverErrors?: Record<string, string>;
  onBack: () => void;
  onDone: (extra: OnboardingExtra) => void;
}

/** Step 4: VAT percent (default 8.1, 1–99) and default currency (default CHF) (spec §2.9, §5, §9). */
export function ExtraStep({ value, serverErrors, onBack, onDone }: ExtraStepProps) {
  const { control, handleSubmit, setError } = useForm<ExtraFormValues>({
    defaultValues: { vat: value ? (value.vat ?? '') : DEFAULT_VAT_PERCENT, currency: value?.currency ?? DEFAULT_CURRENCY },
  });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit((values) => {
    const vat = values.vat.endsWith('.') ? values.vat.slice(0, -1) : values.vat;
    const parsed = onboardingExtraSchema.safeParse({ vat, currency: values.currency ?? '' });
    if (!parsed.success) {
      applyFieldErrors(setError, fieldErrors(parsed.error), ['vat', 'currency']);
      return;
    }
    onDone(parsed.data);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Group align="flex-start" grow>
          <Controller
            control={control}
            name="vat"
            render={({ field, fieldState }) => (
              <NumericInput
                label="VAT"
                description="Standard rate in percent"
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
                label="Default currency"
                description="The currency your books are kept in"
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
        <StepActions onBack={onBack} nextLabel="Finish" />
      </Stack>
    </form>
  );
}
