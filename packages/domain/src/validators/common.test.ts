import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { isAmountString } from '../money.js';
import { DATE_INVALID_MESSAGE, validationMessages } from '../messages.js';
import {
  fieldErrors, installZodMessages, strictObject, zodMessages, zAmount, zCurrencyCode, zCurrencyCodeWith, zDate, zEmail, zId,
  zIdWith, zInteger, zPassword, zRequiredText, zUuid, zodCustomError,
} from './common.js';

/** The fields a schema rejects `input` with, `{}` when it accepts it. */
const errorsOf = (schema: z.ZodType, input: unknown): Record<string, string> => {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};
/** The first message for a value parsed on its own. */
const messageOf = (schema: z.ZodType, input: unknown): string | undefined => errorsOf(schema, input)._;

beforeAll(installZodMessages);
afterAll(() => z.config({ customError: undefined }));

describe('spec §5 message texts', () => {
  it('are character for character', () => {
    expect(validationMessages).toMatchObject({
      fieldRequired: 'This field is required',
      arrayExpected: 'array expected',
      keyNotAllowed: 'this key cannot be included',
      emailWhitespace: 'email must not contain any whitespace (before or after)',
      emailInvalid: 'email invalid',
      uuidInvalid: 'uuid invalid',
      passwordTooShort: 'password length smaller than 8',
      mustBeInteger: 'must be an integer',
      negativeNotAccepted: 'negative numbers are not accepted',
      idMustBePositive: 'id must be greater than 0',
      fieldMustBeGiven: 'This field must be given',
      accountMustNotBeEmpty: 'Account must not be empty',
      typeMustBeGiven: 'Type must be given',
      ibanMustNotBeEmpty: 'IBAN must not be empty',
      publicAddressMustNotBeEmpty: 'Public address must not be empty',
      ibanWronglyFormatted: 'The IBAN is wrongly formatted',
      qrIbanInvalid: 'The QR IBAN is invalid',
      bicWronglyFormatted: 'The BIC is wrongly formatted',
      vatTooHigh: "VAT can't exceed 99%",
      vatTooLow: "VAT can't be lower than 1%",
      defaultCurrencyMustBeGiven: 'Default currency must be given',
    });
    expect(DATE_INVALID_MESSAGE).toBe('date invalid');
  });
});

describe('installZodMessages / zodCustomError (spec §5)', () => {
  it('maps a missing or null required value to "This field is required"', () => {
    expect(messageOf(z.string(), undefined)).toBe('This field is required');
    expect(messageOf(z.number(), null)).toBe('This field is required');
    expect(messageOf(z.enum(['a', 'b']), undefined)).toBe('This field is required');
    expect(messageOf(z.literal([1, 2]), null)).toBe('This field is required');
    expect(messageOf(z.array(z.string()), undefined)).toBe('This field is required');
  });

  it('maps wrong types to "expected type <type>"', () => {
    expect(messageOf(z.string(), 12)).toBe('expected type string');
    expect(messageOf(z.number(), '12')).toBe('expected type number');
    expect(messageOf(z.boolean(), 'true')).toBe('expected type boolean');
    expect(messageOf(z.object({}), 'x')).toBe('expected type object');
  });

  it('maps a non-array where an array is expected to "array expected"', () => {
    expect(messageOf(z.array(z.string()), 'a')).toBe('array expected');
    expect(messageOf(z.array(z.string()), {})).toBe('array expected');
  });

  it('leaves other issues to the schema or zod', () => {
    expect(messageOf(z.string().min(3, { error: 'short' }), 'ab')).toBe('short');
    expect(zodCustomError({ code: 'too_small', origin: 'string', minimum: 3, input: 'ab', inclusive: true })).toBeUndefined();
  });

  it('zodMessages is the configuration the installer applies', () => {
    expect(zodMessages.customError).toBe(zodCustomError);
  });

  it('works per parse without the global install', () => {
    z.config({ customError: undefined });
    try {
      const result = z.string().safeParse(1, { error: zodCustomError });
      expect(result.error?.issues[0]?.message).toBe('expected type string');
      expect(z.string().safeParse(1).error?.issues[0]?.message).not.toBe('expected type string');
    } finally {
      installZodMessages();
    }
  });
});

