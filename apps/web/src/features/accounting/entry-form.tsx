import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { fieldErrors, formatAmount, journalEntrySchema, validationMessages, type JournalEntryInput } from '@bilan/domain';
import { applyFieldErrors } from '../../lib/forms';
import { serverFieldErrors } from '../../lib/errors';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { AccountSelect } from './account-select';
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

function Difference({ control }: { control: Control<EntryFormValues> }) {
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

function SaveButton({ control, pending, label }: { control: Control<EntryFormValues>; pending: boolean; label: string }) {
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

interface EntryFormProps {
  initial?: JournalEntry;
  submitLabel?: string;
  onSubmit: (payload: JournalEntryInput) => Promise<unknown>;
  onCancel?: () => void;
}

/** Journal entry form, for adding and for editing in place. */
export function EntryForm({ initial, submitLabel = 'Save', onSubmit, onCancel }: EntryFormProps) {
  const form = useForm<EntryFormValues>({ defaultValues: initial ? entryToFormValues(initial) : newEntryValues() });
  const { control, handleSubmit, setError, clearErrors, setValue, formState } = form;
  const lines = useFieldArray({ control, name: 'lines' });
  const [failure, setFailure] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    setProblems([]);
    clearErrors();
    const { payload, indexes } = toPayload(values);
    // Lines with an amount but no account, or an account but no amount, are named on their row.
    let incomplete = false;
    values.lines.forEach((line, index) => {
      if (isBlankLine(line)) return;
      if (line.accountId === null) {
        setError(`lines.${index}.accountId`, { message: validationMessages.accountMustNotBeEmpty });
        incomplete = true;
      } else if (typedAmount(line.debit).isZero() && typedAmount(line.credit).isZero()) {
        setError(`lines.${index}.debit`, { message: 'Enter a debit or a credit amount' });
        incomplete = true;
      }
    });
    if (incomplete) return;
    const parsed = journalEntrySchema.safeParse(payload);
    if (!parsed.success) {
      setProblems(applyFieldErrors(setError, fieldErrors(parsed.error), ['dateLedger', 'description', 'lines'], (path) =>
        formPath(path, values, indexes),
      ));
      return;
    }
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      setFailure(error);
      setProblems(
        applyFieldErrors(setError, serverFieldErrors(error), ['dateLedger', 'description', 'lines'], (path) =>
          formPath(path.replace(/^data\./, ''), values, indexes),
        ),
      );
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
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
        {problems.length > 0 && !failure ? (
          <Alert color="red" variant="light" role="alert">
            {problems.join(' ')}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
