import { useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Grid, Group, Paper, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, get, set, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  DEFAULT_PAYMENT_TERM_DAYS,
  addDays,
  daysBetween,
  formatIban,
  invoiceItemProblems,
  invoiceSchema,
  normalizeInvoiceItem,
  invoiceLineTotal,
  invoiceTotals,
  isAmountString,
  toBaseAmount,
  vatRateToPercent,
  type InvoiceInput,
  type InvoiceItemInput,
} from '@bilan/domain';
import { today } from '../../lib/dates';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { serverFieldErrors } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { CompanyPicker } from '../../ui/company-picker';
import { WriteError } from './write-error';
import { addressChoices } from './address-choices';
import { customerAddressesQuery, customerContactsQuery, type FormOptions, type Invoice } from './api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { msg } from '../../lib/i18n';

interface LineValues {
  /** The stored line's id when editing; null for a new line. */
  id: number | null;
  name: string;
  amount: string;
  price: string;
  discount: string;
  discountAbs: string;
  /** '' = the invoice's rate. */
  vat: string;
  /** '' = the account of the line's VAT rate. */
  accountId: string;
}

export interface InvoiceFormValues {
  companyUuid: string | null;
  addressId: string | null;
  paymentProfileId: string | null;
  vat: string;
  currency: string;
  fxRate: string;
  dateInvoice: string | null;
  dateDue: string | null;
  description: string;
  items: LineValues[];
}

/**
 * What the form hands over: the invoice head and its lines (with their ids when editing). A failed
 * save names line fields as `data.items.N.field`, N the index in `items`.
 */
export interface InvoiceFormPayload {
  head: Omit<InvoiceInput, 'items'>;
  items: (InvoiceItemInput & { id: number | null })[];
}

/** The accessible names of a line's number inputs. */
const LINE_FIELD_LABEL = {
  amount: msg('Item {{n}} quantity'),
  price: msg('Item {{n}} price'),
  discount: msg('Item {{n}} discount'),
  discountAbs: msg('Item {{n}} discount amount'),
} as const;

const LINE_NUMBER_FIELDS = ['amount', 'price', 'discount', 'discountAbs'] as const;

const emptyLine = (): LineValues => ({ id: null, name: '', amount: '1', price: '', discount: '', discountAbs: '', vat: '', accountId: '' });

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
  vatRate: line.vat || null,
});

/** A form line as the API's line (spec §3 working form). */
const toItem = (line: LineValues): InvoiceItemInput & { id: number | null } => ({
  id: line.id,
  name: line.name,
  amount: line.amount,
  price: line.price,
  discount: line.discount || null,
  discountAbs: line.discountAbs || null,
  vat: line.vat || null,
  account: line.accountId ? { id: Number(line.accountId) } : null,
});

/**
 * What the form edits of a stored document: an invoice, or a document with an invoice's head and
 * lines (a quote or a recurring template, issue 15 §4) mapped to the invoice's names.
 */
export type InvoiceFormDocument = Pick<Invoice, 'refNumber' | 'company' | 'address' | 'paymentProfile' | 'vat' | 'currency' | 'fxRate' | 'dateInvoice' | 'dateDue' | 'description'> & {
  items: Pick<Invoice['items'][number], 'id' | 'name' | 'amount' | 'price' | 'discount' | 'discountAbs' | 'vat' | 'account'>[];
};

function valuesOf(options: FormOptions, invoice: InvoiceFormDocument | undefined): InvoiceFormValues {
  if (invoice) {
    return {
      companyUuid: invoice.company.uuid,
      addressId: String(invoice.address.id),
      paymentProfileId: String(invoice.paymentProfile.id),
      vat: invoice.vat,
      currency: invoice.currency,
      fxRate: invoice.currency === options.currency ? '' : invoice.fxRate,
      dateInvoice: invoice.dateInvoice,
      dateDue: invoice.dateDue,
      description: invoice.description,
      items: invoice.items.map((item) => ({
        id: item.id,
        name: item.name,
        amount: item.amount,
        price: item.price,
        discount: item.discount ?? '',
        discountAbs: item.discountAbs ?? '',
        vat: item.vat ?? '',
        accountId: item.account ? String(item.account.id) : '',
      })),
    };
  }
  const defaultProfile = options.paymentProfiles.find((p) => p.qrIban) ?? options.paymentProfiles[0];
  const dateInvoice = today();
  return {
    companyUuid: null,
    addressId: null,
    paymentProfileId: defaultProfile ? String(defaultProfile.id) : null,
    vat: options.vatRate ?? options.vatRates[0] ?? '0.081',
    currency: options.currency === 'EUR' ? 'EUR' : 'CHF',
    fxRate: '',
    dateInvoice,
    dateDue: addDays(dateInvoice, DEFAULT_PAYMENT_TERM_DAYS),
    description: '',
    items: [emptyLine()],
  };
}