describe('strictObject and fieldErrors', () => {
  const schema = strictObject({ a: z.string(), nested: strictObject({ b: z.number() }) });

  it('puts "this key cannot be included" on each unknown key path', () => {
    expect(errorsOf(schema, { a: 'x', nested: { b: 1, c: 2, d: 3 }, e: 4 })).toEqual({
      'nested.c': 'this key cannot be included',
      'nested.d': 'this key cannot be included',
      e: 'this key cannot be included',
    });
  });

  it('reports every field at once with dotted paths and array indexes', () => {
    const list = strictObject({ items: z.array(strictObject({ name: zRequiredText })) });
    expect(errorsOf(list, { items: [{ name: 'ok' }, { name: '' }, {}] })).toEqual({
      'items.1.name': 'This field must be given',
      'items.2.name': 'This field must be given',
    });
  });

  it('keeps the first message per path and puts root issues under "_"', () => {
    const twoRules = z.string().min(3, { error: 'first' }).regex(/^\d+$/, { error: 'second' });
    expect(fieldErrors(twoRules.safeParse('a').error!)).toEqual({ _: 'first' });
    expect(errorsOf(schema, [])).toEqual({ _: 'expected type object' });
  });

  it('replaces the missing-object message when asked', () => {
    const withMissing = strictObject({ nested: strictObject({ b: z.number() }, 'give it') });
    expect(errorsOf(withMissing, {})).toEqual({ nested: 'give it' });
    expect(errorsOf(withMissing, { nested: null })).toEqual({ nested: 'give it' });
    expect(errorsOf(withMissing, { nested: 3 })).toEqual({ nested: 'expected type object' });
  });

  it('flattens issues from a hand-made error too', () => {
    expect(fieldErrors({ issues: [] })).toEqual({});
  });
});

describe('zEmail', () => {
  it('accepts an address', () => {
    expect(errorsOf(zEmail, 'anna.muster@example.ch')).toEqual({});
  });

  it('refuses surrounding whitespace first', () => {
    for (const value of [' anna@example.ch', 'anna@example.ch ', '\tanna@example.ch\n', ' ']) {
      expect(messageOf(zEmail, value)).toBe('email must not contain any whitespace (before or after)');
    }
  });

  it('refuses invalid addresses', () => {
    for (const value of ['', 'anna', 'anna@', '@example.ch', 'an na@example.ch', 'anna@example']) {
      expect(messageOf(zEmail, value)).toBe('email invalid');
    }
  });

  it('type errors come from the installed map', () => {
    expect(messageOf(zEmail, undefined)).toBe('This field is required');
    expect(messageOf(zEmail, 5)).toBe('expected type string');
  });
});

describe('zUuid', () => {
  it('accepts a UUID and refuses anything else with "uuid invalid"', () => {
    expect(errorsOf(zUuid, '3f2b8c1e-8d4a-4f6b-9c2d-1a2b3c4d5e6f')).toEqual({});
    for (const value of ['', 'abc', '3f2b8c1e8d4a4f6b9c2d1a2b3c4d5e6f', '3f2b8c1e-8d4a-4f6b-9c2d-1a2b3c4d5e6g']) {
      expect(messageOf(zUuid, value)).toBe('uuid invalid');
    }
    expect(messageOf(zUuid, undefined)).toBe('This field is required');
    expect(messageOf(zUuid, 1)).toBe('expected type string');
  });
});

describe('zPassword (message says 8, minimum is 9: spec §5/§9)', () => {
  it('refuses 8 characters with "password length smaller than 8"', () => {
    expect(messageOf(zPassword, '12345678')).toBe('password length smaller than 8');
    expect(messageOf(zPassword, '')).toBe('password length smaller than 8');
  });

  it('accepts 9 characters', () => {
    expect(errorsOf(zPassword, '123456789')).toEqual({});
  });
});

describe('zInteger and zId', () => {
  it('zInteger accepts 0 and positive integers', () => {
    expect(errorsOf(zInteger, 0)).toEqual({});
    expect(errorsOf(zInteger, 42)).toEqual({});
  });

  it('zInteger refuses fractions, unsafe integers and negatives', () => {
    expect(messageOf(zInteger, 1.5)).toBe('must be an integer');
    expect(messageOf(zInteger, 2 ** 60)).toBe('must be an integer');
    expect(messageOf(zInteger, -1)).toBe('negative numbers are not accepted');
    expect(messageOf(zInteger, '1')).toBe('expected type number');
    expect(messageOf(zInteger, Number.NaN)).toBe('expected type number');
  });

  it('zId refuses 0 with "id must be greater than 0" and reports negatives first as negative', () => {
    expect(errorsOf(zId, 1)).toEqual({});
    expect(messageOf(zId, 0)).toBe('id must be greater than 0');
    expect(messageOf(zId, -3)).toBe('negative numbers are not accepted');
    expect(messageOf(zId, 0.5)).toBe('must be an integer');
    expect(messageOf(zId, undefined)).toBe('This field is required');
  });

  it('zIdWith replaces only the missing-value message', () => {
    const id = zIdWith('pick one');
    expect(messageOf(id, undefined)).toBe('pick one');
    expect(messageOf(id, null)).toBe('pick one');
    expect(messageOf(id, 0)).toBe('id must be greater than 0');
    expect(messageOf(id, 'x')).toBe('expected type number');
  });
});

