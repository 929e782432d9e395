import { useState } from 'react';
import { Alert, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  countryIsoCode,
  currencyCodes,
  formatDate,
  formatIban,
  isQrIban,
  normalizeIban,
  parseSwicoS1,
  payableDataSchema,
  swicoDueDate,
  swicoVatAmount,
  type CountryId,
  type ParsedQrBill,
  type SwicoS1,
} from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { Page } from '../../ui/page';
import {
  allProfilesQuery,
  companiesQuery,
  confirmPayable,
  expenseAccountsQuery,
  payablesKey,
  profilesQuery,
  updatePayable,
  type Payable,
  type PayableData,
  type SupplierData,
} from './api';

const today = () => new Date().toISOString().slice(0, 10);
const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase('de-CH') === b.trim().toLocaleLowerCase('de-CH');
const countryIdOf = (iso: string): number | undefined =>
  (Object.entries(countryIsoCode) as [string, string][]).find(([, code]) => code === iso)?.[0] as CountryId | undefined;

/** The structured address of a QR-bill creditor, when the company form can hold it (S type, known country). */
function supplierAddress(bill: ParsedQrBill): SupplierData['address'] {
  const countryId = countryIdOf(bill.creditor.country);
  if (bill.creditor.type !== 'S' || !countryId || !bill.creditor.street || !bill.creditor.zip || !bill.creditor.city) return null;
  return { street: bill.creditor.street, houseNumber: bill.creditor.buildingNumber || null, zip: bill.creditor.zip, city: bill.creditor.city, country: { id: Number(countryId) as CountryId } };
}

/** What the supplier's Swico S1 billing information says, in one line (SIX IG QR-bill v2.3 Annex D). */
function swicoSummary(s1: SwicoS1): string {
  const parts = [
    s1.invoiceNumber ? `Invoice ${s1.invoiceNumber}` : null,
    s1.invoiceDate ? `of ${formatDate(s1.invoiceDate)}` : null,
    s1.uid ? `UID ${s1.uid}` : null,
    s1.vat ? `VAT ${s1.vat.map((v) => `${v.rate} %${v.net ? ` on ${v.net}` : ''}`).join(', ')}` : null,
    ...(s1.conditions ?? []).filter((c) => c.discount !== '0').map((c) => `${c.discount} % discount within ${c.days} days`),
  ];
  return parts.filter(Boolean).join(' · ');
}

interface BillFormProps {
  /** Inbox file the new bill is drafted from: saved as its voucher in the same call. */
  fileUuid?: string;
  title?: string;
  /** The QR-bill read from the file: prefills the form; its supplier is matched or created on save. */
  qrBill?: ParsedQrBill | null;
  /** Edit mode: the pending bill whose fields are changed (`/payable/update`). */
  bill?: Payable;
}

/** The bill form's inputs, named after the fields of the payload they become (`data` of /payable/insert). */
interface BillFormValues {
  type: '0' | '1';
  /** Supplier uuid; `undefined` while untouched, so the supplier matched from the QR-bill applies. */
  company: string | null | undefined;
  /** Payment profile id; `undefined` while untouched, as `company`. */
  companyFinance: string | null | undefined;
  date: string | null;
  dueDate: string | null;
  amount: string;
  vatAmount: string;
  currency: string;
  exchangeRate: string;
  expenseAccount: string | null;
  referenceNumber: string;
  message: string;
  description: string;
}

const formFields = ['type', 'company', 'companyFinance', 'date', 'dueDate', 'amount', 'vatAmount', 'currency', 'exchangeRate', 'expenseAccount', 'referenceNumber', 'message', 'description'] as const;
/** Payload path → input: a reference `{ uuid }` / `{ id }` is one select. */
const toFormPath = (path: string) => path.replace(/^(company|companyFinance|expenseAccount)\.(uuid|id)$/, '$1');
/** A server field of /payable/insert or /payable/update → input; the QR-bill supplier's name is the supplier select's. */
const serverFormPath = (path: string) => (path === 'supplier.name' ? 'company' : path.startsWith('data.') ? toFormPath(path.slice(5)) : undefined);

