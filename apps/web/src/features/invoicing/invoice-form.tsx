import { useState } from 'react';
import { ActionIcon, Alert, Button, Grid, Group, Paper, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm, useWatch, type Control } from 'react-hook-form';
import { formatIban, invoiceLineTotal, invoiceTotals, isAmountString, vatRateToPercent, type InvoiceInput } from '@bilan/domain';
import { applyFieldErrors } from '../../lib/forms';
import { serverFieldErrors } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { WriteError } from './write-error';
import type { FormOptions } from './api';

interface LineValues {
  name: string;
  amount: string;
  price: string;
  discount: string;
  discountAbs: string;
}

export interface InvoiceFormValues {
  companyUuid: string | null;
  addressId: string | null;
  paymentProfileId: string | null;
  vat: string;
  dateInvoice: string | null;
  dateDue: string | null;
  description: string;
  items: LineValues[];
}

const emptyLine = (): LineValues => ({ name: '', amount: '1', price: '', discount: '', discountAbs: '' });
const today = () => new Date().toISOString().slice(0, 10);

const validLine = (line: LineValues) =>
  isAmountString(line.amount, 4) &&
  isAmountString(line.price, 4) &&
  (line.discount === '' || isAmountString(line.discount, 4)) &&
  (line.discountAbs === '' || isAmountString(line.discountAbs, 2));

const lineInput = (line: LineValues) => ({
  quantity: line.amount,
  price: line.price,
  discount: line.discount || null,
  discountAbs: line.discountAbs || null,
});

function LineTotal({ control, index }: { control: Control<InvoiceFormValues>; index: number }) {
  const line = useWatch({ control, name: `items.${index}` });
  return <Amount value={line && validLine(line) ? invoiceLineTotal(lineInput(line)) : null} />;
}

function Totals({ control }: { control: Control<InvoiceFormValues> }) {
  const items = useWatch({ control, name: 'items' });
  const vat = useWatch({ control, name: 'vat' });
  const valid = items.filter((line) => line.name.trim() !== '' && validLine(line));
  const totals = invoiceTotals(valid.map(lineInput), vat || '0');
  const row = (label: string, value: string, strong = false) => (
    <Group justify="space-between" w={300}>
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 400}>
        <Amount value={value} />
      </Text>
    </Group>
  );
  return (
    <Stack gap={2} align="flex-end" aria-label="Totals">
      {row('Subtotal', totals.net)}
      {row(`VAT ${vatRateToPercent(vat || '0')} %`, totals.vat)}
      {totals.rounding !== '0.00' ? row('Rounding to 0.05', totals.rounding) : null}
      {row('Total CHF', totals.total, true)}
    </Stack>
  );
}

interface InvoiceFormProps {
  options: FormOptions;
  onSubmit: (payload: InvoiceInput) => Promise<unknown>;
}

