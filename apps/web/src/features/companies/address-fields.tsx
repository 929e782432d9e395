import { Grid, Select, TextInput } from '@mantine/core';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { countryOptions } from './labels';
import { useTranslation } from 'react-i18next';

export interface AddressFormValues {
  street: string;
  houseNumber: string;
  zip: string;
  city: string;
  country: string | null;
}

export const emptyAddress: AddressFormValues = { street: '', houseNumber: '', zip: '', city: '', country: '1' };

/** Form values → the API's structured address (QR-bill type S: street and house number apart). */
export const addressPayload = (a: AddressFormValues) => ({
  street: a.street,
  houseNumber: a.houseNumber.trim() || null,
  zip: a.zip,
  city: a.city,
  country: a.country ? { id: Number(a.country) } : (null as unknown as { id: 1 }),
});

/** Street, house number, ZIP, city and country inputs bound to `prefix` of a react-hook-form form (with or without a resolver's payload type `O`). */
export function AddressFields<T extends FieldValues, O = T>({ control, prefix }: { control: Control<T, unknown, O>; prefix: string }) {
  const { t } = useTranslation();
  const name = (field: keyof AddressFormValues) => (prefix ? `${prefix}.${field}` : field) as Path<T>;
  return (
    <Grid gap="sm">
      <Grid.Col span={{ base: 12, sm: 9 }}>
        <Controller
          control={control}
          name={name('street')}
          render={({ field, fieldState }) => <TextInput label={t('Street')} required autoComplete="address-line1" {...field} error={fieldState.error?.message} />}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <Controller
          control={control}
          name={name('houseNumber')}
          render={({ field, fieldState }) => <TextInput label={t('House number')} {...field} error={fieldState.error?.message} />}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <Controller
          control={control}
          name={name('zip')}
          render={({ field, fieldState }) => <TextInput label={t('ZIP')} required autoComplete="postal-code" {...field} error={fieldState.error?.message} />}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 9 }}>
        <Controller
          control={control}
          name={name('city')}
          render={({ field, fieldState }) => <TextInput label={t('City')} required autoComplete="address-level2" {...field} error={fieldState.error?.message} />}
        />
      </Grid.Col>
      <Grid.Col span={12}>
        <Controller
          control={control}
          name={name('country')}
          render={({ field, fieldState }) => (
            <Select label={t('Country')} required searchable data={countryOptions()} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
      </Grid.Col>
    </Grid>
  );
}