/** The form's lines that are sent, with their row: blank new lines are left out. */
const keptLines = (values: InvoiceFormValues) =>
  values.items.map((line, formIndex) => ({ line, formIndex })).filter(({ line }) => line.id !== null || line.name.trim() !== '' || line.price !== '');

const headFields = ['companyUuid', 'addressId', 'paymentProfileId', 'vat', 'currency', 'fxRate', 'dateInvoice', 'dateDue', 'description', 'items'];

/** Payload path (of /invoice/insert `data`, with `data.` or not) → form path; `kept` maps sent lines to rows. */
const toFormPath = (path: string, kept: { formIndex: number }[]) =>
  path
    .replace(/^data\./, '')
    .replace(/^company\.uuid$/, 'companyUuid')
    .replace(/^address\.id$/, 'addressId')
    .replace(/^paymentProfile\.id$/, 'paymentProfileId')
    .replace(/^items\.(\d+)\.account\.id$/, 'items.$1.accountId')
    .replace(/^items\.(\d+)\./, (_, index: string) => `items.${kept[Number(index)]?.formIndex ?? index}.`);

/** Form values → /invoice/insert `data` (lines without their ids), as `invoiceSchema` checks it. */
function toInvoicePayload(values: InvoiceFormValues, baseCurrency: string) {
  return {
    company: { uuid: values.companyUuid ?? '' },
    address: { id: Number(values.addressId) },
    paymentProfile: { id: Number(values.paymentProfileId) },
    vat: values.vat,
    currency: values.currency,
    ...(values.currency !== baseCurrency ? { fxRate: values.fxRate } : {}),
    dateInvoice: values.dateInvoice ?? '',
    dateDue: values.dateDue,
    description: values.description,
    items: keptLines(values).map(({ line }) => {
      const { id: _id, ...item } = toItem(line);
      return item;
    }),
  };
}

/**
 * Checks the form with `invoiceSchema`, the route's own, plus what the schema leaves to the form:
 * the selects that must be chosen (named as missing rather than as a bad id), the exchange rate of a
 * foreign-currency invoice and the rules across a line's fields (`invoiceItemProblems`). Every
 * message is shown at once, a form rule's before the schema's on the same input.
 */
function invoiceResolver(baseCurrency: string, t: TFunction): Resolver<InvoiceFormValues, unknown, InvoiceInput> {
  const schemaResolver = payloadResolver(invoiceSchema, (values: InvoiceFormValues) => toInvoicePayload(values, baseCurrency), {
    known: headFields,
    formPath: (path, values) => toFormPath(path, keptLines(values)),
  });
  return async (values, context, options) => {
    const result = await schemaResolver(values, context, options);
    const errors: FieldErrors<InvoiceFormValues> = { ...result.errors };
    const put = (path: string, message: string) => set(errors, path, { type: 'validate', message });
    for (const field of ['companyUuid', 'addressId', 'paymentProfileId', 'dateInvoice'] as const) {
      if (!values[field]) put(field, t('This field must be given'));
    }
    if (values.currency !== baseCurrency && !values.fxRate) put('fxRate', t('give the exchange rate of the invoice: {{base}} per 1 {{currency}}', { base: baseCurrency, currency: values.currency }));
    for (const { line, formIndex } of keptLines(values)) {
      const item = toItem(line);
      for (const [field, message] of Object.entries(invoiceItemProblems(item))) {
        if (!get(errors, `items.${formIndex}.${field}`)) put(`items.${formIndex}.${field}`, message);
      }
    }
    return Object.keys(errors).length ? { values: {}, errors } : result;
  };
}

function LineTotal({ control, index }: { control: Control<InvoiceFormValues, unknown, InvoiceInput>; index: number }) {
  const line = useWatch({ control, name: `items.${index}` });
  return <Amount value={line && validLine(line) ? invoiceLineTotal(lineInput(line)) : null} />;
}

