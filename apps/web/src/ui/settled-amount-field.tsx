import { formatAmount, isImplausibleFxDifference, realizedFxDifference, toFixedAmount, toMoney } from '@bilan/domain';
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
  const valid = /^\d+(\.\d{1,2})?$/.test(value) && toMoney(value).gt(0);
  const settled = valid ? toFixedAmount(value) : null;
  const difference = settled ? realizedFxDifference(kind, booked, settled) : null;
  const outcome = !settled
    ? null
    : isImplausibleFxDifference(booked, settled)
      ? `More than 25 % away from the booked ${base} ${formatAmount(booked)}: check the amount.`
      : difference
        ? `Exchange ${difference.direction === -1 ? 'gain' : 'loss'} of ${base} ${formatAmount(difference.amount)} to ${difference.account.number} ${difference.account.name}.`
        : 'No exchange difference.';
  return (
    <NumericInput
      label={`${kind === 'receivable' ? 'Received' : 'Paid'} in ${base}`}
      description={`${currency} ${formatAmount(amount)} booked at ${base} ${formatAmount(booked)}. ${outcome ?? `What the bank ${kind === 'receivable' ? 'credited' : 'debited'} in ${base}.`}`}
      allowDecimal
      required
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}
