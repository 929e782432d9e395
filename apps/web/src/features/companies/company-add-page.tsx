import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { companyInsertSchema, type CompanyInsert } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { Page } from '../../ui/page';
import { AddressFields, addressPayload, emptyAddress, type AddressFormValues } from './address-fields';
import { companiesKey, insertCompany } from './api';
import { useTranslation } from 'react-i18next';

interface FormValues {
  name: string;
  uid: string;
  withAddress: boolean;
  address: AddressFormValues;
}

const known = ['name', 'uid', 'address'] as const;
const toFormPath = (path: string) => path.replace(/^data\./, '').replace(/\.country\.id$/, '.country');
/** The body's `data` of /company/insert, checked by `companyInsertSchema` here and on the server. */
const toPayload = (values: FormValues) => ({ name: values.name, uid: values.uid.trim() || null, address: values.withAddress ? addressPayload(values.address) : null });

/** /company/add: name, UID (eCH-0097) and the structured address. */
export function CompanyAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<FormValues, unknown, CompanyInsert>({
    defaultValues: { name: '', uid: '', withAddress: true, address: emptyAddress },
    resolver: payloadResolver(companyInsertSchema, toPayload, { known, formPath: toFormPath }),
  });
  const withAddress = useWatch({ control, name: 'withAddress' });

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      const company = await insertCompany(data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      void navigate(paths.company.getHref(company.uuid, 'general'));
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, toFormPath);
      setFailure(rest.length ? rest.join('; ') : Object.keys(serverFieldErrors(error)).length ? null : errorMessage(error));
    }
  });

  return (
    <Page title={t('Create Company')}>
      <Paper withBorder p="lg" maw={720}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="sm">
            <Controller
              control={control}
              name="name"
              render={({ field, fieldState }) => <TextInput label={t('Name')} required autoFocus {...field} error={fieldState.error?.message} />}
            />
            <Controller
              control={control}
              name="uid"
              render={({ field, fieldState }) => (
                <TextInput label="UID" description={t('Swiss business identification number, optional')} placeholder="CHE-123.456.789" {...field} error={fieldState.error?.message} />
              )}
            />
            <Controller
              control={control}
              name="withAddress"
              render={({ field }) => <Checkbox label={t('Add an address')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} mt="xs" />}
            />
            {withAddress ? (
              <>
                <Title order={2} size="h5">
                  {t('Address')}
                </Title>
                <AddressFields control={control} prefix="address" />
              </>
            ) : null}
            {failure || formState.errors.root ? (
              <Alert color="red" variant="light" role="alert">
                {failure ?? formState.errors.root?.message}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => void navigate(paths.companies.getHref())}>
                {t('Cancel')}
              </Button>
              <Button type="submit" loading={formState.isSubmitting}>
                {t('Create company')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Page>
  );
}
