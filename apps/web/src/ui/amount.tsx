import { formatAmount } from '@bilan/domain';
import { Text, type TextProps } from '@mantine/core';

interface AmountProps extends TextProps {
  value: string | null | undefined;
}

/** An amount for display: fr-CH, 2 decimals, negatives in brackets, '-' when not a number (spec §5). */
export function Amount({ value, ...props }: AmountProps) {
  return (
    <Text span inherit className="amount" {...props}>
      {formatAmount(value ?? null)}
    </Text>
  );
}
