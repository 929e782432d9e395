import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  currencyCodes,
  defaultAccountType,
  ledgerAccountSchema,
  type LedgerAccountInput,
} from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { useSession } from '../../lib/session';
import { NumericInput } from '../../ui/numeric-input';
import { accountingKey, insertAccount, updateAccount, type LedgerAccount } from './api';
import { accountTypeLabel, accountTypeOptions, functionTypeOptions } from './labels';

interface AccountFormValues {
  number: string;
  name: string;
  currency: string;
  type: string | null;
  functionType: string | null;
}

const fields = ['number', 'name', 'currency', 'type', 'functionType'] as const;

/** The payload of account/insert and account/update; `ledgerAccountSchema` checks it in the form and on the server. */
const toPayload = (values: AccountFormValues) => ({
  number: values.number,
  name: values.name,
  currency: values.currency,
  ...(values.type ? { type: Number(values.type) } : {}),
  functionType: values.functionType ? Number(values.functionType) : null,
});

interface AccountModalProps {
  opened: boolean;
  /** The account to edit; none creates one. */
  account: LedgerAccount | null;
  onClose: () => void;
}

function AccountForm({ account, onClose }: { account: LedgerAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm<AccountFormValues, unknown, LedgerAccountInput>({
    resolver: payloadResolver(ledgerAccountSchema, toPayload),
    defaultValues: account
      ? {
          number: account.number,
          name: account.name,
          currency: account.currency,
          type: String(account.type.id),
          functionType: account.functionType ? String(account.functionType.id) : null,
        }
      : { number: '', name: '', currency: profile?.instance.currency ?? 'CHF', type: null, functionType: null },
  });
  const number = useWatch({ control, name: 'number' });

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      if (account) await updateAccount(account.id, data);
      else await insertAccount(data);
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      onClose();
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), fields, (path) => path.replace(/^data\./, ''));
      if (rest.length || Object.keys(serverFieldErrors(error)).length === 0) setFailure(errorMessage(error));
    }
  });

  const defaultType = /^\d/.test(number) ? accountTypeLabel(defaultAccountType(number)) : null;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Controller
          control={control}
          name="number"
          render={({ field, fieldState }) => (
            <NumericInput label={t('Number')} required data-autofocus maxLength={10} {...field} error={fieldState.error?.message} />
          )}
        />
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => <TextInput label={t('Name')} required {...field} error={fieldState.error?.message} />}
        />
        <Controller
          control={control}
          name="currency"
          render={({ field, fieldState }) => (
            <Select
              label={t('Currency')}
              required
              searchable
              data={currencyCodes}
              allowDeselect={false}
              value={field.value}
              onChange={(value) => field.onChange(value ?? '')}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="type"
          render={({ field, fieldState }) => (
            <Select
              label={t('Type')}
              clearable
              placeholder={defaultType ? t('{{type}} (from the number)', { type: t(defaultType) }) : t('From the number')}
              description={t('Left empty, the first digit decides: 1 assets, 2 liabilities, 3 revenue, otherwise expenses.')}
              data={accountTypeOptions.map((option) => ({ ...option, label: t(option.label) }))}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="functionType"
          render={({ field, fieldState }) => (
            <Select
              label={t('Used for')}
              clearable
              placeholder={t('Nothing special')}
              data={functionTypeOptions.map((option) => ({ ...option, label: t(option.label) }))}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {account ? t('Save') : t('Create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create or edit a ledger account; messages from ledgerAccountSchema and the server per field. */
export function AccountModal({ opened, account, onClose }: AccountModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={account ? t('Edit account {{number}}', { number: account.number }) : t('New ledger account')}
      centered
    >
      {opened ? <AccountForm key={account?.id ?? 'new'} account={account} onClose={onClose} /> : null}
    </Modal>
  );
}
