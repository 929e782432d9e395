import { forwardRef, type ChangeEvent } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { decimalSeparatorOf } from '@bilan/domain';

interface NumericInputProps extends Omit<TextInputProps, 'onChange' | 'value'> {
  value: string;
  onChange: (value: string) => void;
  /** Allow one decimal point (amounts, VAT); digits only otherwise (codes, years). */
  allowDecimal?: boolean;
  maxDecimals?: number;
}

/**
 * Text input that accepts only numeric text (spec §5 "Numeric form inputs accept only numeric
 * text"). The value stays a string, so amounts are never turned into binary floats. It shows the
 * decimal separator of the user's number format (fr-CH '200,00', de-CH '200.00', issue 17 §3) and
 * takes what the user sees: either separator, and group separators (spaces, apostrophes) that are
 * dropped as they are typed or pasted. A placeholder amount ('0.00') shows the same separator.
 */
export const NumericInput = forwardRef<HTMLInputElement, NumericInputProps>(function NumericInput(
  { value, onChange, allowDecimal = false, maxDecimals = 2, placeholder, ...props },
  ref,
) {
  const pattern = allowDecimal ? new RegExp(`^\\d*(\\.\\d{0,${maxDecimals}})?$`) : /^\d*$/;
  const handle = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.currentTarget.value.replace(/[\s\u00a0\u202f'\u2019]/g, '');
    const next = allowDecimal ? typed.replace(',', '.') : typed;
    if (pattern.test(next)) onChange(next);
  };
  return (
    <TextInput
      ref={ref}
      {...props}
      value={allowDecimal ? value.replace('.', decimalSeparatorOf()) : value}
      // A placeholder amount ('0.00') in the same separator as the value.
      placeholder={allowDecimal && typeof placeholder === 'string' && /^-?\d+\.\d+$/.test(placeholder) ? placeholder.replace('.', decimalSeparatorOf()) : placeholder}
      onChange={handle}
      inputMode={allowDecimal ? 'decimal' : 'numeric'}
      autoComplete="off"
    />
  );
});