/** The invoice form (spec §3 working form): customer, address, payment profile, VAT, dates and lines. */
export function InvoiceForm({ options, onSubmit }: InvoiceFormProps) {
  const defaultProfile = options.paymentProfiles.find((p) => p.qrIban) ?? options.paymentProfiles[0];
  const form = useForm<InvoiceFormValues>({
    defaultValues: {
      companyUuid: null,
      addressId: null,
      paymentProfileId: defaultProfile ? String(defaultProfile.id) : null,
      vat: options.vatRate ?? options.vatRates[0] ?? '0.081',
      dateInvoice: today(),
      dateDue: null,
      description: '',
      items: [emptyLine()],
    },
  });
  const { control, handleSubmit, setError, setValue, register, formState } = form;
  const lines = useFieldArray({ control, name: 'items' });
  const companyUuid = useWatch({ control, name: 'companyUuid' });
  const company = options.companies.find((c) => c.uuid === companyUuid);
  const [failure, setFailure] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    setProblems([]);
    let missing = false;
    if (!values.companyUuid) {
      setError('companyUuid', { message: 'This field must be given' });
      missing = true;
    }
    if (!values.addressId) {
      setError('addressId', { message: 'This field must be given' });
      missing = true;
    }
    if (!values.paymentProfileId) {
      setError('paymentProfileId', { message: 'This field must be given' });
      missing = true;
    }
    if (!values.dateInvoice) {
      setError('dateInvoice', { message: 'This field must be given' });
      missing = true;
    }
    if (missing) return;
    const payload: InvoiceInput = {
      company: { uuid: values.companyUuid! },
      address: { id: Number(values.addressId) },
      paymentProfile: { id: Number(values.paymentProfileId) },
      vat: values.vat,
      dateInvoice: values.dateInvoice!,
      dateDue: values.dateDue,
      description: values.description,
      items: values.items
        .filter((line) => line.name.trim() !== '' || line.price !== '')
        .map((line) => ({
          name: line.name,
          amount: line.amount,
          price: line.price,
          discount: line.discount || null,
          discountAbs: line.discountAbs || null,
        })),
    };
    try {
      await onSubmit(payload);
    } catch (error) {
      const fields = serverFieldErrors(error);
      const unplaced = applyFieldErrors(
        setError,
        fields,
        ['companyUuid', 'addressId', 'paymentProfileId', 'vat', 'dateInvoice', 'dateDue', 'description', 'items'],
        (path) =>
          path
            .replace(/^data\./, '')
            .replace(/^company\.uuid$/, 'companyUuid')
            .replace(/^address\.id$/, 'addressId')
            .replace(/^paymentProfile\.id$/, 'paymentProfileId'),
      );
      setProblems(unplaced);
      if (Object.keys(fields).length === 0) setFailure(error);
    }
  });

  const errorOf = (path: string) => {
    const parts = path.split('.');
    let node: unknown = formState.errors;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    return (node as { message?: string } | undefined)?.message;
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="companyUuid"
                render={({ field, fieldState }) => (
                  <Select
                    label="Customer"
                    placeholder={options.companies.length ? 'Choose a company' : 'No companies yet'}
                    searchable
                    required
                    data={options.companies.map((c) => ({ value: c.uuid, label: c.name }))}
                    value={field.value}
                    onChange={(value) => {
                      field.onChange(value);
                      const first = options.companies.find((c) => c.uuid === value)?.addresses[0];
                      setValue('addressId', first ? String(first.id) : null);
                    }}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="addressId"
                render={({ field, fieldState }) => (
                  <Select
                    label="Address"
                    required
                    placeholder={company && company.addresses.length === 0 ? 'The company has no address' : 'Choose an address'}
                    data={(company?.addresses ?? []).map((a) => ({
                      value: String(a.id),
                      label: `${a.street}${a.houseNumber ? ` ${a.houseNumber}` : ''}, ${a.zip} ${a.city}`,
                    }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="paymentProfileId"
                render={({ field, fieldState }) => (
                  <Select
                    label="Pay to (payment profile)"
                    required
                    data={options.paymentProfiles.map((p) => ({
                      value: String(p.id),
                      label: `${p.qrIban ? 'QR-IBAN' : 'IBAN'} ${formatIban(p.iban)}`,
                    }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="vat"
                render={({ field, fieldState }) => (
                  <Select
                    label="VAT"
                    data={options.vatRates.map((rate) => ({ value: rate, label: `${vatRateToPercent(rate)} %` }))}
                    value={field.value}
                    onChange={(value) => field.onChange(value ?? '0')}
                    error={fieldState.error?.message}
                    allowDeselect={false}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <Controller
                control={control}
                name="dateInvoice"
                render={({ field, fieldState }) => (
                  <DateField label="Invoice date" required value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <Controller
                control={control}
                name="dateDue"
                render={({ field, fieldState }) => (
                  <DateField label="Due date" clearable value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Description" {...register('description')} error={errorOf('description')} />
            </Grid.Col>
          </Grid>
        </Paper>

        <Table withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Item</Table.Th>
              <Table.Th w={100}>Quantity</Table.Th>
              <Table.Th w={130}>Price</Table.Th>
              <Table.Th w={110}>Discount %</Table.Th>
              <Table.Th w={120}>Discount CHF</Table.Th>
              <Table.Th className="num" w={130}>
                Total
              </Table.Th>
              <Table.Th w={40}>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.fields.map((line, index) => (
              <Table.Tr key={line.id}>
                <Table.Td>
                  <TextInput aria-label={`Item ${index + 1} name`} {...register(`items.${index}.name`)} error={errorOf(`items.${index}.name`)} />
                </Table.Td>
                {(['amount', 'price', 'discount', 'discountAbs'] as const).map((key) => (
                  <Table.Td key={key}>
                    <Controller
                      control={control}
                      name={`items.${index}.${key}`}
                      render={({ field }) => (
                        <NumericInput
                          aria-label={`Item ${index + 1} ${key === 'amount' ? 'quantity' : key === 'discountAbs' ? 'discount CHF' : key}`}
                          allowDecimal
                          maxDecimals={key === 'discountAbs' ? 2 : 4}
                          value={field.value}
                          onChange={field.onChange}
                          error={errorOf(`items.${index}.${key}`)}
                          styles={{ input: { textAlign: 'right' } }}
                        />
                      )}
                    />
                  </Table.Td>
                ))}
                <Table.Td className="num">
                  <LineTotal control={control} index={index} />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="gray" aria-label={`Remove item ${index + 1}`} onClick={() => lines.remove(index)} disabled={lines.fields.length === 1}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="space-between" align="flex-start">
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => lines.append(emptyLine())}>
            Add line
          </Button>
          <Totals control={control} />
        </Group>
        {problems.length ? (
          <Alert color="red" variant="light" role="alert">
            {problems.join(' · ')}
          </Alert>
        ) : null}
        {failure ? <WriteError error={failure} what="Could not save the invoice" /> : null}
        <Group justify="flex-end">
          <Button type="submit" loading={formState.isSubmitting}>
            Create Invoice
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
