import { useState, type FormEvent } from 'react';
import { Alert, Button, Grid, Group, Paper, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { currencyCodes, formatIban } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { Page } from '../../ui/page';
import { attachFile, companiesQuery, expenseAccountsQuery, insertPayable, payablesKey, profilesQuery, type PayableData } from './api';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * /bill/add: a supplier bill (pending) or a staff expense; also the draft beside an inbox file
 * (`fileUuid`: the file is attached to the new bill). Server field errors shown per field.
 */
export function BillAddPage({ fileUuid, title = 'Add bill' }: { fileUuid?: string; title?: string } = {}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<'0' | '1'>('0');
  const [company, setCompany] = useState<string | null>(null);
  const [profile, setProfile] = useState<string | null>(null);
  const [date, setDate] = useState<string | null>(today());
  const [dueDate, setDueDate] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [vatAmount, setVatAmount] = useState('');
  const [currency, setCurrency] = useState<string>('CHF');
  const [exchangeRate, setExchangeRate] = useState('');
  const [account, setAccount] = useState<string | null>(null);
  const [reference, setReference] = useState('');
  const [message, setMessage] = useState('');
  const [description, setDescription] = useState('');

  const companies = useQuery(companiesQuery());
  const profiles = useQuery(profilesQuery(company));
  const accounts = useQuery(expenseAccountsQuery());

  const save = useMutation({
    mutationFn: async (data: PayableData) => {
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
                  setProfile(null);
                }}
                error={err('company.uuid')}
                withAsterisk={type === '0'}
                placeholder={companies.isError ? 'Could not load the companies' : 'Company'}
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
