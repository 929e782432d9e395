import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type Resolver } from 'react-hook-form';
import { formatAmount, journalEntrySchema, validationMessages, type JournalEntryInput } from '@bilan/domain';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { serverFieldErrors } from '../../lib/errors';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { AccountSelect } from './account-select';
import { LockNotice } from '../../ui/lock-notice';
import type { JournalEntry } from './api';
import {
  emptyLine,
  entryToFormValues,
  formPath,
  isBlankLine,
  newEntryValues,
  toPayload,
  totals,
  typedAmount,
  type EntryFormValues,
} from './entry-lines';
import { WriteError } from './write-error';

function Difference({ control }: { control: Control<EntryFormValues, unknown, JournalEntryInput> }) {
  const lines = useWatch({ control, name: 'lines' });
  const { debit, credit, difference } = totals(lines);
  const balanced = difference.isZero();
  const empty = debit.isZero() && credit.isZero();
  return (
    <Table.Tr className="totals">
      <Table.Td>
        <Group gap="xs">
          <Text fw={600} span>
            Difference
          </Text>
          <Badge color={empty ? 'gray' : balanced ? 'green' : 'red'} variant="light" className="amount" aria-live="polite">
            {formatAmount(difference)}
          </Badge>
        </Group>
      </Table.Td>
      <Table.Td className="num">{formatAmount(debit)}</Table.Td>
      <Table.Td className="num">{formatAmount(credit)}</Table.Td>
      <Table.Td />
    </Table.Tr>
  );
}

function SaveButton({ control, pending, label }: { control: Control<EntryFormValues, unknown, JournalEntryInput>; pending: boolean; label: string }) {
  const lines = useWatch({ control, name: 'lines' });
  const { debit, difference } = totals(lines);
  // Spec: the Difference must be 0.00 before Save is enabled.
  const ready = difference.isZero() && !debit.isZero();
  return (
    <Tooltip label="Debit and credit must be equal" disabled={ready}>
      <Button type="submit" loading={pending} disabled={!ready}>
        {label}
      </Button>
    </Tooltip>
  );
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
    else if (typedAmount(line.debit).isZero() && typedAmount(line.credit).isZero()) row.debit = { type: 'validate', message: 'Enter a debit or a credit amount' };
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
export function EntryForm({ initial, submitLabel = 'Save', onSubmit, onCancel }: EntryFormProps) {
  const form = useForm<EntryFormValues, unknown, JournalEntryInput>({
    defaultValues: initial ? entryToFormValues(initial) : newEntryValues(),
    resolver: entryResolver,
  });
  const { control, handleSubmit, setError, getValues, setValue, formState } = form;
  const lines = useFieldArray({ control, name: 'lines' });
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
            rules={{ required: 'This field must be given' }}
            render={({ field, fieldState }) => (
              <DateField
                label="Date"
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
              <TextInput label="Description" style={{ flex: 1, minWidth: 260 }} maxLength={500} {...field} error={fieldState.error?.message} />
            )}
          />
        </Group>

        <Table withTableBorder verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th className="num" w={150}>
                Debit
              </Table.Th>
              <Table.Th className="num" w={150}>
                Credit
              </Table.Th>
              <Table.Th w={44}>
                <VisuallyHidden>Actions</VisuallyHidden>
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
                        aria-label={`Account, line ${index + 1}`}
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
                        aria-label={`Debit, line ${index + 1}`}
                        allowDecimal
                        value={field.value}
                        onBlur={field.onBlur}
                        onChange={(value) => {
                          field.onChange(value);
                          // A line is either a debit or a credit.
                          if (value !== '') setValue(`lines.${index}.credit`, '');
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
                    name={`lines.${index}.credit`}
                    render={({ field, fieldState }) => (
                      <NumericInput
                        aria-label={`Credit, line ${index + 1}`}
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
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={`Remove line ${index + 1}`}
                    disabled={lines.fields.length <= 2}
                    onClick={() => lines.remove(index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
            <Difference control={control} />
          </Table.Tbody>
        </Table>

        <Group justify="space-between">
          <Button variant="subtle" leftSection={<IconPlus size={16} />} onClick={() => lines.append(emptyLine())}>
            Add line
          </Button>
          <Group gap="xs">
            {onCancel ? (
              <Button variant="default" onClick={onCancel}>
                Cancel
              </Button>
            ) : null}
            <SaveButton control={control} pending={formState.isSubmitting} label={submitLabel} />
          </Group>
        </Group>

        {failure ? <WriteError error={failure} what="Could not save the journal entry" /> : null}
        {(problems.length > 0 || formState.errors.root) && !failure ? (
          <Alert color="red" variant="light" role="alert">
            {[formState.errors.root?.message, ...problems].filter(Boolean).join(' ')}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
