import { useState, type FormEvent } from 'react';
import { Alert, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  countryIsoCode,
  currencyCodes,
  formatDate,
  formatIban,
  isQrIban,
  normalizeIban,
  parseSwicoS1,
  swicoDueDate,
  swicoVatAmount,
  type CountryId,
  type CurrencyCode,
  type ParsedQrBill,
  type SwicoS1,
} from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
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

/**
 * /bill/add: a supplier bill (pending) or a staff expense; also the draft beside an inbox file and,
 * with `bill`, the edit form of a pending bill. A QR-bill's supplier is shown as the server will
 * resolve it on save (same rules: a payment profile with its IBAN, else a company of that name,
 * else new) and saved in the bill's own call, so a failure leaves no half-created supplier.
 * Server field errors are shown per field.
 */
export function BillAddPage({ fileUuid, title = 'Add bill', qrBill, bill }: BillFormProps = {}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<'0' | '1'>(bill?.isExpense ? '1' : '0');
  // `undefined`: not touched yet, so the supplier/profile matched from the QR-bill (or the bill's own) applies.
  const [chosenCompany, setCompany] = useState<string | null | undefined>(bill ? (bill.company?.uuid ?? null) : undefined);
  const [chosenProfile, setProfile] = useState<string | null | undefined>(bill ? (bill.companyFinance ? String(bill.companyFinance.id) : null) : undefined);
  // The supplier's Swico S1 billing information, when its QR-bill carries one: date, term and VAT.
  const s1 = qrBill ? parseSwicoS1(qrBill.billInformation) : null;
  const swicoLine = s1 ? swicoSummary(s1) : '';
  const [date, setDate] = useState<string | null>(bill?.date ?? s1?.invoiceDate ?? today());
  const [dueDate, setDueDate] = useState<string | null>(bill?.dueDate ?? (s1 ? swicoDueDate(s1) : undefined) ?? null);
  const [amount, setAmount] = useState(bill?.amount ?? qrBill?.amount ?? '');
  const [vatAmount, setVatAmount] = useState(bill ? (bill.vatAmount !== '0.00' ? bill.vatAmount : '') : ((s1 && swicoVatAmount(s1, qrBill?.amount)) ?? ''));
  const [currency, setCurrency] = useState<string>(bill?.currency ?? qrBill?.currency ?? 'CHF');
  const [exchangeRate, setExchangeRate] = useState(bill && bill.exchangeRate !== '1' ? bill.exchangeRate : '');
  const [account, setAccount] = useState<string | null>(bill?.expenseAccount ? String(bill.expenseAccount.id) : null);
  const [reference, setReference] = useState(bill?.referenceNumber ?? qrBill?.reference ?? '');
  const [message, setMessage] = useState(bill?.message ?? qrBill?.message ?? '');
  const [description, setDescription] = useState(bill?.description ?? (s1?.invoiceNumber ? `Invoice ${s1.invoiceNumber}` : ''));

  const companies = useQuery(companiesQuery());
  const allProfiles = useQuery({ ...allProfilesQuery(), enabled: !!qrBill });
  const ownCompany = companies.data?.data.find((c) => c.isOwn)?.uuid;
  // The server's order (supplier-match.service): an IBAN/QR-bill profile with this IBAN, then the name.
  const ibanMatches = qrBill ? (allProfiles.data?.data ?? []).filter((p) => (p.type === 1 || p.type === 2) && p.iban && normalizeIban(p.iban) === qrBill.iban && p.company?.uuid !== ownCompany) : [];
  const ibanMatch = qrBill ? (ibanMatches.find((p) => p.company && sameName(p.company.name, qrBill.creditor.name)) ?? ibanMatches[0]) : undefined;
  const nameMatch = qrBill && !ibanMatch ? companies.data?.data.find((c) => !c.isOwn && sameName(c.name, qrBill.creditor.name)) : undefined;
  const matchedCompany = ibanMatch?.company?.uuid ?? nameMatch?.uuid ?? null;
  const company = chosenCompany === undefined ? matchedCompany : chosenCompany;
  const profiles = useQuery(profilesQuery(company));
  const profile = chosenProfile === undefined ? (ibanMatch ? String(ibanMatch.id) : null) : chosenProfile;
  const accounts = useQuery(expenseAccountsQuery());
  // Untouched supplier fields on a QR-bill: the server resolves the supplier (and adds what is missing).
  const sendsSupplier = !!qrBill && type === '0' && chosenCompany === undefined && chosenProfile === undefined;
  const lookupDone = companies.isSuccess && allProfiles.isSuccess;
  const createsSupplier = sendsSupplier && lookupDone && !matchedCompany;
  const createsProfile = sendsSupplier && lookupDone && !!nameMatch;

  const save = useMutation({
    mutationFn: async (input: PayableData) => {
      if (bill) return updatePayable(bill.uuid, input);
      if (sendsSupplier && qrBill) {
        const { company: _company, companyFinance: _profile, ...data } = input;
        return confirmPayable(data, { name: qrBill.creditor.name, address: supplierAddress(qrBill), iban: qrBill.iban }, fileUuid);
      }
      return confirmPayable(input, undefined, fileUuid);
    },
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      await navigate(bill ? paths.billDetail.getHref(saved.uuid) : '/bill');
    },
  });
  const fields = serverFieldErrors(save.error);
  const err = (name: string) => fields[`data.${name}`] ?? (name.startsWith('company') ? fields['supplier.name'] : undefined);
  const supplierErrors = Object.entries(fields).filter(([key]) => key.startsWith('supplier.') || key === 'file.uuid');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      type: type === '1' ? 1 : 0,
      company: company ? { uuid: company } : null,
      companyFinance: profile ? { id: Number(profile) } : null,
      date: date ?? '',
      dueDate,
      amount,
      ...(vatAmount ? { vatAmount } : bill ? { vatAmount: '0' } : {}),
      // The select offers only the schema's currency codes.
      currency: currency as CurrencyCode,
      ...(exchangeRate ? { exchangeRate } : {}),
      expenseAccount: account ? { id: Number(account) } : null,
      referenceNumber: reference.trim() || null,
      message: message.trim() || null,
      description,
    });
  };

  return (
    <Page title={title}>
      <Paper withBorder p="md" radius="md" component="form" onSubmit={submit}>
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
            <SegmentedControl
              value={type}
              onChange={(value) => setType(value as '0' | '1')}
              data={[
                { value: '0', label: 'Supplier bill' },
                { value: '1', label: 'Expense (staff)' },
              ]}
              w={320}
            />
          ) : null}
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label="Supplier"
                searchable
                clearable
                data={(companies.data?.data ?? []).filter((c) => !c.isOwn).map((c) => ({ value: c.uuid, label: c.name }))}
                value={company}
                onChange={(value) => {
                  setCompany(value);
                  setProfile(null);
                }}
                error={err('company.uuid')}
                withAsterisk={type === '0'}
                placeholder={companies.isError ? 'Could not load the companies' : createsSupplier && qrBill ? `New: ${qrBill.creditor.name}` : 'Company'}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label="Pay to (IBAN / QR-IBAN)"
                data={(profiles.data?.data ?? []).filter((p) => p.iban).map((p) => ({ value: String(p.id), label: `${formatIban(p.iban!)}${p.type === 2 ? ' (QR)' : ''}` }))}
                value={profile}
                onChange={setProfile}
                error={err('companyFinance.id')}
                disabled={!company}
                clearable
                placeholder={(createsProfile || createsSupplier) && qrBill ? `New: ${formatIban(qrBill.iban)}` : undefined}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <DateField label="Bill date" value={date} onChange={setDate} error={err('date')} withAsterisk />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <DateField label="Due date" value={dueDate} onChange={setDueDate} error={err('dueDate')} clearable />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <NumericInput label="Amount" allowDecimal value={amount} onChange={setAmount} error={err('amount')} withAsterisk />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <NumericInput label="of which VAT" allowDecimal value={vatAmount} onChange={setVatAmount} error={err('vatAmount')} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 2 }}>
              <Select label="Currency" data={currencyCodes} value={currency} onChange={(v) => setCurrency(v ?? 'CHF')} allowDeselect={false} error={err('currency')} />
            </Grid.Col>
            {currency !== 'CHF' ? (
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <NumericInput label="Exchange rate" allowDecimal maxDecimals={10} value={exchangeRate} onChange={setExchangeRate} error={err('exchangeRate')} />
              </Grid.Col>
            ) : null}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label="Expense account"
                searchable
                clearable
                data={(accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }))}
                value={account}
                onChange={setAccount}
                error={err('expenseAccount.id')}
                placeholder="Default: last used for the supplier, else 4000"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Reference (QR or RF…)" value={reference} onChange={(e) => setReference(e.currentTarget.value)} error={err('referenceNumber')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Message to the supplier" value={message} onChange={(e) => setMessage(e.currentTarget.value)} error={err('message')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={err('description')} />
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
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {Object.keys(fields).length ? 'Please correct the marked fields.' : `Could not save the bill: ${errorMessage(save.error)}`}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate(bill ? paths.billDetail.getHref(bill.uuid) : '/bill')}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {bill ? 'Save changes' : 'Save bill'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Page>
  );
}
