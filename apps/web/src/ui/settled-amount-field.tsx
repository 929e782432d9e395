import { SimpleGrid } from '@mantine/core';
import { formatAmount, isImplausibleFxDifference, realizedFxDifference, toBaseAmount, toFixedAmount, toMoney } from '@bilan/domain';
import { useTranslation } from 'react-i18next';
import { NumericInput } from './numeric-input';

interface SettledAmountFieldProps {
  /** A receivable is received into the bank, a payable paid out of it. */
  kind: 'receivable' | 'payable';
  /** The document's amount in its currency and the books' currency, 2 decimals. */
  amount: string;
  currency: string;
  booked: string;
  base: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/**
 * What a document in another currency really settled for in the books' currency, with the realized
 * exchange difference it will book (docs/decisions/012-realized-exchange-differences.md) shown as
 * the user types, so the posting holds no surprise.
 */
export function SettledAmountField({ kind, amount, currency, booked, base, value, onChange, error }: SettledAmountFieldProps) {
  const { t } = useTranslation();
  const valid = /^\d+(\.\d{1,2})?$/.test(value) && toMoney(value).gt(0);
  const settled = valid ? toFixedAmount(value) : null;
  const difference = settled ? realizedFxDifference(kind, booked, settled) : null;
  const outcome = !settled
    ? null
    : isImplausibleFxDifference(booked, settled)
      ? t('More than 25 % away from the booked {{base}} {{booked}}: check the amount.', { base, booked: formatAmount(booked) })
      : difference
        ? difference.direction === -1
          ? t('Exchange gain of {{base}} {{amount}} to {{account}}.', { base, amount: formatAmount(difference.amount), account: `${difference.account.number} ${difference.account.name}` })
          : t('Exchange loss of {{base}} {{amount}} to {{account}}.', { base, amount: formatAmount(difference.amount), account: `${difference.account.number} ${difference.account.name}` })
        : t('No exchange difference.');
  const what = kind === 'receivable' ? t('What the bank credited in {{base}}.', { base }) : t('What the bank debited in {{base}}.', { base });
  return (
    <NumericInput
      label={kind === 'receivable' ? t('Received in {{base}}', { base }) : t('Paid in {{base}}', { base })}
      description={`${t('{{currency}} {{amount}} booked at {{base}} {{booked}}.', { currency, amount: formatAmount(amount), base, booked: formatAmount(booked) })} ${outcome ?? what}`}
      allowDecimal
      required
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}

const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** What `amount` (the document's currency) was booked at in the books' currency; 0.00 while it is no amount. */
export const bookedAt = (amount: string, rate: string) => (AMOUNT.test(amount) ? toBaseAmount(amount, rate) : '0.00');

interface ForeignPaymentFieldsProps {
  kind: 'receivable' | 'payable';
  /** The document's currency, its open amount and the rate it was booked at. */
  currency: string;
  open: string;
  rate: string;
  base: string;
  amount: string;
  onAmount: (value: string) => void;
  amountBase: string;
  onAmountBase: (value: string) => void;
  errors: { amount?: string | undefined; amountBase?: string | undefined };
}

/**
 * A payment of a document in another currency, in full or in part (issue 14 §3, decision 021):
 * the part paid in the document's currency and what the bank moved for it in the books' currency,
 * with the exchange difference shown as the user types.
 */
export function ForeignPaymentFields({ kind, currency, open, rate, base, amount, onAmount, amountBase, onAmountBase, errors }: ForeignPaymentFieldsProps) {
  const part = AMOUNT.test(amount) ? amount : open;
  const { t } = useTranslation();
  const left = AMOUNT.test(amount) ? toMoney(open).minus(toMoney(amount)) : null;
  return (
    <SimpleGrid cols={2}>
      <NumericInput
        label={kind === 'receivable' ? t('Amount received ({{currency}})', { currency }) : t('Amount paid ({{currency}})', { currency })}
        description={left?.gt(0) ? t('Part payment: {{currency}} {{amount}} stays open', { currency, amount: formatAmount(toFixedAmount(left)) }) : t('Pays what is open')}
        allowDecimal
        value={amount}
        onChange={onAmount}
        error={errors.amount}
      />
      <SettledAmountField kind={kind} amount={part} currency={currency} booked={bookedAt(part, rate)} base={base} value={amountBase} onChange={onAmountBase} error={errors.amountBase} />
    </SimpleGrid>
  );
}
