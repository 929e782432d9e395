import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatAmount, journalEntrySchema, validationMessages, VAT_ACCOUNT_NAMES, type JournalEntryInput, type VatSplitCode } from '@bilan/domain';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { serverFieldErrors } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { AccountSelect } from './account-select';
import { LockNotice } from '../../ui/lock-notice';
import { accountListQuery, vatCodeListQuery, type JournalEntry, type VatCodeRow } from './api';
import {
  emptyLine,
  entryToFormValues,
  formPath,
  isBlankLine,
  newEntryValues,
  previewEntry,
  toPayload,
  typedAmount,
  type EntryFormValues,
} from './entry-lines';
import { WriteError } from './write-error';

type Codes = ReadonlyMap<string, VatSplitCode>;
type FormControl = Control<EntryFormValues, unknown, JournalEntryInput>;

/** The entry as it will be posted (after the VAT split), from the live form values. */
function usePreview(control: FormControl, codes: Codes) {
  const [dateLedger, lines] = useWatch({ control, name: ['dateLedger', 'lines'] });
  return previewEntry({ dateLedger, description: '', lines }, codes);
}

function Difference({ control, codes }: { control: FormControl; codes: Codes }) {
  const { t } = useTranslation();
  const { debit, credit, difference, hasVat } = usePreview(control, codes);
  const balanced = difference.isZero();
  const empty = debit.isZero() && credit.isZero();
  return (
    <Table.Tr className="totals">
      <Table.Td>
        <Group gap="xs">
          <Text fw={600} span>
            {t('Difference')}
          </Text>
          <Badge color={empty ? 'gray' : balanced ? 'green' : 'red'} variant="light" className="amount" aria-live="polite">
            {formatAmount(difference)}
          </Badge>
          {hasVat ? (
            <Text size="xs" c="dimmed" span>
              {t('after VAT')}
            </Text>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td className="num">{formatAmount(debit)}</Table.Td>
      <Table.Td className="num">{formatAmount(credit)}</Table.Td>
      <Table.Td colSpan={2} />
    </Table.Tr>
  );
}

const ROLE_LABEL = { base: msg('base'), tax: msg('tax'), deduction: msg('deduction') } as const;

/**
 * The postings the server will write, shown under the lines as soon as a line carries a VAT code
 * (issue 13 §2: the split is shown before saving). Same domain function as the server's split.
 */
function VatSplitPreview({ control, codes }: { control: FormControl; codes: Codes }) {
  const { t } = useTranslation();
  const preview = usePreview(control, codes);
  const accounts = useQuery(accountListQuery());
  if (!preview.hasVat) return null;
  const byId = new Map((accounts.data?.data ?? []).map((account) => [account.id, account]));
  const byNumber = new Map((accounts.data?.data ?? []).map((account) => [account.number, account]));
  const label = (posting: (typeof preview.postings)[number]) => {
    if (posting.accountId !== null) {
      const account = byId.get(posting.accountId);
      return account ? `${account.number} ${account.name}` : '—';
    }
    const number = posting.accountNumber ?? '';
    const account = byNumber.get(number);
    return account ? `${account.number} ${account.name}` : t('{{number}} {{name}} (created on saving)', { number, name: VAT_ACCOUNT_NAMES[number] ?? '' });
  };
  return (
    <Stack gap={4} aria-label={t('Postings after VAT')} role="region">
      <Title order={4} size="h5">
        {t('Postings after VAT')}
      </Title>
      <Table withTableBorder verticalSpacing={2} fz="sm" className="vat-preview">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Account')}</Table.Th>
            <Table.Th w={170}>{t('VAT')}</Table.Th>
            <Table.Th className="num" w={150}>
              {t('Debit')}
            </Table.Th>
            <Table.Th className="num" w={150}>
              {t('Credit')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.postings.map((posting, index) => (
            <Table.Tr key={index}>
              <Table.Td>{label(posting)}</Table.Td>
              <Table.Td>{posting.vat ? `${posting.vat.code} ${t(ROLE_LABEL[posting.vat.role])} ${posting.vat.percent} %` : ''}</Table.Td>
              <Table.Td className="num">{posting.direction === 1 ? formatAmount(posting.amount) : ''}</Table.Td>
              <Table.Td className="num">{posting.direction === -1 ? formatAmount(posting.amount) : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {[...preview.problems.entries()].map(([line, message]) => (
        <Text key={line} size="sm" c="red">
          {t('Line {{line}}: {{message}}', { line: line + 1, message })}
        </Text>
      ))}
    </Stack>
  );
}

function SaveButton({ control, codes, pending, label }: { control: FormControl; codes: Codes; pending: boolean; label: string }) {
  const { t } = useTranslation();
  const { debit, difference, problems } = usePreview(control, codes);
  // Spec: the Difference must be 0.00 before Save is enabled (after the VAT split).
  const ready = difference.isZero() && !debit.isZero() && problems.size === 0;
  return (
    <Tooltip label={problems.size ? t('A VAT line cannot be split') : t('Debit and credit must be equal')} disabled={ready}>
      <Button type="submit" loading={pending} disabled={!ready}>
        {label}
      </Button>
    </Tooltip>
  );
}

/** Select data of the VAT codes: the active ones, plus an inactive one a loaded line still carries. */
function codeOptions(rows: readonly VatCodeRow[], current: string | null | undefined) {
  return rows
    .filter((row) => row.isActive || row.code === current)
    .map((row) => ({ value: row.code, label: `${row.code} ${row.name}` }));
}

const known = ['dateLedger', 'description', 'lines'];
/** `journalEntrySchema` on the entry/insert body; its messages land on the form's rows. */
const schemaResolver = payloadResolver(journalEntrySchema, (values: EntryFormValues) => toPayload(values).payload, {
  known,
  formPath: (path, values) => formPath(path, values, toPayload(values).indexes),
});

/**
 * Names a half-filled line on its row first (an amount without an account or the reverse), in the
 * form's words rather than the payload's; a complete form is then checked by the domain schema.
 */
const entryResolver: Resolver<EntryFormValues, unknown, JournalEntryInput> = (values, context, options) => {
  const errors: FieldErrors<EntryFormValues> = {};
  values.lines.forEach((line, index) => {
    if (isBlankLine(line)) return;
    const row: NonNullable<FieldErrors<EntryFormValues>['lines']>[number] = {};
    if (line.accountId === null) row.accountId = { type: 'validate', message: validationMessages.accountMustNotBeEmpty };
    else if (typedAmount(line.debit).isZero() && typedAmount(line.credit).isZero()) row.debit = { type: 'validate', message: msg('Enter a debit or a credit amount') };
    else return;
    const lines = (errors.lines ??= []) as NonNullable<typeof row>[];
    lines[index] = row;
  });
  if (errors.lines) return { values: {}, errors };
  return schemaResolver(values, context, options);
};

interface EntryFormProps {
  initial?: JournalEntry;
  submitLabel?: string;
  onSubmit: (payload: JournalEntryInput) => Promise<unknown>;
  onCancel?: () => void;
}

/** Journal entry form, for adding and for editing in place. */
export function EntryForm({ initial, submitLabel, onSubmit, onCancel }: EntryFormProps) {
  const { t } = useTranslation();
  const form = useForm<EntryFormValues, unknown, JournalEntryInput>({
    defaultValues: initial ? entryToFormValues(initial) : newEntryValues(),
    resolver: entryResolver,
  });
  const { control, handleSubmit, setError, getValues, setValue, formState } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  const vatCodes = useQuery(vatCodeListQuery());
  const codes: Codes = useMemo(() => new Map((vatCodes.data?.data ?? []).map((row) => [row.code, row])), [vatCodes.data]);
  const [failure, setFailure] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    setProblems([]);
    try {
      await onSubmit(data);
    } catch (error) {
      const values = getValues();
      const { indexes } = toPayload(values);
      setFailure(error);
      setProblems(applyFieldErrors(setError, serverFieldErrors(error), known, (path) => formPath(path.replace(/^data\./, ''), values, indexes)));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <LockNotice />
        <Group align="flex-start" gap="md" wrap="wrap">
          <Controller
            control={control}
            name="dateLedger"
            rules={{ required: t('This field must be given') }}
            render={({ field, fieldState }) => (
              <DateField
                label={t('Date')}
                required
                w={170}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="description"
            render={({ field, fieldState }) => (
              <TextInput label={t('Description')} style={{ flex: 1, minWidth: 260 }} maxLength={500} {...field} error={fieldState.error?.message} />
            )}
          />
        </Group>

        <Table withTableBorder verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Account')}</Table.Th>
              <Table.Th className="num" w={150}>
                {t('Debit')}
              </Table.Th>
              <Table.Th className="num" w={150}>
                {t('Credit')}
              </Table.Th>
              <Table.Th w={230}>{t('VAT')}</Table.Th>
              <Table.Th w={44}>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.fields.map((row, index) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${index}.accountId`}
                    render={({ field, fieldState }) => (
                      <AccountSelect
                        aria-label={t('Account, line {{line}}', { line: index + 1 })}
                        value={field.value}
                        onChange={field.onChange}
                        onBlur={field.onBlur}
                        error={fieldState.error?.message}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${index}.debit`}
                    render={({ field, fieldState }) => (
                      <NumericInput
                        aria-label={t('Debit, line {{line}}', { line: index + 1 })}
                        allowDecimal
                        value={field.value}
                        onBlur={field.onBlur}
                        onChange={(value) => {
                          field.onChange(value);
                          // A line is either a debit or a credit.
                          if (value !== '') setValue(`lines.${index}.credit`, '');
                        }}
                        error={fieldState.error?.message && t(fieldState.error.message)}
                        styles={{ input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } }}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${index}.credit`}
                    render={({ field, fieldState }) => (
                      <NumericInput
                        aria-label={t('Credit, line {{line}}', { line: index + 1 })}
                        allowDecimal
                        value={field.value}
                        onBlur={field.onBlur}
                        onChange={(value) => {
                          field.onChange(value);
                          if (value !== '') setValue(`lines.${index}.debit`, '');
                        }}
                        error={fieldState.error?.message}
                        styles={{ input: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' } }}
                      />
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <Controller
                    control={control}
                    name={`lines.${index}.vatCode`}
                    render={({ field, fieldState }) => {
                      const code = field.value ? codes.get(field.value) : undefined;
                      return (
                        <Stack gap={4}>
                          <Select
                            aria-label={t('VAT code, line {{line}}', { line: index + 1 })}
                            placeholder={t('No VAT')}
                            searchable
                            clearable
                            data={codeOptions(vatCodes.data?.data ?? [], field.value)}
                            comboboxProps={{ width: 380, position: 'bottom-end' }}
                            value={field.value ?? null}
                            onBlur={field.onBlur}
                            onChange={(next) => {
                              field.onChange(next);
                              // A new code brings its own way of entering amounts (Banana: per code).
                              setValue(`lines.${index}.vatEntry`, next ? (codes.get(next)?.defaultEntry ?? 'gross') : null);
                            }}
                            error={fieldState.error?.message}
                            renderOption={({ option }) => <Text size="sm">{option.label}</Text>}
                          />
                          {code ? (
                            <Controller
                              control={control}
                              name={`lines.${index}.vatEntry`}
                              render={({ field: entry }) => (
                                <SegmentedControl
                                  size="xs"
                                  aria-label={t('Amount with or without VAT, line {{line}}', { line: index + 1 })}
                                  value={entry.value ?? code.defaultEntry}
                                  onChange={(value) => entry.onChange(value)}
                                  data={[
                                    { value: 'gross', label: t('incl. VAT'), disabled: code.kind === 'acquisition' },
                                    { value: 'net', label: t('excl. VAT') },
                                  ]}
                                />
                              )}
                            />
                          ) : null}
                        </Stack>
                      );
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t('Remove line {{line}}', { line: index + 1 })}
                    disabled={lines.fields.length <= 2}
                    onClick={() => lines.remove(index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
            <Difference control={control} codes={codes} />
          </Table.Tbody>
        </Table>

        <VatSplitPreview control={control} codes={codes} />

        <Group justify="space-between">
          <Button variant="subtle" leftSection={<IconPlus size={16} />} onClick={() => lines.append(emptyLine())}>
            {t('Add line')}
          </Button>
          <Group gap="xs">
            {onCancel ? (
              <Button variant="default" onClick={onCancel}>
                {t('Cancel')}
              </Button>
            ) : null}
            <SaveButton control={control} codes={codes} pending={formState.isSubmitting} label={submitLabel ?? t('Save')} />
          </Group>
        </Group>

        {failure ? <WriteError error={failure} what={t('Could not save the journal entry')} /> : null}
        {(problems.length > 0 || formState.errors.root) && !failure ? (
          <Alert color="red" variant="light" role="alert">
            {[formState.errors.root?.message, ...problems].filter(Boolean).join(' ')}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
