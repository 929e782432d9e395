import { useState, type FormEvent } from 'react';
import { Alert, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { countryIsoCode, currencyCodes, formatIban, isQrIban, type CountryId, type ParsedQrBill } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { Page } from '../../ui/page';
import {
  attachFile,
  companiesQuery,
  expenseAccountsQuery,
  insertPayable,
  insertSupplier,
  insertSupplierProfile,
  payablesKey,
  profilesQuery,
  type PayableData,
} from './api';

const today = () => new Date().toISOString().slice(0, 10);
const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase('de-CH') === b.trim().toLocaleLowerCase('de-CH');
const countryIdOf = (iso: string): number | undefined =>
  (Object.entries(countryIsoCode) as [string, string][]).find(([, code]) => code === iso)?.[0] as CountryId | undefined;

/** The structured address of a QR-bill creditor, when the company form can hold it (S type, known country). */
function supplierAddress(bill: ParsedQrBill) {
  const countryId = countryIdOf(bill.creditor.country);
  if (bill.creditor.type !== 'S' || !countryId || !bill.creditor.street || !bill.creditor.zip || !bill.creditor.city) return null;
  return { street: bill.creditor.street, houseNumber: bill.creditor.buildingNumber, zip: bill.creditor.zip, city: bill.creditor.city, countryId: Number(countryId) };
}

/**
 * /bill/add: a supplier bill (pending) or a staff expense; also the draft beside an inbox file
 * (`fileUuid`: the file is attached to the new bill). Server field errors shown per field.
 */
export function BillAddPage({ fileUuid, title = 'Add bill', qrBill }: { fileUuid?: string; title?: string; qrBill?: ParsedQrBill | null } = {}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<'0' | '1'>('0');
  // `undefined`: not touched yet, so the supplier/profile matched from the QR-bill applies.
  const [chosenCompany, setCompany] = useState<string | null | undefined>(undefined);
  const [chosenProfile, setProfile] = useState<string | null | undefined>(undefined);
  const [date, setDate] = useState<string | null>(today());
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [amount, setAmount] = useState(qrBill?.amount ?? '');
  const [vatAmount, setVatAmount] = useState('');
  const [currency, setCurrency] = useState<string>(qrBill?.currency ?? 'CHF');
  const [exchangeRate, setExchangeRate] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [reference, setReference] = useState(qrBill?.reference ?? '');
  const [message, setMessage] = useState(qrBill?.message ?? '');
  const [description, setDescription] = useState('');

  const companies = useQuery(companiesQuery());
  // A QR-bill's creditor is matched to an existing company by name, its IBAN to one of its profiles.
  const matched = qrBill ? companies.data?.data.find((c) => sameName(c.name, qrBill.creditor.name)) : undefined;
  const company = chosenCompany === undefined ? (matched?.uuid ?? null) : chosenCompany;
  const profiles = useQuery(profilesQuery(company));
  const matchedProfile = qrBill && company ? profiles.data?.data.find((p) => p.iban?.replace(/\s/g, '') === qrBill.iban) : undefined;
  const profile = chosenProfile === undefined ? (matchedProfile ? String(matchedProfile.id) : null) : chosenProfile;
  const accounts = useQuery(expenseAccountsQuery());
  // Confirming creates what the QR-bill names but the books lack: the supplier, its IBAN profile.
  const createsSupplier = !!qrBill && type === '0' && !company && chosenCompany === undefined && companies.isSuccess;
  const createsProfile = !!qrBill && type === '0' && !!company && !profile && chosenProfile === undefined && profiles.isSuccess;

  const save = useMutation({
    mutationFn: async (input: PayableData) => {
      const data = { ...input };
      if (qrBill && createsSupplier) {
        const uuid = await insertSupplier({ name: qrBill.creditor.name, address: supplierAddress(qrBill) });
        data.company = { uuid };
        data.companyFinance = { id: await insertSupplierProfile(uuid, qrBill.iban, isQrIban(qrBill.iban)) };
      } else if (qrBill && createsProfile && company) {
        data.companyFinance = { id: await insertSupplierProfile(company, qrBill.iban, isQrIban(qrBill.iban)) };
      }
      const bill = await insertPayable(data);
      // A bill drafted from an inbox file keeps the file as its voucher.
      if (fileUuid) await attachFile(fileUuid, bill.id);
      return bill;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      await navigate('/bill');
    },
  });
  const fields = serverFieldErrors(save.error);
  const err = (name: string) => fields[`data.${name}`];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      type: type === '1' ? 1 : 0,
      company: company ? { uuid: company } : null,
      companyFinance: profile ? { id: Number(profile) } : null,
      date: date ?? '',
      dueDate,
      amount,
      ...(vatAmount ? { vatAmount } : {}),
      currency,
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
              {createsSupplier ? <Text size="sm">New supplier: saving creates it with this address and IBAN.</Text> : null}
              {createsProfile ? <Text size="sm">Saving adds this IBAN to the supplier&apos;s payment profiles.</Text> : null}
            </Alert>
          ) : null}
          <SegmentedControl
            value={type}
            onChange={(value) => setType(value as '0' | '1')}
            data={[
              { value: '0', label: 'Supplier bill' },
              { value: '1', label: 'Expense (staff)' },
            ]}
            w={320}
          />
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select
                label="Supplier"
                searchable
                clearable
                data={(companies.data?.data ?? []).map((c) => ({ value: c.uuid, label: c.name }))}
                value={company}
                onChange={(value) => {
                  setCompany(value);
                  setProfile(undefined);
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
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {Object.keys(fields).length ? 'Please correct the marked fields.' : `Could not save the bill: ${errorMessage(save.error)}`}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void navigate('/bill')}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save bill
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Page>
  );
}
