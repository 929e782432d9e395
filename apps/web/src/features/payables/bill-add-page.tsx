import { useRef, useState } from 'react';
import { Alert, Anchor, Button, FileInput, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconReceipt } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import {
  countryIsoCode,
  currencyCodes,
  formatDate,
  formatIban,
  isQrIban,
  normalizeIban,
  parseSwicoS1,
  payableDataIssues,
  payableDataSchema,
  payableEmployeeSchema,
  swicoDueDate,
  swicoVatAmount,
  validationMessages,
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
import { CompanyPicker } from '../../ui/company-picker';
import {
  companiesNamedQuery,
  ownCompanyQuery,
  confirmPayable,
  employeesQuery,
  expenseAccountsQuery,
  ibanProfilesQuery,
  inboxContentType,
  payablesKey,
  profilesQuery,
  updatePayable,
  uploadInboxFile,
  type EmployeeData,
  type Payable,
  type PayableData,
  type SupplierData,
} from './api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

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
function swicoSummary(s1: SwicoS1, t: TFunction): string {
  const parts = [
    s1.invoiceNumber ? t('Invoice {{number}}', { number: s1.invoiceNumber }) : null,
    s1.invoiceDate ? t('of {{date}}', { date: formatDate(s1.invoiceDate) }) : null,
    s1.uid ? `UID ${s1.uid}` : null,
    s1.vat ? t('VAT {{rates}}', { rates: s1.vat.map((v) => (v.net ? t('{{rate}} % on {{net}}', { rate: v.rate, net: v.net }) : `${v.rate} %`)).join(', ') }) : null,
    ...(s1.conditions ?? []).filter((c) => c.discount !== '0').map((c) => t('{{discount}} % discount within {{days}} days', { discount: c.discount, days: c.days })),
  ];
  return parts.filter(Boolean).join(' · ');
}

const QR_IBAN_SUFFIX = ' (QR-IBAN)';

/** What a receipt or voucher may be: the inbox's file types, without mails. */
const RECEIPT_TYPES = 'application/pdf,image/png,image/jpeg,image/webp';

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
  /** A staff expense's new employee ('New employee'): sent as `employee { name, iban }`. */
  employeeName: string;
  employeeIban: string;
}

const formFields = [
  'type',
  'company',
  'companyFinance',
  'date',
  'dueDate',
  'amount',
  'vatAmount',
  'currency',
  'exchangeRate',
  'expenseAccount',
  'referenceNumber',
  'message',
  'description',
  'employeeName',
  'employeeIban',
] as const;
/** Payload path → input: a reference `{ uuid }` / `{ id }` is one select. */
const toFormPath = (path: string) => path.replace(/^(company|companyFinance|expenseAccount)\.(uuid|id)$/, '$1');
/** Server fields that are not under `data`: the QR-bill supplier's name and the employee go to the party inputs. */
const PARTY_PATHS: Record<string, string> = { 'supplier.name': 'company', employee: 'company', 'employee.name': 'employeeName', 'employee.iban': 'employeeIban' };
/** A server field of /payable/insert or /payable/update → input. */
const serverFormPath = (path: string) => PARTY_PATHS[path] ?? (path.startsWith('data.') ? toFormPath(path.slice(5)) : undefined);

/** The form's first values: the bill being edited, else the QR-bill and its Swico S1 information, else empty. */
function initialValues(bill: Payable | undefined, qrBill: ParsedQrBill | null | undefined, s1: SwicoS1 | null, expense: boolean): BillFormValues {
  return {
    type: (bill ? bill.isExpense : expense) ? '1' : '0',
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
    employeeName: '',
    employeeIban: '',
  };
}

/**
 * A staff expense's rules beyond `payableDataSchema` (issue 16 §4), by form field: its description
 * (the domain's `payableDataIssues`, the server's own rule), and its employee — one on file, or a
 * new one whose name and IBAN pass `payableEmployeeSchema`, the route's schema.
 */
function expenseIssues(values: BillFormValues, newEmployee: boolean, company: string | null): Record<string, string> {
  if (values.type !== '1') return {};
  const issues: Record<string, string> = { ...payableDataIssues({ type: 1, description: values.description }) };
  if (newEmployee) {
    const parsed = payableEmployeeSchema.safeParse({ name: values.employeeName, iban: values.employeeIban });
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = issue.path[0] === 'name' ? 'employeeName' : 'employeeIban';
      issues[field] ??= issue.message;
    }
  } else if (!company) {
    issues.company = validationMessages.expenseEmployeeRequired;
  }
  return issues;
}