function Totals({ control, baseCurrency }: { control: Control<InvoiceFormValues, unknown, InvoiceInput>; baseCurrency: string }) {
  const items = useWatch({ control, name: 'items' });
  const vat = useWatch({ control, name: 'vat' });
  const currency = useWatch({ control, name: 'currency' });
  const fxRate = useWatch({ control, name: 'fxRate' });
  const dateInvoice = useWatch({ control, name: 'dateInvoice' });
  const valid = items.filter((line) => line.name.trim() !== '' && validLine(line));
  // The rate in force on the invoice date, as the server computes it (decision 019: 2023 → 7.7 %).
  const totals = invoiceTotals(valid.map(lineInput), vat || '0', currency, dateInvoice ?? undefined);
  const { t } = useTranslation();
  const row = (label: string, value: string, strong = false) => (
    <Group justify="space-between" w={320} key={label}>
      <Text size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 400}>
        <Amount value={value} />
      </Text>
    </Group>
  );
  const foreign = currency !== baseCurrency && isAmountString(fxRate, 10) && Number(fxRate) > 0;
  return (
    <Stack gap={2} align="flex-end" aria-label={t('Totals')}>
      {row(t('Subtotal'), totals.net)}
      {totals.vatLines.map((line) => row(t('VAT {{rate}} %', { rate: vatRateToPercent(line.rate) }), line.vat))}
      {totals.rounding !== '0.00' ? row(t('Rounding to 0.05'), totals.rounding) : null}
      {row(t('Total {{currency}}', { currency }), totals.total, true)}
      {foreign ? row(t('In {{currency}} at {{rate}}', { currency: baseCurrency, rate: fxRate }), toBaseAmount(totals.total, fxRate)) : null}
    </Stack>
  );
}

interface InvoiceFormProps {
  options: FormOptions;
  /** The pending invoice to edit; absent to create one. */
  invoice?: InvoiceFormDocument;
  /** Labels of the two dates for other documents (a quote: 'Quote date', 'Valid until'); default the invoice's. */
  dateLabels?: { date: string; due: string };
  /** Told the customer chosen (a recurring template offers that customer's contacts). */
  onCompanyChange?: (companyUuid: string | null) => void;
  submitLabel: string;
  onSubmit: (payload: InvoiceFormPayload) => Promise<unknown>;
  onCancel?: () => void;
}

/**
 * The due date a new invoice gets from its customer's contacts (issue 15 §1): the payment terms of
 * the first contact that has some, counted from the invoice date; nothing when none has terms.
 */
async function proposeDueDate(queryClient: QueryClient, companyUuid: string, dateInvoice: string | null, apply: (due: string) => void) {
  if (!dateInvoice) return;
  const contacts = await queryClient.fetchQuery(customerContactsQuery(companyUuid)).catch(() => null);
  const terms = contacts?.data.find((contact) => contact.paymentTermsDays !== null)?.paymentTermsDays;
  if (terms !== undefined && terms !== null) apply(addDays(dateInvoice, terms));
}

/** Hands the id of customer `companyUuid`'s first address (by id) to `apply`; nothing when it has none or they cannot be loaded. */
async function chooseFirstAddress(queryClient: QueryClient, companyUuid: string, apply: (addressId: string) => void) {
  const answer = await queryClient.fetchQuery(customerAddressesQuery(companyUuid)).catch(() => null);
  const first = answer?.data[0];
  if (first) apply(String(first.id));
}

/**
 * The invoice form (spec §3 working form): customer, address, payment profile, VAT, currency and
 * exchange rate, invoice and due date, lines with their own VAT rate and revenue account. Lines are
 * checked with the domain's rules before anything is sent; server field errors land on the inputs.
 */
