import { Grid, Select, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { addressSchema, Country, type Address } from '@bilan/domain';
import { countryOptions } from '../../lib/i18n';
import { payloadResolver } from '../../lib/forms';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface AddressFormValues {
  street: string;
  houseNumber: string;
  zip: string;
  city: string;
  country: string | null;
}

const fields = ['street', 'houseNumber', 'zip', 'city', 'country'] as const;
/** The step's part of /instance/init, checked by `addressSchema` here and on the server. */
const toPayload = (values: AddressFormValues) => ({
  street: values.street,
  houseNumber: values.houseNumber.trim() || null,
  zip: values.zip,
  city: values.city,
  country: values.country ? { id: Number(values.country) } : null,
});

interface AddressStepProps {
  value?: Address;
  serverErrors?: Record<string, string>;
  onBack: () => void;
  onDone: (address: Address) => void;
}

/** Step 2: the company's address (spec §5: street, zip, city and country each required). */
export function AddressStep({ value, serverErrors, onBack, onDone }: AddressStepProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm<AddressFormValues, unknown, Address>({
    resolver: payloadResolver(addressSchema, toPayload, { known: fields, formPath: (path) => path.replace(/^country\.id$/, 'country') }),
    defaultValues: {
      street: value?.street ?? '',
      houseNumber: value?.houseNumber ?? '',
      zip: value?.zip ?? '',
      city: value?.city ?? '',
      country: String(value?.country.id ?? Country.Switzerland),
    },
  });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit(onDone);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 9 }}>
            <Controller
              control={control}
              name="street"
              render={({ field, fieldState }) => (
                <TextInput label={t('Street')} required autoFocus autoComplete="address-line1" {...field} error={fieldState.error?.message} />
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 3 }}>
            <Controller
              control={control}
              name="houseNumber"
              render={({ field, fieldState }) => <TextInput label={t('House number')} {...field} error={fieldState.error?.message} />}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 3 }}>
            <Controller
              control={control}
              name="zip"
              render={({ field, fieldState }) => (
                <TextInput label={t('ZIP')} required autoComplete="postal-code" {...field} error={fieldState.error?.message} />
              )}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 9 }}>
            <Controller
              control={control}
              name="city"
              render={({ field, fieldState }) => (
                <TextInput label={t('City')} required autoComplete="address-level2" {...field} error={fieldState.error?.message} />
              )}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Controller
              control={control}
              name="country"
              render={({ field, fieldState }) => (
                <Select
                  label={t('Country')}
                  required
                  searchable
                  data={countryOptions()}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldState.error?.message}
                />
              )}
            />
          </Grid.Col>
        </Grid>
        <StepActions onBack={onBack} error={formState.errors.root?.message} />
      </Stack>
    </form>
  );
}