/**
 * /bill/add: a supplier bill (pending) or a staff expense (`?type=expense` preselects it); also the
 * draft beside an inbox file and, with `bill`, the edit form of a pending bill. A QR-bill's
 * supplier is shown as the server will resolve it on save (same rules: a payment profile with its
 * IBAN, else a company of that name, else new) and saved in the bill's own call, so a failure
 * leaves no half-created supplier.
 *
 * A staff expense is a claim of an employee (issue 16 §4), and the form says so: 'Employee' (a
 * person expenses were owed to before, another person on file, or a new one with name and IBAN,
 * created with the expense), 'Receipt', a required 'Description' (the journal text) and a
 * 'Payment note' for the transfer. A chosen receipt or voucher is uploaded to the inbox on save and
 * attached in the bill's own call; a retry after a refused save sends the same upload again.
 * The form checks its payload with `payableDataSchema`, the routes' own; messages of that check and
 * the server's field errors are shown per field.
 */
export function BillAddPage({ fileUuid, title, qrBill, bill }: BillFormProps = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  // The supplier's Swico S1 billing information, when its QR-bill carries one: date, term and VAT.
  const s1 = qrBill ? parseSwicoS1(qrBill.billInformation) : null;
  const swicoLine = s1 ? swicoSummary(s1, t) : '';
  const [defaultValues] = useState(() => initialValues(bill, qrBill, s1, !qrBill && search.get('type') === 'expense'));
  const [newEmployee, setNewEmployee] = useState(false);
  const [receipt, setReceipt] = useState<File | null>(null);
  // The inbox file a chosen receipt became: a retry after a refused save sends it again, not a copy.
  const uploaded = useRef<{ file: File; uuid: string } | null>(null);

  // The companies named like the QR-bill's creditor only (the server searches), not every company of the instance.
  const companies = useQuery(companiesNamedQuery(qrBill?.creditor.name ?? null));
  const own = useQuery(ownCompanyQuery());
  const employees = useQuery(employeesQuery());
  // The profiles with the QR-bill's IBAN only (the server filters), not every profile of the instance.
  const ibanProfiles = useQuery(ibanProfilesQuery(qrBill?.iban ?? null));
  const ownCompany = own.data ?? undefined;
  // The server's order (supplier-match.service): an IBAN/QR-bill profile with this IBAN, then the name.
  const ibanMatches = qrBill ? (ibanProfiles.data?.data ?? []).filter((p) => (p.type === 1 || p.type === 2) && p.iban && normalizeIban(p.iban) === qrBill.iban && p.company?.uuid !== ownCompany) : [];
  const ibanMatch = qrBill ? (ibanMatches.find((p) => p.company && sameName(p.company.name, qrBill.creditor.name)) ?? ibanMatches[0]) : undefined;
  const nameMatch = qrBill && !ibanMatch ? companies.data?.data.find((c) => !c.isOwn && sameName(c.name, qrBill.creditor.name)) : undefined;
  const matchedCompany = ibanMatch?.company?.uuid ?? nameMatch?.uuid ?? null;
  const matchedProfile = ibanMatch ? String(ibanMatch.id) : null;
  // Untouched supplier fields on a QR-bill: the server resolves the supplier (and adds what is missing).
  const sendsSupplierFor = (values: Pick<BillFormValues, 'type' | 'company' | 'companyFinance'>) =>
    !!qrBill && values.type === '0' && values.company === undefined && values.companyFinance === undefined;

  // A new employee of an expense is sent as `employee`: the server matches or creates the person.
  const sendsEmployeeFor = (values: Pick<BillFormValues, 'type'>) => values.type === '1' && newEmployee;

  /**
   * Form values → `data` of the request; without `company`/`companyFinance` when the server resolves
   * the QR-bill's supplier or the new employee.
   */
  const toPayload = (values: BillFormValues) => {
    const company = values.company === undefined ? matchedCompany : values.company;
    const profile = values.companyFinance === undefined ? matchedProfile : values.companyFinance;
    return {
      type: values.type === '1' ? 1 : 0,
      ...(sendsSupplierFor(values) || sendsEmployeeFor(values)
        ? {}
        : { company: company ? { uuid: company } : null, companyFinance: profile ? { id: Number(profile) } : null }),
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

  const payloadCheck = payloadResolver(payableDataSchema, toPayload, { known: formFields, formPath: toFormPath });
  /** The payload's schema, then the expense's own rules; each field shows its first message. */
  const resolver: Resolver<BillFormValues, unknown, PayableData> = async (values, context, options) => {
    const result = await payloadCheck(values, context, options);
    const issues = expenseIssues(values, newEmployee, values.company === undefined ? matchedCompany : values.company);
    if (!Object.keys(issues).length) return result;
    const errors: FieldErrors<BillFormValues> = { ...result.errors };
    for (const [field, message] of Object.entries(issues) as [keyof BillFormValues, string][]) errors[field] ??= { type: 'validate', message };
    return { values: {}, errors };
  };
  const { control, handleSubmit, setError, setValue, getValues, clearErrors, formState } = useForm<BillFormValues, unknown, PayableData>({ defaultValues, resolver });
  const [type, chosenCompany, chosenProfile, currency] = useWatch({ control, name: ['type', 'company', 'companyFinance', 'currency'] });
  const isExpense = type === '1';
  const company = chosenCompany === undefined ? matchedCompany : chosenCompany;
  const profile = chosenProfile === undefined ? matchedProfile : chosenProfile;
  const profiles = useQuery(profilesQuery(company));
  const accounts = useQuery(expenseAccountsQuery());
  const sendsSupplier = sendsSupplierFor({ type, company: chosenCompany, companyFinance: chosenProfile });
  const lookupDone = companies.isSuccess && own.isSuccess && ibanProfiles.isSuccess;
  const createsSupplier = sendsSupplier && lookupDone && !matchedCompany;
  const createsProfile = sendsSupplier && lookupDone && !!nameMatch;

  /** The chosen receipt as an inbox file (uploaded once), attached by the save call. */
  const receiptUuid = async (): Promise<string | undefined> => {
    if (!receipt) return undefined;
    if (uploaded.current?.file === receipt) return uploaded.current.uuid;
    if (inboxContentType(receipt) === 'message/rfc822') throw new Error(t('{{name}}: a receipt is a PDF or an image', { name: receipt.name }));
    const answer = await uploadInboxFile(receipt, () => undefined);
    if (!('uuid' in answer)) throw new Error(t('{{name}}: a receipt is a PDF or an image', { name: receipt.name }));
    uploaded.current = { file: receipt, uuid: answer.uuid };
    return answer.uuid;
  };

  const save = useMutation({
    mutationFn: async (input: PayableData) => {
      const values = getValues();
      const employee: EmployeeData | undefined = sendsEmployeeFor(values) ? { name: values.employeeName.trim(), iban: values.employeeIban.trim() } : undefined;
      const voucher = fileUuid ?? (await receiptUuid());
      if (bill) return updatePayable(bill.uuid, input, employee, fileUuid ? undefined : voucher);
      // toPayload left out company and profile: the server matches or creates them from the QR-bill.
      if (sendsSupplier && qrBill) {
        return confirmPayable(input, { name: qrBill.creditor.name, address: supplierAddress(qrBill), iban: qrBill.iban }, voucher);
      }
      return confirmPayable(input, undefined, voucher, employee);
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      await navigate(bill ? paths.billDetail.getHref(saved.uuid) : '/bill');
    },
  });
  const fields = serverFieldErrors(save.error);
  const supplierErrors = Object.entries(fields).filter(([key]) => key.startsWith('supplier.') || key === 'file.uuid');
  const staff = employees.data?.data ?? [];
  // Employees first (people expenses were owed to), then the persons and companies on file the search finds.
  const staffGroup = { group: t('Staff'), items: staff.map((employee) => ({ value: employee.company.uuid, label: employee.company.name })) };
  const profileOptions = (profiles.data?.data ?? []).filter((p) => p.iban).map((p) => ({ value: String(p.id), label: `${formatIban(p.iban!)}${p.type === 2 ? ' (QR)' : ''}` }));
  const pageTitle = title ?? (isExpense ? t('Add expense') : t('Add bill'));
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const problemText = [formState.errors.root?.message, ...unplaced].filter(Boolean).join('; ');

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

  /** 'New employee' ↔ 'Choose an employee on file': the other way's inputs are cleared. */
  const chooseNewEmployee = (on: boolean) => {
    setNewEmployee(on);
    setValue('company', null);
    setValue('companyFinance', null);
    setValue('employeeName', '');
    setValue('employeeIban', '');
    clearErrors(['company', 'companyFinance', 'employeeName', 'employeeIban']);
  };

  return (
    <Page title={pageTitle}>
      <Paper withBorder p="md" radius="md" component="form" onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          {qrBill ? (
            <Alert color="teal" variant="light" title={t('QR-bill read')} aria-label={t('QR-bill read')}>
              <Text size="sm">
                {`${qrBill.creditor.name}, ${[qrBill.creditor.street, qrBill.creditor.buildingNumber].filter(Boolean).join(' ')}, ${[qrBill.creditor.zip, qrBill.creditor.city].filter(Boolean).join(' ')} (${qrBill.creditor.country}) · ${formatIban(qrBill.iban)}${isQrIban(qrBill.iban) ? QR_IBAN_SUFFIX : ''}`}
              </Text>
              {swicoLine ? <Text size="sm">{swicoLine}</Text> : null}
              {sendsSupplier && ibanMatch ? <Text size="sm">{t('Known IBAN: the bill goes to {{name}}.', { name: ibanMatch.company?.name })}</Text> : null}
              {createsSupplier ? <Text size="sm">{t('New supplier: saving creates it with this address and IBAN.')}</Text> : null}
              {createsProfile ? <Text size="sm">{t("Saving adds this IBAN to the supplier's payment profiles.")}</Text> : null}
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
                    { value: '0', label: t('Supplier bill') },
                    { value: '1', label: t('Expense (staff)') },
                  ]}
                  w={320}
                />
              )}
            />
          ) : null}
          <Grid>
            {isExpense ? (
              newEmployee ? (
                <>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <Controller
                      control={control}
                      name="employeeName"
                      render={({ field, fieldState }) => (
                        <TextInput label={t('Employee')} description={t('A new employee: first and last name')} {...field} error={fieldState.error?.message} withAsterisk />
                      )}
                    />
                    <Anchor component="button" type="button" size="sm" mt={4} onClick={() => chooseNewEmployee(false)}>
                      {t('Choose an employee on file')}
                    </Anchor>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <Controller
                      control={control}
                      name="employeeIban"
                      render={({ field, fieldState }) => (
                        <TextInput label="IBAN" description={t("The employee's account the expense is refunded to")} {...field} error={fieldState.error?.message} withAsterisk />
                      )}
                    />
                  </Grid.Col>
                </>
              ) : (
                <>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <Controller
                      control={control}
                      name="company"
                      render={({ fieldState }) => (
                        <CompanyPicker
                          label={t('Employee')}
                          description={t('Who paid and is owed the expense')}
                          clearable
                          excludeOwn
                          pinned={staffGroup}
                          othersLabel={t('Other persons and companies')}
                          selectedName={bill?.company?.uuid === company ? bill.company.name : null}
                          value={company ?? null}
                          onChange={(value) => {
                            setValue('company', value, { shouldValidate: formState.isSubmitted });
                            // Refund to where the employee's last expense went, when that account is still active.
                            const known = staff.find((employee) => employee.company.uuid === value)?.paymentProfile;
                            setValue('companyFinance', known ? String(known.id) : null);
                          }}
                          error={fieldState.error?.message}
                          withAsterisk
                          placeholder={t('Choose the employee')}
                        />
                      )}
                    />
                    <Anchor component="button" type="button" size="sm" mt={4} onClick={() => chooseNewEmployee(true)}>
                      {t('New employee (name and IBAN)')}
                    </Anchor>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 6 }}>
                    <Controller
                      control={control}
                      name="companyFinance"
                      render={({ field, fieldState }) => (
                        <Select
                          label={t('Pay to (IBAN)')}
                          description={t('Empty: refunded by hand (cash, wages)')}
                          data={profileOptions}
                          value={profile}
                          onChange={field.onChange}
                          error={fieldState.error?.message}
                          disabled={!company}
                          clearable
                        />
                      )}
                    />
                  </Grid.Col>
                </>
              )
            ) : (
              <>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Controller
                    control={control}
                    name="company"
                    render={({ fieldState }) => (
                      <CompanyPicker
                        label={t('Supplier')}
                        clearable
                        excludeOwn
                        selectedName={bill?.company?.uuid === company ? bill.company.name : (nameMatch?.uuid === company ? nameMatch.name : (ibanMatch?.company?.uuid === company ? ibanMatch.company.name : null))}
                        value={company ?? null}
                        onChange={(value) => {
                          setValue('company', value);
                          setValue('companyFinance', null);
                        }}
                        error={fieldState.error?.message}
                        withAsterisk
                        placeholder={createsSupplier && qrBill ? t('New: {{name}}', { name: qrBill.creditor.name }) : t('Company')}
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
                        label={t('Pay to (IBAN / QR-IBAN)')}
                        data={profileOptions}
                        value={profile}
                        onChange={field.onChange}
                        error={fieldState.error?.message}
                        disabled={!company}
                        clearable
                        placeholder={(createsProfile || createsSupplier) && qrBill ? t('New: {{name}}', { name: formatIban(qrBill.iban) }) : undefined}
                      />
                    )}
                  />
                </Grid.Col>
              </>
            )}
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <Controller
                control={control}
                name="date"
                render={({ field, fieldState }) => (
                  <DateField label={isExpense ? t('Receipt date') : t('Bill date')} value={field.value} onChange={field.onChange} error={fieldState.error?.message} withAsterisk />
                )}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <Controller
                control={control}
                name="dueDate"
                render={({ field, fieldState }) => <DateField label={t('Due date')} value={field.value} onChange={field.onChange} error={fieldState.error?.message} clearable />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="amount"
                render={({ field, fieldState }) => <NumericInput label={t('Amount')} allowDecimal value={field.value} onChange={field.onChange} error={fieldState.error?.message} withAsterisk />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="vatAmount"
                render={({ field, fieldState }) => <NumericInput label={t('of which VAT')} allowDecimal value={field.value} onChange={field.onChange} error={fieldState.error?.message} />}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Controller
                control={control}
                name="currency"
                render={({ field, fieldState }) => (
                  <Select label={t('Currency')} data={currencyCodes} value={field.value} onChange={(v) => field.onChange(v ?? 'CHF')} allowDeselect={false} error={fieldState.error?.message} />
                )}
              />
            </Grid.Col>
            {currency !== 'CHF' ? (
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <Controller
                  control={control}
                  name="exchangeRate"
                  render={({ field, fieldState }) => (
                    <NumericInput label={t('Exchange rate')} allowDecimal maxDecimals={10} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
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
                    label={t('Account')}
                    description={t('Expense (classes 4–6) or fixed asset (15xx–17xx); search by number or name')}
                    searchable
                    clearable
                    data={(accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }))}
                    value={field.value}
                    onChange={field.onChange}
                    error={fieldState.error?.message}
                    placeholder={isExpense ? t('Default: last used for the employee, else 6500') : t('Default: last used for the supplier, else 4000')}
                  />
                )}
              />
            </Grid.Col>
            {isExpense ? (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Controller
                  control={control}
                  name="description"
                  render={({ field, fieldState }) => (
                    <TextInput
                      label={t('Description')}
                      description={t("What was bought, e.g. 'Train ticket Bern': the journal text")}
                      {...field}
                      error={fieldState.error?.message}
                      withAsterisk
                    />
                  )}
                />
              </Grid.Col>
            ) : (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Controller
                  control={control}
                  name="referenceNumber"
                  render={({ field, fieldState }) => <TextInput label={t('Reference (QR or RF…)')} {...field} error={fieldState.error?.message} />}
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Controller
                control={control}
                name="message"
                render={({ field, fieldState }) =>
                  isExpense ? (
                    <TextInput label={t('Payment note')} description={t('Shown to the employee on the transfer (default: the description)')} {...field} error={fieldState.error?.message} />
                  ) : (
                    <TextInput label={t('Message to the supplier')} {...field} error={fieldState.error?.message} />
                  )
                }
              />
            </Grid.Col>
            {isExpense ? null : (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Controller
                  control={control}
                  name="description"
                  render={({ field, fieldState }) => <TextInput label={t('Description')} {...field} error={fieldState.error?.message} />}
                />
              </Grid.Col>
            )}
            {fileUuid ? null : (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <FileInput
                  label={isExpense ? t('Receipt') : t('Voucher')}
                  description={bill ? t('PDF or image, added to those already kept') : t('PDF or image, kept with the document')}
                  accept={RECEIPT_TYPES}
                  leftSection={<IconReceipt size={16} aria-hidden />}
                  value={receipt}
                  onChange={setReceipt}
                  clearable
                  placeholder={t('Choose a file')}
                />
              </Grid.Col>
            )}
          </Grid>
          {supplierErrors.length ? (
            <Alert color="red" variant="light" title={supplierErrors.some(([key]) => key.startsWith('supplier.')) ? t('The supplier of the QR-bill') : isExpense ? t('The receipt') : t('The voucher')}>
              {supplierErrors.map(([key, text]) => (
                <Text key={key} size="sm">
                  {key}: {text}
                </Text>
              ))}
            </Alert>
          ) : null}
          {formState.errors.root?.message || unplaced.length ? (
            <Alert color="red" variant="light" role="alert">
              {problemText}
            </Alert>
          ) : save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {Object.keys(fields).length
                ? t('Please correct the marked fields.')
                : isExpense
                  ? t('Could not save the expense: {{error}}', { error: errorMessage(save.error) })
                  : t('Could not save the bill: {{error}}', { error: errorMessage(save.error) })}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate(bill ? paths.billDetail.getHref(bill.uuid) : '/bill')}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={formState.isSubmitting}>
              {bill ? t('Save changes') : isExpense ? t('Save expense') : t('Save bill')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Page>
  );
}