export function InvoiceForm({ options, invoice, submitLabel, onSubmit, onCancel, dateLabels, onCompanyChange }: InvoiceFormProps) {
  const { t } = useTranslation();
  const form = useForm<InvoiceFormValues, unknown, InvoiceInput>({ defaultValues: valuesOf(options, invoice), resolver: invoiceResolver(options.currency, t) });
  const queryClient = useQueryClient();
  const { control, handleSubmit, setError, setValue, getValues, register, formState } = form;
  const lines = useFieldArray({ control, name: 'items', keyName: 'key' });
  const companyUuid = useWatch({ control, name: 'companyUuid' });
  const currency = useWatch({ control, name: 'currency' });
  const invoiceVat = useWatch({ control, name: 'vat' });
  const addresses = useQuery({ ...customerAddressesQuery(companyUuid ?? ''), enabled: companyUuid !== null });
  const addressData = addressChoices(companyUuid ? (addresses.data?.data ?? null) : null, companyUuid, invoice);
  const [failure, setFailure] = useState<unknown>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const foreign = currency !== options.currency;

  const vatLabel = (rate: string) => `${vatRateToPercent(rate)} %`;
  const defaultAccount = (rate: string) => options.defaultRevenue.find((d) => Number(d.rate) === Number(rate));

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    setProblems([]);
    const kept = keptLines(getValues());
    const { items = [], ...head } = data;
    // The parsed lines in the order sent, each with the id of its stored line when editing.
    const payload: InvoiceFormPayload = { head, items: items.map((item, index) => ({ ...normalizeInvoiceItem(item), id: kept[index]?.line.id ?? null })) };
    try {
      await onSubmit(payload);
    } catch (error) {
      const fields = serverFieldErrors(error);
      setProblems(applyFieldErrors(setError, fields, headFields, (path) => toFormPath(path, kept)));
      if (Object.keys(fields).length === 0) setFailure(error);
    }
  });

  const errorOf = (path: string) => {
    const parts = path.split('.');
    let node: unknown = formState.errors;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    return (node as { message?: string } | undefined)?.message;
  };
  const description = register('description');
  const descriptionError = errorOf('description');
  const problemText = [formState.errors.root?.message, ...problems].filter(Boolean).join(' · ');

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={invoice ? t('Edit invoice {{number}}', { number: invoice.refNumber }) : t('New invoice')}>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="companyUuid"
                render={({ field, fieldState }) => (
                  <CompanyPicker
                    label={t('Customer')}
                    placeholder={t('Choose a company')}
                    excludeOwn
                    required
                    selectedName={invoice?.company.uuid === field.value ? invoice.company.name : null}
                    value={field.value}
                    onChange={(value) => {
                      field.onChange(value);
                      onCompanyChange?.(value);
                      // The customer's first address once its addresses arrive, unless another customer or an address was chosen meanwhile.
                      setValue('addressId', null);
                      if (value) void chooseFirstAddress(queryClient, value, (id) => getValues('companyUuid') === value && !getValues('addressId') && setValue('addressId', id));
                      // The customer's contact terms propose the due date (issue 15 §1).
                      if (value && !invoice) void proposeDueDate(queryClient, value, getValues('dateInvoice'), (due) => setValue('dateDue', due));
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
                    label={t('Address')}
                    required
                    placeholder={addresses.data && addressData.length === 0 ? t('The company has no address') : t('Choose an address')}
                    data={addressData}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message ?? (addresses.isError ? t('Could not load the addresses') : undefined)}
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
                    label={t('Pay to (payment profile)')}
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
            <Grid.Col span={{ base: 12, sm: 2 }}>
              <Controller
                control={control}
                name="vat"
                render={({ field, fieldState }) => (
                  <Select
                    label={t('VAT')}
                    data={options.vatRates.map((rate) => ({ value: rate, label: vatLabel(rate) }))}
                    value={field.value}
                    onChange={(value) => field.onChange(value ?? '0')}
                    error={fieldState.error?.message}
                    allowDeselect={false}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="currency"
                render={({ field, fieldState }) => (
                  <Select
                    label={t('Currency')}
                    data={options.currencies}
                    value={field.value}
                    onChange={(value) => field.onChange(value ?? 'CHF')}
                    error={fieldState.error?.message}
                    allowDeselect={false}
                  />
                )}
              />
            </Grid.Col>
            {foreign ? (
              <Grid.Col span={{ base: 6, sm: 2 }}>
                <Controller
                  control={control}
                  name="fxRate"
                  render={({ field, fieldState }) => (
                    <NumericInput
                      label={t('{{base}} per 1 {{currency}}', { base: options.currency, currency })}
                      required
                      allowDecimal
                      maxDecimals={10}
                      value={field.value}
                      onChange={field.onChange}
                      error={fieldState.error?.message}
                    />
                  )}
                />
              </Grid.Col>
            ) : null}
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <Controller
                control={control}
                name="dateInvoice"
                render={({ field, fieldState }) => (
                  <DateField
                    label={dateLabels?.date ?? t('Invoice date')}
                    required
                    value={field.value}
                    onChange={(value) => {
                      // The due date moves along and keeps the payment term.
                      const previous = getValues('dateInvoice');
                      const due = getValues('dateDue');
                      if (value && previous && due) setValue('dateDue', addDays(value, daysBetween(previous, due)));
                      field.onChange(value);
                    }}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <Controller
                control={control}
                name="dateDue"
                render={({ field, fieldState }) => (
                  <DateField
                    label={dateLabels?.due ?? t('Due date')}
                    clearable
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label={t('Description')} {...description} error={descriptionError} />
            </Grid.Col>
          </Grid>
        </Paper>

        <Table.ScrollContainer minWidth={1100}>
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Item')}</Table.Th>
                <Table.Th w={90}>{t('Quantity')}</Table.Th>
                <Table.Th w={110}>{t('Price')}</Table.Th>
                <Table.Th w={95}>{t('Discount %')}</Table.Th>
                <Table.Th w={110}>{t('Discount {{currency}}', { currency })}</Table.Th>
                <Table.Th w={170}>{t('VAT')}</Table.Th>
                <Table.Th w={200}>{t('Revenue account')}</Table.Th>
                <Table.Th className="num" w={120}>
                  {t('Total')}
                </Table.Th>
                <Table.Th w={40}>
                  <VisuallyHidden>{t('Remove')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.fields.map((line, index) => (
                <Table.Tr key={line.key}>
                  <Table.Td>
                    <TextInput aria-label={t('Item {{n}} name', { n: index + 1 })} {...register(`items.${index}.name`)} error={errorOf(`items.${index}.name`)} />
                  </Table.Td>
                  {LINE_NUMBER_FIELDS.map((key) => (
                    <Table.Td key={key}>
                      <Controller
                        control={control}
                        name={`items.${index}.${key}`}
                        render={({ field }) => (
                          <NumericInput
                            aria-label={t(LINE_FIELD_LABEL[key], { n: index + 1 })}
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
                  <Table.Td>
                    <Controller
                      control={control}
                      name={`items.${index}.vat`}
                      render={({ field }) => (
                        <Select
                          aria-label={t('Item {{n}} VAT', { n: index + 1 })}
                          data={[{ value: '', label: t('As invoice') }, ...options.vatRates.map((rate) => ({ value: rate, label: vatLabel(rate) }))]}
                          value={field.value}
                          onChange={(value) => field.onChange(value ?? '')}
                          allowDeselect={false}
                          error={errorOf(`items.${index}.vat`)}
                        />
                      )}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Controller
                      control={control}
                      name={`items.${index}.accountId`}
                      render={({ field }) => {
                        const rate = getValues(`items.${index}.vat`) || invoiceVat || '0';
                        const fallback = defaultAccount(rate);
                        return (
                          <Select
                            aria-label={t('Item {{n}} revenue account', { n: index + 1 })}
                            searchable
                            data={[
                              { value: '', label: fallback ? t('By VAT rate ({{number}})', { number: fallback.number }) : t('By VAT rate') },
                              ...options.revenueAccounts.map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` })),
                            ]}
                            value={field.value}
                            onChange={(value) => field.onChange(value ?? '')}
                            allowDeselect={false}
                            error={errorOf(`items.${index}.accountId`)}
                          />
                        );
                      }}
                    />
                  </Table.Td>
                  <Table.Td className="num">
                    <LineTotal control={control} index={index} />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon variant="subtle" color="gray" aria-label={t('Remove item {{n}}', { n: index + 1 })} onClick={() => lines.remove(index)} disabled={lines.fields.length === 1}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="space-between" align="flex-start">
          <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => lines.append(emptyLine())}>
            {t('Add line')}
          </Button>
          <Totals control={control} baseCurrency={options.currency} />
        </Group>
        {problems.length || formState.errors.root ? (
          <Alert color="red" variant="light" role="alert">
            {problemText}
          </Alert>
        ) : null}
        {failure ? <WriteError error={failure} what={t('Could not save the invoice')} /> : null}
        <Group justify="flex-end">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('Cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