describe('zDate', () => {
  it.each(['2024-02-29', '2300-12-31', '1900-01-01'])('accepts %s', (value) => {
    expect(errorsOf(zDate, value)).toEqual({});
  });

  it.each(['2023-02-29', '1899-12-31', '2301-01-01', '2024-13-01', '2024-1-01', ''])('refuses %s with DATE_INVALID_MESSAGE', (value) => {
    expect(messageOf(zDate, value)).toBe(DATE_INVALID_MESSAGE);
  });
});

describe('zAmount', () => {
  it('accepts decimal strings with up to 2 decimals by default', () => {
    for (const value of ['0', '12', '-12', '1994.75', '0.5', '-0.01', '999999999999.99', '-999999999999.99']) {
      expect(errorsOf(zAmount(), value)).toEqual({});
    }
  });

  it('refuses amounts beyond ±999 999 999 999.99, whose sums the database columns could not hold (issue 11 §5)', () => {
    for (const value of ['1000000000000', '-1000000000000', '999999999999999999.99', '123456789012345678.99']) {
      expect(messageOf(zAmount(), value)).toBe('amount must be between -999999999999.99 and 999999999999.99');
    }
    expect(messageOf(zAmount(10), '999999999999.9900000001')).toBe('amount must be between -999999999999.99 and 999999999999.99');
  });

  it('refuses other text with the decimals named', () => {
    expect(messageOf(zAmount(), '')).toBe('This field is required');
    for (const value of ['1.234', '1,50', '1e3', ' 1', '+1', '.5', '5.', 'abc', '1 000', '1234567890123456789']) {
      expect(messageOf(zAmount(), value)).toBe('amount must be a decimal number with at most 2 decimals');
    }
    expect(messageOf(zAmount(10), '1.12345678901')).toBe('amount must be a decimal number with at most 10 decimals');
    expect(messageOf(zAmount(0), '1.5')).toBe('amount must be a decimal number with at most 0 decimals');
  });

  it('refuses numbers: money travels as strings', () => {
    expect(messageOf(zAmount(), 12.5)).toBe('expected type string');
  });

  it('refuses an impossible number of decimals', () => {
    expect(() => zAmount(13)).toThrow(RangeError);
    expect(() => zAmount(-1)).toThrow(RangeError);
    expect(() => zAmount(1.5)).toThrow(RangeError);
  });

  it('accepts exactly what isAmountString accepts (property)', () => {
    const text = fc.oneof(
      fc.stringMatching(/^-?\d{1,20}(\.\d{0,13})?$/),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 12 }), (value, decimals) => {
        expect(zAmount(decimals).safeParse(value).success).toBe(isAmountString(value, decimals));
      }),
    );
  });
});

describe('zRequiredText', () => {
  it('refuses missing, empty and blank with "This field must be given"', () => {
    for (const value of [undefined, null, '', '   ', '\t\n']) {
      expect(messageOf(zRequiredText, value)).toBe('This field must be given');
    }
  });

  it('trims what it accepts', () => {
    expect(zRequiredText.parse('  Muster AG ')).toBe('Muster AG');
  });

  it('still names a wrong type', () => {
    expect(messageOf(zRequiredText, 5)).toBe('expected type string');
  });
});

describe('zCurrencyCode', () => {
  it('accepts the spec §3 codes', () => {
    for (const code of ['CHF', 'EUR', 'ZCHF', 'BTC']) expect(errorsOf(zCurrencyCode, code)).toEqual({});
  });

  it('refuses other codes with "currency unknown"', () => {
    expect(messageOf(zCurrencyCode, 'XYZ')).toBe('currency unknown');
    expect(messageOf(zCurrencyCode, 'chf')).toBe('currency unknown');
    expect(messageOf(zCurrencyCode, 1)).toBe('currency unknown');
    expect(messageOf(zCurrencyCode, '')).toBe('currency unknown');
    expect(messageOf(zCurrencyCode, undefined)).toBe('This field is required');
  });

  it('zCurrencyCodeWith names a missing or empty choice', () => {
    const currency = zCurrencyCodeWith('choose a currency');
    expect(messageOf(currency, undefined)).toBe('choose a currency');
    expect(messageOf(currency, '')).toBe('choose a currency');
    expect(messageOf(currency, 'XYZ')).toBe('currency unknown');
  });
});
