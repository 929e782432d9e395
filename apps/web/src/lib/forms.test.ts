import { describe, expect, it } from 'vitest';
import { ledgerAccountSchema, payableDataSchema, validationMessages } from '@bilan/domain';
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

describe('payloadResolver with form paths', () => {
  interface BillValues {
    company: string | null;
    amount: string;
    date: string;
  }
  const billResolver = payloadResolver(
    payableDataSchema,
    (values: BillValues) => ({ company: values.company === null ? null : { uuid: values.company }, amount: values.amount, date: values.date }),
    { known: ['company', 'amount'], formPath: (path) => path.replace(/^company\.uuid$/, 'company') },
  );

  it('moves each message to its input and the rest to the form-level root error', async () => {
    const result = await billResolver({ company: 'not-a-uuid', amount: '0.00', date: '2026-02-30' }, undefined, options);
    expect(result.values).toEqual({});
    expect(result.errors.company?.message).toBe(validationMessages.uuidInvalid);
    expect(result.errors.amount?.message).toBe(validationMessages.amountPositive);
    // 'date' has no input in this form: its message must not be lost.
    expect(result.errors.root?.message).toBe(`date: ${validationMessages.dateInvalid}`);
  });

  it('hands submit the parsed payload when the schema accepts it', async () => {
    const uuid = '0195d1c2-7a1e-7000-8000-000000000001';
    const result = await billResolver({ company: uuid, amount: '12.50', date: '2026-02-28' }, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ company: { uuid }, amount: '12.50', date: '2026-02-28' });
  });
});