/** The form's first values: the bill being edited, else the QR-bill and its Swico S1 information, else empty. */
function initialValues(bill: Payable | undefined, qrBill: ParsedQrBill | null | undefined, s1: SwicoS1 | null): BillFormValues {
  return {
    type: bill?.isExpense ? '1' : '0',
    company: bill ? (bill.company?.uuid ?? null) : undefined,
    companyFinance: bill ? (bill.companyFinance ? String(bill.companyFinance.id) : null) : undefined,
    date: bill?.date ?? s1?.invoiceDate ?? today(),
    dueDate: bill?.dueDate ?? (s1 ? swicoDueDate(s1) : undefined) ?? null,
    amount: bill?.amount ?? qrBill?.amount ?? '',
    vatAmount: bill ? (bill.vatAmount !== '0.00' ? bill.vatAmount : '') : ((s1 && swicoVatAmount(s1, qrBill?.amount)) ?? ''),
    currency: bill?.currency ?? qrBill?.currency ?? 'CHF',
    exchangeRate: bill && bill.exchangeRate !== '1' ? bill.exchangeRate : '',
    expenseAccount: bill?.expenseAccount ? String(bill.expenseAccount.id) : null,
    referenceNumber: bill?.referenceNumber ?? qrBill?.reference ?? '',
    message: bill?.message ?? qrBill?.message ?? '',
    description: bill?.description ?? (s1?.invoiceNumber ? `Invoice ${s1.invoiceNumber}` : ''),
  };
}

/**
 * /bill/add: a supplier bill (pending) or a staff expense; also the draft beside an inbox file and,
 * with `bill`, the edit form of a pending bill. A QR-bill's supplier is shown as the server will
 * resolve it on save (same rules: a payment profile with its IBAN, else a company of that name,
 * else new) and saved in the bill's own call, so a failure leaves no half-created supplier.
 * The form checks its payload with `payableDataSchema`, the routes' own; messages of that check and
 * the server's field errors are shown per field.
 */
