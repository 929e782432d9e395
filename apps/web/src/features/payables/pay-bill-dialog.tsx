import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toFixedAmount, toMoney } from '@bilan/domain';
import { today } from '../../lib/dates';
import { useSingleFlight } from '../../lib/single-flight';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { bookedAt, ForeignPaymentFields } from '../../ui/settled-amount-field';
import { allAccountsQuery, debtorAccountsQuery, payablesKey, payPayable, type Payable } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

interface PayBillDialogProps {
  /** The approved bill to pay; null: closed. */
  bill: Payable | null;
  onClose: () => void;
}

type Rest = 'open' | 'discount' | 'difference';

const SEPARATOR = ' · ';
/** The payables account a bill without its own is booked against. */
const DEFAULT_LIABILITY = '2000';

function PayBillForm({ bill, onClose }: { bill: Payable; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accounts = useQuery(allAccountsQuery());
  const banks = useQuery(debtorAccountsQuery());
  // One token per opening (the detail's payToken when there is one): a repeated click or a retry
  // after a lost answer pays once (docs/api.md `pay`).
  const [token] = useState(() => bill.payToken ?? crypto.randomUUID());
  const [account, setAccount] = useState<string | null>(null);
  const [date, setDate] = useState<string | null>(today());
  const open = bill.openAmount;
  const [amount, setAmount] = useState(open);
  const [fee, setFee] = useState('');
  const [rest, setRest] = useState<Rest>('open');
  // A bill in another currency: the part paid in its currency and what left the account for it in
  // the books' currency. Without a profile (never after sign-in) the field stays hidden rather than guess the currency.
  const base = useSession().profile?.instance.currency;
  const converted = base !== undefined && bill.currency !== base;
  const [amountBase, setAmountBase] = useState(() => bookedAt(open, bill.exchangeRate));
  const changeAmount = (value: string) => {
    setAmount(value);
    if (converted) setAmountBase(bookedAt(value, bill.exchangeRate));
  };
  // Money leaves an asset (bank, cash) or a liability grows (credit card): balance-sheet accounts only.
  const options = (accounts.data?.data ?? [])
    .filter((a) => (a.type.id === 1 || a.type.id === 2) && a.id !== bill.liabilityAccount?.id)
    .map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }));
  const fallback = banks.data?.data[0] ? String(banks.data.data[0].account.id) : null;
  const chosen = account ?? fallback;
  const left = /^\d+(\.\d{1,2})?$/.test(amount) ? toMoney(open).minus(toMoney(amount)) : null;
  const pay = useMutation({
    mutationFn: () =>
      payPayable({
        uuid: bill.uuid,
        token,
        account: { id: Number(chosen) },
        date: date!,
        ...(converted ? { amount, amountBase } : { amount, ...(fee ? { fee } : {}), ...(rest !== 'open' && left?.gt(0) ? { writeOff: rest } : {}) }),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      onClose();
    },
  });
  const submit = useSingleFlight(pay.mutateAsync);
  const fields = serverFieldErrors(pay.error);
  const shown = ['account.id', 'date', 'amountBase', 'amount', 'fee', 'writeOff'];

  return (
    <Stack gap="sm">
      <Text size="sm">
        {bill.isExpense
          ? t('Expense {{id}} · {{text}}', { id: bill.id, text: [bill.company?.name, bill.description].filter(Boolean).join(SEPARATOR) })
          : t('Bill {{id}} {{name}}', { id: bill.id, name: bill.company?.name ?? bill.description })}
        {SEPARATOR}
        <Amount value={bill.amount} /> {bill.currency}
        {open !== bill.amount ? (
          <>
            {SEPARATOR}
            <Trans t={t} i18nKey={msg('open <amount/> {{currency}}')} values={{ currency: bill.currency }} components={{ amount: <Amount value={open} /> }} />
          </>
        ) : null}
      </Text>
      <Text size="xs" c="dimmed">
        {bill.isExpense
          ? t('A staff expense refunded by hand (cash, bank transfer made elsewhere): books debit {{account}} / credit the account below.', {
              account: bill.liabilityAccount?.number ?? DEFAULT_LIABILITY,
            })
          : t('For a direct debit (LSV), a card or cash payment: books debit {{account}} / credit the account below.', {
              account: bill.liabilityAccount?.number ?? DEFAULT_LIABILITY,
            })}
      </Text>
      <Select label={t('Paid from')} searchable data={options} value={chosen} onChange={setAccount} allowDeselect={false} error={fields['account.id']} />
      <DateField label={t('Payment date')} value={date} onChange={setDate} error={fields.date} />
      {converted && base ? (
        <ForeignPaymentFields
          kind="payable"
          currency={bill.currency}
          open={open}
          rate={bill.exchangeRate}
          base={base}
          amount={amount}
          onAmount={changeAmount}
          amountBase={amountBase}
          onAmountBase={setAmountBase}
          errors={{ amount: fields.amount, amountBase: fields.amountBase }}
        />
      ) : (
        <>
          <SimpleGrid cols={2}>
            <NumericInput label={t('Amount paid ({{currency}})', { currency: bill.currency })} allowDecimal value={amount} onChange={changeAmount} error={fields.amount} />
            <NumericInput label={t('Bank fee (6940)')} allowDecimal value={fee} onChange={setFee} error={fields.fee} placeholder="0.00" />
          </SimpleGrid>
          {left?.gt(0) ? (
            <Stack gap={4}>
              <Text size="sm">
                <Trans t={t} i18nKey={msg('Rest of <amount/> {{currency}}:')} values={{ currency: bill.currency }} components={{ amount: <Amount value={toFixedAmount(left)} /> }} />
              </Text>
              <SegmentedControl
                aria-label={t('Rest')}
                value={rest}
                onChange={(value) => setRest(value as Rest)}
                data={[
                  { value: 'open', label: t('Leave open') },
                  { value: 'discount', label: t('Cash discount (4900)') },
                  { value: 'difference', label: t('Small difference (6953)') },
                ]}
              />
            </Stack>
          ) : null}
        </>
      )}
      {pay.isError && !shown.some((field) => fields[field]) ? <Alert color="red">{errorMessage(pay.error)}</Alert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button loading={pay.isPending} disabled={!chosen || !date || !amount || (converted && !amountBase)} onClick={() => submit()}>
          {left?.gt(0) && rest === 'open' ? t('Record part payment') : t('Mark paid')}
        </Button>
      </Group>
    </Stack>
  );
}

/** "Pay" on an approved bill: pays it in full or in part outside a payment batch (POST /api/payable/pay). */
export function PayBillDialog({ bill, onClose }: PayBillDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={bill !== null} onClose={onClose} title={bill?.isExpense ? t('Pay expense') : t('Pay bill')} size="lg">
      {bill ? <PayBillForm key={bill.uuid} bill={bill} onClose={onClose} /> : null}
    </Modal>
  );
}
