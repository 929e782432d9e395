import { ActionIcon, Button, Grid, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FIRST_ONBOARDING_LEDGER_CODE,
  instanceInitAccountsSchema,
  normalizeIban,
  PaymentProfileType,
  type OnboardingBankAccount,
} from '@bilan/domain';
import { payloadResolver } from '../../lib/forms';
import { msg } from '../../lib/i18n';
import { NumericInput } from '../../ui/numeric-input';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface AccountRow {
  ledgerCode: string;
  name: string;
  iban: string;
  bic: string;
  type: string;
}

interface BankAccountsFormValues {
  accounts: AccountRow[];
}

const typeOptions = [
  { value: String(PaymentProfileType.Iban), label: 'IBAN' },
  { value: String(PaymentProfileType.QrBill), label: msg('QR bill') },
];

/** The first proposed account is 1000 'Bank', later ones 1000 + count (spec §2.9, §9). */
const proposedRow = (count: number): AccountRow => ({
  ledgerCode: String(FIRST_ONBOARDING_LEDGER_CODE + count),
  name: 'Bank',
  iban: '',
  bic: '',
  type: String(PaymentProfileType.Iban),
});

const toRow = (account: OnboardingBankAccount): AccountRow => ({
  ledgerCode: String(account.ledgerCode),
  name: account.name,
  iban: account.iban,
  bic: account.bic ?? '',
  type: String(account.type),
});

/** The accounts of /instance/init/accounts, checked (with distinct ledger codes) as the server checks them. */
const accountsSchema = instanceInitAccountsSchema.pick({ accounts: true });
const toPayload = (values: BankAccountsFormValues) => ({
  accounts: values.accounts.map((row) => ({
    ledgerCode: row.ledgerCode === '' ? undefined : Number(row.ledgerCode),
    name: row.name,
    iban: normalizeIban(row.iban),
    bic: row.bic.trim().toUpperCase() || null,
    type: Number(row.type),
  })),
});

interface BankAccountsStepProps {
  value?: OnboardingBankAccount[];
  serverErrors?: Record<string, string>;
  onBack: () => void;
  onDone: (accounts: OnboardingBankAccount[]) => void;
}

/** Step 3: at least one bank account; IBAN/QR-IBAN/BIC checked with the domain rules (spec §5). */
export function BankAccountsStep({ value, serverErrors, onBack, onDone }: BankAccountsStepProps) {
  const { t } = useTranslation();
  const { control, handleSubmit, setError, formState } = useForm<BankAccountsFormValues, unknown, { accounts: OnboardingBankAccount[] }>({
    defaultValues: { accounts: value?.length ? value.map(toRow) : [proposedRow(0)] },
    resolver: payloadResolver(accountsSchema, toPayload, { known: ['accounts'] }),
  });
  const rows = useFieldArray({ control, name: 'accounts' });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit((data) => onDone(data.accounts));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t(
            'Each bank account becomes a ledger account in your chart of accounts and a payment profile for invoices. Your books start from the Swiss SME chart, where 1000 is the cash account (Kasse) and 1020–1029 are bank accounts: keep 1000 and the cash account moves to the next free number, or use 1020.',
          )}
        </Text>
        {rows.fields.map((row, index) => (
          <Paper key={row.id} withBorder p="sm" radius="md">
            <Grid gap="sm" align="flex-start">
              <Grid.Col span={{ base: 4, sm: 2 }}>
                <Controller
                  control={control}
                  name={`accounts.${index}.ledgerCode`}
                  render={({ field, fieldState }) => (
                    <NumericInput label={t('Ledger code')} required maxLength={4} {...field} error={fieldState.error?.message} />
                  )}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 8, sm: 4 }}>
                <Controller
                  control={control}
                  name={`accounts.${index}.name`}
                  render={({ field, fieldState }) => <TextInput label={t('Name')} required {...field} error={fieldState.error?.message} />}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 3 }}>
                <Controller
                  control={control}
                  name={`accounts.${index}.type`}
                  render={({ field, fieldState }) => (
                    <Select
                      label={t('Type')}
                      required
                      data={typeOptions.map((option) => ({ ...option, label: t(option.label) }))}
                      allowDeselect={false}
                      value={field.value}
                      onChange={(next) => field.onChange(next ?? '')}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 3 }}>
                <Group justify="flex-end" mt={{ base: 0, sm: 24 }}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t('Remove bank account {{number}}', { number: index + 1 })}
                    disabled={rows.fields.length <= 1}
                    onClick={() => rows.remove(index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 8 }}>
                <Controller
                  control={control}
                  name={`accounts.${index}.iban`}
                  render={({ field, fieldState }) => (
                    <TextInput
                      label="IBAN"
                      required
                      placeholder="CH93 0076 2011 6238 5295 7"
                      autoComplete="off"
                      spellCheck={false}
                      {...field}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <Controller
                  control={control}
                  name={`accounts.${index}.bic`}
                  render={({ field, fieldState }) => (
                    <TextInput label="BIC" placeholder="UBSWCHZH80A" autoComplete="off" spellCheck={false} {...field} error={fieldState.error?.message} />
                  )}
                />
              </Grid.Col>
            </Grid>
          </Paper>
        ))}
        <Button
          variant="subtle"
          leftSection={<IconPlus size={16} />}
          onClick={() => rows.append(proposedRow(rows.fields.length))}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('Add bank account')}
        </Button>
        <StepActions onBack={onBack} error={formState.errors.root?.message} />
      </Stack>
    </form>
  );
}
