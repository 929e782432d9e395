import { describe, expect, it } from 'vitest';
import { ledgerAccountSchema, validationMessages } from '@bilan/domain';
import { payloadResolver } from './forms';

interface Values {
  number: string;
  name: string;
  type: string | null;
}
const resolver = payloadResolver(ledgerAccountSchema, (values: Values) => ({
  number: values.number,
  name: values.name,
  currency: 'CHF',
  ...(values.type ? { type: Number(values.type) } : {}),
}));
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('payloadResolver', () => {
  it('puts the domain schema messages on the payload paths', async () => {
    const result = await resolver({ number: '12', name: 'Bank', type: null }, undefined, options);
    expect(result.values).toEqual({});
    expect(result.errors.number?.message).toBe(validationMessages.accountNumberDigits);
    expect(result.errors.name).toBeUndefined();
  });

  it('hands submit the parsed payload', async () => {
    const result = await resolver({ number: '1020', name: 'Bank', type: '1' }, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ number: '1020', name: 'Bank', currency: 'CHF', type: 1 });
  });
});
