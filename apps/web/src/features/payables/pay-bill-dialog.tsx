import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toBaseAmount } from '@bilan/domain';
import { today } from '../../lib/dates';
import { useSingleFlight } from '../../lib/single-flight';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { SettledAmountField } from '../../ui/settled-amount-field';
import { allAccountsQuery, debtorAccountsQuery, payablesKey, payPayable, type Payable } from './api';

interface PayBillDialogProps {
  /** The approved bill to mark paid; null: closed. */
  bill: Payable | null;
  onClose: () => void;
}

function PayBillForm({ bill, onClose }: { bill: Payable; onClose: () => void }) {
  const queryClient = useQueryClient();
  const accounts = useQuery(allAccountsQuery());
  const banks = useQuery(debtorAccountsQuery());
  // One token per opening: a retry after a lost answer does not pay twice (docs/api.md `pay`).
  const [token] = useState(() => crypto.randomUUID());
  const [account, setAccount] = useState<string | null>(null);
  const [date, setDate] = useState<string | null>(today());
  // A bill in another currency is paid for what left the account in the books' currency.
  // Without a profile (never after sign-in) the field stays hidden rather than guess the currency.
  const base = useSession().profile?.instance.currency;
  const converted = base !== undefined && bill.currency !== base;
  const booked = toBaseAmount(bill.amount, bill.exchangeRate);
  const [amountBase, setAmountBase] = useState(booked);
  // Money leaves an asset (bank, cash) or a liability grows (credit card): balance-sheet accounts only.
  const options = (accounts.data?.data ?? [])
    .filter((a) => (a.type.id === 1 || a.type.id === 2) && a.id !== bill.liabilityAccount?.id)
    .map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }));
  const fallback = banks.data?.data[0] ? String(banks.data.data[0].account.id) : null;
  const chosen = account ?? fallback;
  const pay = useMutation({
    mutationFn: () => payPayable(bill.uuid, Number(chosen), date!, token, converted ? amountBase : undefined),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      onClose();
    },
  });
  const submit = useSingleFlight(pay.mutateAsync);
  const fields = serverFieldErrors(pay.error);

  return (
    <Stack gap="sm">
      <Text size="sm">
        {bill.isExpense ? 'Expense' : 'Bill'} {bill.id} {bill.company?.name ?? bill.description} · <Amount value={bill.amount} /> {bill.currency}
      </Text>
      <Text size="xs" c="dimmed">
        For a direct debit (LSV), a card or cash payment, or a staff expense refunded by hand: books debit {bill.liabilityAccount?.number ?? '2000'} / credit
        the account below.
      </Text>
      <Select label="Paid from" searchable data={options} value={chosen} onChange={setAccount} allowDeselect={false} error={fields['account.id']} />
      <DateField label="Payment date" value={date} onChange={setDate} error={fields.date} />
      {converted && base ? (
        <SettledAmountField
          kind="payable"
          amount={bill.amount}
          currency={bill.currency}
          booked={booked}
          base={base}
          value={amountBase}
          onChange={setAmountBase}
          error={fields.amountBase}
        />
      ) : null}
      {pay.isError && !fields['account.id'] && !fields.date && !fields.amountBase ? <Alert color="red">{errorMessage(pay.error)}</Alert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button loading={pay.isPending} disabled={!chosen || !date || (converted && !amountBase)} onClick={() => submit()}>
          Mark paid
        </Button>
      </Group>
    </Stack>
  );
}

/** "Pay" on an approved bill: marks it paid outside a payment batch (POST /api/payable/pay). */
export function PayBillDialog({ bill, onClose }: PayBillDialogProps) {
  return (
    <Modal opened={bill !== null} onClose={onClose} title="Mark bill paid">
      {bill ? <PayBillForm key={bill.uuid} bill={bill} onClose={onClose} /> : null}
    </Modal>
  );
}
