import { forwardRef, type ChangeEvent } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';

interface NumericInputProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  value: string;
  onChange: (value: string) => void;
  /** Allow one decimal point (amounts, VAT); digits only otherwise (codes, years). */
  allowDecimal?: boolean;
  maxDecimals?: number;
}

/**
 * Text input that accepts only numeric text (spec §5 "Numeric form inputs accept only numeric
 * text"). The value stays a string, so amounts are never turned into binary floats.
 */
export const NumericInput = forwardRef<HTMLInputElement, NumericInputProps>(function NumericInput(
  { value, onChange, allowDecimal = false, maxDecimals = 2, ...props },
  ref,
) {
  const pattern = allowDecimal ? new RegExp(`^\\d*(\\.\\d{0,${maxDecimals}})?$`) : /^\d*$/;
  const handle = (event: ChangeEvent<HTMLInputElement>) => {
    const next = allowDecimal ? event.currentTarget.value.replace(',', '.') : event.currentTarget.value;
    if (pattern.test(next)) onChange(next);
  };
  return (
    <TextInput
      ref={ref}
      {...props}
      value={value}
      onChange={handle}
      inputMode={allowDecimal ? 'decimal' : 'numeric'}
      autoComplete="off"
    />
  );
});