export function BillAddPage({ fileUuid, title = 'Add bill', qrBill, bill }: BillFormProps = {}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The supplier's Swico S1 billing information, when its QR-bill carries one: date, term and VAT.
  const s1 = qrBill ? parseSwicoS1(qrBill.billInformation) : null;
  const swicoLine = s1 ? swicoSummary(s1) : '';
  const [defaultValues] = useState(() => initialValues(bill, qrBill, s1));

  const companies = useQuery(companiesQuery());
  const allProfiles = useQuery({ ...allProfilesQuery(), enabled: !!qrBill });
  const ownCompany = companies.data?.data.find((c) => c.isOwn)?.uuid;
  // The server's order (supplier-match.service): an IBAN/QR-bill profile with this IBAN, then the name.
  const ibanMatches = qrBill ? (allProfiles.data?.data ?? []).filter((p) => (p.type === 1 || p.type === 2) && p.iban && normalizeIban(p.iban) === qrBill.iban && p.company?.uuid !== ownCompany) : [];
  const ibanMatch = qrBill ? (ibanMatches.find((p) => p.company && sameName(p.company.name, qrBill.creditor.name)) ?? ibanMatches[0]) : undefined;
  const nameMatch = qrBill && !ibanMatch ? companies.data?.data.find((c) => !c.isOwn && sameName(c.name, qrBill.creditor.name)) : undefined;
  const matchedCompany = ibanMatch?.company?.uuid ?? nameMatch?.uuid ?? null;
  const matchedProfile = ibanMatch ? String(ibanMatch.id) : null;
  // Untouched supplier fields on a QR-bill: the server resolves the supplier (and adds what is missing).
  const sendsSupplierFor = (values: Pick<BillFormValues, 'type' | 'company' | 'companyFinance'>) =>
    !!qrBill && values.type === '0' && values.company === undefined && values.companyFinance === undefined;

  /** Form values → `data` of the request; without `company`/`companyFinance` when the server resolves the QR-bill's supplier. */
  const toPayload = (values: BillFormValues) => {
    const company = values.company === undefined ? matchedCompany : values.company;
    const profile = values.companyFinance === undefined ? matchedProfile : values.companyFinance;
    return {
      type: values.type === '1' ? 1 : 0,
      ...(sendsSupplierFor(values) ? {} : { company: company ? { uuid: company } : null, companyFinance: profile ? { id: Number(profile) } : null }),
      date: values.date ?? '',
      dueDate: values.dueDate,
      amount: values.amount,
      // Editing sends 0 for a cleared VAT amount; a new bill leaves it to the server's default.
      ...(values.vatAmount ? { vatAmount: values.vatAmount } : bill ? { vatAmount: '0' } : {}),
      currency: values.currency,
      ...(values.exchangeRate ? { exchangeRate: values.exchangeRate } : {}),
      expenseAccount: values.expenseAccount ? { id: Number(values.expenseAccount) } : null,
      referenceNumber: values.referenceNumber.trim() || null,
      message: values.message.trim() || null,
      description: values.description,
    };
  };

  const { control, handleSubmit, setError, setValue, formState } = useForm<BillFormValues, unknown, PayableData>({
    defaultValues,
    resolver: payloadResolver(payableDataSchema, toPayload, { known: formFields, formPath: toFormPath }),
  });
  const [type, chosenCompany, chosenProfile, currency] = useWatch({ control, name: ['type', 'company', 'companyFinance', 'currency'] });
  const company = chosenCompany === undefined ? matchedCompany : chosenCompany;
  const profile = chosenProfile === undefined ? matchedProfile : chosenProfile;
  const profiles = useQuery(profilesQuery(company));
  const accounts = useQuery(expenseAccountsQuery());
  const sendsSupplier = sendsSupplierFor({ type, company: chosenCompany, companyFinance: chosenProfile });
  const lookupDone = companies.isSuccess && allProfiles.isSuccess;
  const createsSupplier = sendsSupplier && lookupDone && !matchedCompany;
  const createsProfile = sendsSupplier && lookupDone && !!nameMatch;

  const save = useMutation({
    mutationFn: async (input: PayableData) => {
      if (bill) return updatePayable(bill.uuid, input);
      // toPayload left out company and profile: the server matches or creates them from the QR-bill.
      if (sendsSupplier && qrBill) {
        return confirmPayable(input, { name: qrBill.creditor.name, address: supplierAddress(qrBill), iban: qrBill.iban }, fileUuid);
      }
      return confirmPayable(input, undefined, fileUuid);
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      await navigate(bill ? paths.billDetail.getHref(saved.uuid) : '/bill');
    },
  });
  const fields = serverFieldErrors(save.error);
  const supplierErrors = Object.entries(fields).filter(([key]) => key.startsWith('supplier.') || key === 'file.uuid');
  const [unplaced, setUnplaced] = useState<string[]>([]);

  const submit = handleSubmit(async (data) => {
    setUnplaced([]);
    try {
      await save.mutateAsync(data);
    } catch (error) {
      // Supplier and file messages have their own alert below; the rest go next to their inputs.
      const rest = applyFieldErrors(setError, serverFieldErrors(error), formFields, (path) => serverFormPath(path));
      setUnplaced(rest.filter((line) => !line.startsWith('supplier.') && !line.startsWith('file.uuid')));
    }
  });

  return (
    <Page title={title}>
      <Paper withBorder p="md" radius="md" component="form" onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          {qrBill ? (
            <Alert color="teal" variant="light" title="QR-bill read" aria-label="QR-bill read">
              <Text size="sm">
                {qrBill.creditor.name}, {[qrBill.creditor.street, qrBill.creditor.buildingNumber].filter(Boolean).join(' ')}, {[qrBill.creditor.zip, qrBill.creditor.city].filter(Boolean).join(' ')} ({qrBill.creditor.country})
                {' · '}
                {formatIban(qrBill.iban)}
                {isQrIban(qrBill.iban) ? ' (QR-IBAN)' : ''}
              </Text>
              {swicoLine ? <Text size="sm">{swicoLine}</Text> : null}
              {sendsSupplier && ibanMatch ? <Text size="sm">Known IBAN: the bill goes to {ibanMatch.company?.name}.</Text> : null}
              {createsSupplier ? <Text size="sm">New supplier: saving creates it with this address and IBAN.</Text> : null}
              {createsProfile ? <Text size="sm">Saving adds this IBAN to the supplier&apos;s payment profiles.</Text> : null}
            </Alert>
          ) : null}
          {!bill ? (
            <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <SegmentedControl
                  value={field.value}
                  onChange={(value) => field.onChange(value as '0' | '1')}
                  data={[
                    { value: '0', label: 'Supplier bill' },
                    { value: '1', label: 'Expense (staff)' },
                  ]}
                  w={320}
                />
              )}
            />
          ) : null}
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="company"
                render={({ fieldState }) => (
                  <Select
                    label="Supplier"
                    searchable
                    clearable
                    data={(companies.data?.data ?? []).filter((c) => !c.isOwn).map((c) => ({ value: c.uuid, label: c.name }))}
                    value={company}
                    onChange={(value) => {
                      setValue('company', value);
                      setValue('companyFinance', null);
                    }}
                    error={fieldState.error?.message}
                    withAsterisk={type === '0'}
                    placeholder={companies.isError ? 'Could not load the companies' : createsSupplier && qrBill ? `New: ${qrBill.creditor.name}` : 'Company'}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="companyFinance"
                render={({ field, fieldState }) => (
                  <Select
                    label="Pay to (IBAN / QR-IBAN)"
                    data={(profiles.data?.data ?? []).filter((p) => p.iban).map((p) => ({ value: String(p.id), label: `${formatIban(p.iban!)}${p.type === 2 ? ' (QR)' : ''}` }))}
                    value={profile}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                    disabled={!company}
                    clearable
                    placeholder={(createsProfile || createsSupplier) && qrBill ? `New: ${formatIban(qrBill.iban)}` : undefined}
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <Controller
                control={control}
                name="date"
                render={({ field, fieldState }) => <DateField label="Bill date" value={field.value} onChange={field.onChange} error={fieldState.error?.message} withAsterisk />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <Controller
                control={control}
                name="dueDate"
                render={({ field, fieldState }) => <DateField label="Due date" value={field.value} onChange={field.onChange} error={fieldState.error?.message} clearable />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="amount"
                render={({ field, fieldState }) => <NumericInput label="Amount" allowDecimal value={field.value} onChange={field.onChange} error={fieldState.error?.message} withAsterisk />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="vatAmount"
                render={({ field, fieldState }) => <NumericInput label="of which VAT" allowDecimal value={field.value} onChange={field.onChange} error={fieldState.error?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="currency"
                render={({ field, fieldState }) => (
                  <Select label="Currency" data={currencyCodes} value={field.value} onChange={(v) => field.onChange(v ?? 'CHF')} allowDeselect={false} error={fieldState.error?.message} />
                )}
              />
            </Grid.Col>
            {currency !== 'CHF' ? (
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <Controller
                  control={control}
                  name="exchangeRate"
                  render={({ field, fieldState }) => (
                    <NumericInput label="Exchange rate" allowDecimal maxDecimals={10} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
                  )}
                />
              </Grid.Col>
            ) : null}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="expenseAccount"
                render={({ field, fieldState }) => (
                  <Select
                    label="Account"
                    description="Expense (classes 4–6) or fixed asset (15xx–17xx); search by number or name"
                    searchable
                    clearable
                    data={(accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                    placeholder="Default: last used for the supplier, else 4000"
                  />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="referenceNumber"
                render={({ field, fieldState }) => <TextInput label="Reference (QR or RF…)" {...field} error={fieldState.error?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="message"
                render={({ field, fieldState }) => <TextInput label="Message to the supplier" {...field} error={fieldState.error?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="description"
                render={({ field, fieldState }) => <TextInput label="Description" {...field} error={fieldState.error?.message} />}
              />
            </Grid.Col>
          </Grid>
          {supplierErrors.length ? (
            <Alert color="red" variant="light" title="The supplier of the QR-bill">
              {supplierErrors.map(([key, text]) => (
                <Text key={key} size="sm">
                  {key}: {text}
                </Text>
              ))}
            </Alert>
          ) : null}
          {formState.errors.root?.message || unplaced.length ? (
            <Alert color="red" variant="light" role="alert">
              {[formState.errors.root?.message, ...unplaced].filter(Boolean).join('; ')}
            </Alert>
          ) : save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {Object.keys(fields).length ? 'Please correct the marked fields.' : `Could not save the bill: ${errorMessage(save.error)}`}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate(bill ? paths.billDetail.getHref(bill.uuid) : '/bill')}>
              Cancel
            </Button>
            <Button type="submit" loading={formState.isSubmitting}>
              {bill ? 'Save changes' : 'Save bill'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Page>
  );
}
