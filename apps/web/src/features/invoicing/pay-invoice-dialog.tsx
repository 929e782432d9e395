import { useState } from 'react';
import { Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatAmount, toFixedAmount, toMoney } from '@bilan/domain';
import { today } from '../../lib/dates';
import { serverFieldErrors } from '../../lib/errors';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { bookedAt, ForeignPaymentFields } from '../../ui/settled-amount-field';
import { bankAccountsQuery, invoiceDetailQuery, invoiceKey, payInvoice, type Invoice } from './api';
import { WriteError } from './write-error';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

type Rest = 'open' | 'discount' | 'difference';

/**
 * 'Mark paid' of a sent invoice (issue 14 §3): what reached which bank account on which date, a fee
 * the payer's bank deducted, and what to do with a rest — leave it open (a part payment) or write it
 * off as cash discount (3800, VAT reduced) or small difference (6943) within the tolerance. The
 * detail's one-time `payToken` makes a double click book once.
 */
function PayInvoiceForm({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accounts = useQuery(bankAccountsQuery());
  const [token] = useState(() => invoice.payToken ?? crypto.randomUUID());
  const open = invoice.openAmount ?? invoice.totals.total;
  const [amount, setAmount] = useState(open);
  const [fee, setFee] = useState('');
  const [rest, setRest] = useState<Rest>('open');
  const [date, setDate] = useState<string | null>(today());
  const [bankRef, setBankRef] = useState('');
  const [account, setAccount] = useState<string | null>(invoice.paymentProfile.account ? String(invoice.paymentProfile.account.id) : null);
  // An invoice in another currency: the part paid in its currency, and what the bank credited for it in the books' currency.
  const converted = invoice.currency !== invoice.baseCurrency;
  const [amountBase, setAmountBase] = useState(() => bookedAt(open, invoice.fxRate));
  const changeAmount = (value: string) => {
    setAmount(value);
    if (converted) setAmountBase(bookedAt(value, invoice.fxRate));
  };
  // Money reaches an asset account (bank, cash).
  const options = (accounts.data?.data ?? []).filter((a) => a.type.id === 1 && a.number !== '1100').map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }));
  const valid = /^\d+(\.\d{1,2})?$/;
  const covered = valid.test(amount) ? toMoney(amount).plus(valid.test(fee) ? toMoney(fee) : toMoney(0)) : null;
  const left = covered ? toMoney(open).minus(covered) : null;
  const mutation = useMutation({
    mutationFn: () =>
      payInvoice({
        uuid: invoice.uuid,
        token,
        date: date!,
        ...(account ? { bankAccount: { id: Number(account) } } : {}),
        ...(bankRef ? { bankRef } : {}),
        ...(converted ? { amount, amountBase } : { amount, ...(fee ? { fee } : {}), ...(rest !== 'open' && left?.gt(0) ? { writeOff: rest } : {}) }),
      }),
    onSuccess: async (updated) => {
      queryClient.setQueryData(invoiceDetailQuery(invoice.uuid).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      await queryClient.invalidateQueries({ queryKey: ['accounting'] });
      notifications.show({
        color: 'green',
        message:
          updated.status === 3
            ? t('Invoice {{number}} is paid', { number: updated.refNumber })
            : t('Part payment recorded: {{amount}} {{currency}} still open', { amount: formatAmount(updated.openAmount ?? null), currency: updated.currency }),
      });
      onClose();
    },
  });
  const submit = useSingleFlight(mutation.mutateAsync);
  const fields = serverFieldErrors(mutation.error);
  const shown = ['amount', 'fee', 'date', 'bankAccount.id', 'writeOff', 'amountBase'];
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack>
        <Text size="sm">
          <Trans
            t={t}
            i18nKey={msg('Open: <open/> {{currency}} of <total/> {{currency}}. Posts the money to the bank account against the receivable.')}
            values={{ currency: invoice.currency }}
            components={{ open: <Amount value={open} fw={600} />, total: <Amount value={invoice.totals.total} /> }}
          />
        </Text>
        <Select label={t('Bank account')} searchable data={options} value={account} onChange={setAccount} allowDeselect={false} error={fields['bankAccount.id']} />
        <DateField label={t('Payment date')} required value={date} onChange={setDate} error={fields.date} />
        {converted ? (
          <ForeignPaymentFields
            kind="receivable"
            currency={invoice.currency}
            open={open}
            rate={invoice.fxRate}
            base={invoice.baseCurrency}
            amount={amount}
            onAmount={changeAmount}
            amountBase={amountBase}
            onAmountBase={setAmountBase}
            errors={{ amount: fields.amount, amountBase: fields.amountBase }}
          />
        ) : (
          <>
            <SimpleGrid cols={2}>
              <NumericInput label={t('Amount received ({{currency}})', { currency: invoice.currency })} allowDecimal value={amount} onChange={changeAmount} error={fields.amount} />
              <NumericInput label={t('Fee deducted by the payer (6940)')} allowDecimal value={fee} onChange={setFee} placeholder="0.00" error={fields.fee} />
            </SimpleGrid>
            {left?.gt(0) ? (
              <Stack gap={4}>
                <Text size="sm">
                  <Trans t={t} i18nKey={msg('Rest of <amount/> {{currency}}:')} values={{ currency: invoice.currency }} components={{ amount: <Amount value={toFixedAmount(left)} /> }} />
                </Text>
                <SegmentedControl
                  aria-label={t('Rest')}
                  value={rest}
                  onChange={(value) => setRest(value as Rest)}
                  data={[
                    { value: 'open', label: t('Leave open') },
                    { value: 'discount', label: t('Cash discount (3800)') },
                    { value: 'difference', label: t('Small difference (6943)') },
                  ]}
                />
              </Stack>
            ) : null}
          </>
        )}
        <TextInput label={t('Bank reference')} value={bankRef} onChange={(e) => setBankRef(e.currentTarget.value)} />
        {mutation.isError && !shown.some((field) => fields[field]) ? <WriteError error={mutation.error} what={t('Could not record the payment')} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" color="green" loading={mutation.isPending} disabled={!date || !amount || (converted && !amountBase)} data-autofocus>
            {left?.gt(0) && rest === 'open' ? t('Record part payment') : t('Mark paid')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function PayInvoiceDialog({ invoice, opened, onClose }: { invoice: Invoice; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('Mark paid')} size="lg">
      {opened ? <PayInvoiceForm invoice={invoice} onClose={onClose} /> : null}
    </Modal>
  );
}
