/**
 * Property tests for the §5 validators that the example tests only sample: BIC, email, uuid,
 * password threshold, and the "unknown keys rejected" rule on every request schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { validationMessages } from '../messages.js';
import { instanceInitAccountsSchema, instanceInitSchema, onboardingBankAccountSchema, onboardingExtraSchema } from '../schemas/onboarding.js';
import { ledgerAccountSchema } from '../schemas/ledger-account.js';
import { paymentProfileInsertSchema } from '../schemas/payment-profile.js';
import { errorsOf } from '../schemas/test-helpers.js';
import { isValidBic } from './bic.js';
import { installZodMessages, zEmail, zPassword, zUuid } from './common.js';

beforeAll(installZodMessages);
afterAll(() => z.config({ customError: undefined }));

const upper = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const upperOrDigit = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const chars = (arb: fc.Arbitrary<string>, n: number) => fc.array(arb, { minLength: n, maxLength: n }).map((a) => a.join(''));

describe('BIC (spec §5: 4 letters, 2 letters, 2 alphanumerics, optional 3 alphanumerics)', () => {
  const validBic = fc
    .tuple(chars(upper, 4), chars(upper, 2), chars(upperOrDigit, 2), fc.option(chars(upperOrDigit, 3), { nil: '' }))
    .map((parts) => parts.join(''));

  it('accepts every BIC built from the rule', () => {
    fc.assert(fc.property(validBic, (bic) => isValidBic(bic)));
  });

  it('refuses it with any character of the first six replaced by a digit', () => {
    fc.assert(
      fc.property(validBic, fc.nat({ max: 5 }), fc.constantFrom(...'0123456789'), (bic, at, digit) =>
        !isValidBic(bic.slice(0, at) + digit + bic.slice(at + 1)),
      ),
    );
  });

  it('refuses every length other than 8 and 11', () => {
    fc.assert(
      fc.property(chars(upper, 12), fc.integer({ min: 0, max: 12 }), (letters, length) => {
        fc.pre(length !== 8 && length !== 11);
        return !isValidBic(letters.slice(0, length));
      }),
    );
  });

  it('refuses lowercase and spaces', () => {
    fc.assert(fc.property(validBic, (bic) => !isValidBic(bic.toLowerCase()) && !isValidBic(` ${bic}`)));
  });
});

describe('email (spec §5)', () => {
  const simpleEmail = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,20}[a-z0-9]$/), fc.stringMatching(/^[a-z][a-z0-9-]{0,15}[a-z0-9]$/), fc.constantFrom('ch', 'com', 'org', 'swiss'))
    .filter(([local]) => !local.includes('..'))
    .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
  const whitespace = fc.constantFrom(' ', '\t', '\n', '\r\n', '\u00a0');

  it('accepts plain addresses', () => {
    fc.assert(fc.property(simpleEmail, (email) => Object.keys(errorsOf(zEmail, email)).length === 0));
  });

  it('names surrounding whitespace before anything else', () => {
    fc.assert(
      fc.property(simpleEmail, whitespace, fc.boolean(), (email, space, before) => {
        expect(errorsOf(zEmail, before ? space + email : email + space)._).toBe(validationMessages.emailWhitespace);
      }),
    );
  });

  it('refuses an address without exactly one @', () => {
    fc.assert(
      fc.property(simpleEmail, fc.boolean(), (email, drop) => {
        const broken = drop ? email.replace('@', '') : email.replace('@', '@@');
        expect(errorsOf(zEmail, broken)._).toBe(validationMessages.emailInvalid);
      }),
    );
  });
});

describe('uuid (spec §5)', () => {
  it('accepts every RFC 9562 uuid and refuses it with one character broken', () => {
    fc.assert(
      fc.property(fc.uuid({ version: [1, 2, 3, 4, 5, 6, 7, 8] }), fc.nat({ max: 35 }), fc.constantFrom('g', 'z', '-', ' ', 'G'), (uuid, at, bad) => {
        expect(errorsOf(zUuid, uuid)).toEqual({});
        fc.pre(uuid[at] !== bad);
        expect(errorsOf(zUuid, uuid.slice(0, at) + bad + uuid.slice(at + 1))._).toBe(validationMessages.uuidInvalid);
      }),
    );
  });
});

describe('password (spec §5/§9: message says 8, minimum is 9)', () => {
  it('refuses every length below 9 with the spec message and accepts 9 and more', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 40, unit: 'grapheme-ascii' }), (password) => {
        const message = errorsOf(zPassword, password)._;
        if (password.length < 9) expect(message).toBe(validationMessages.passwordTooShort);
        else expect(message).toBeUndefined();
      }),
    );
  });
});

describe('unknown keys (spec §5 "this key cannot be included")', () => {
  const valid: [string, z.ZodType, Record<string, unknown>][] = [
    [
      'instance/init',
      instanceInitSchema,
      { company: { name: 'Muster AG' }, address: { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } }, extra: { vat: '8.1', currency: 'CHF' } },
    ],
    [
      'instance/init/accounts',
      instanceInitAccountsSchema,
      {
        company: { uuid: '3f2b8c1e-8d4a-4f6b-9c2d-1a2b3c4d5e6f' },
        accounts: [{ ledgerCode: 1020, name: 'Bank', iban: 'CH9300762011623852957', bic: '', type: 1 }],
        currency: 'CHF',
      },
    ],
    ['onboarding bank account', onboardingBankAccountSchema, { ledgerCode: 1020, name: 'Bank', iban: 'CH9300762011623852957', bic: '', type: 1 }],
    ['onboarding extra', onboardingExtraSchema, { vat: '8.1', currency: 'CHF' }],
    ['ledger account', ledgerAccountSchema, { number: '1020', name: 'Bank', currency: 'CHF' }],
    ['payment profile', paymentProfileInsertSchema, { company: { uuid: '3f2b8c1e-8d4a-4f6b-9c2d-1a2b3c4d5e6f' }, account: { id: 1 }, type: 1, iban: 'CH9300762011623852957', bic: '' }],
  ];

  it.each(valid)('%s: the valid body passes, and any extra key is named', (_, schema, body) => {
    expect(errorsOf(schema, body)).toEqual({});
    const reserved = new Set(Object.keys(body));
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,15}$/).filter((key) => !reserved.has(key) && !['__proto__', 'constructor', 'prototype'].includes(key)),
        fc.jsonValue(),
        (key, value) => {
          expect(errorsOf(schema, { ...body, [key]: value })[key]).toBe(validationMessages.keyNotAllowed);
        },
      ),
      { numRuns: 50 },
    );
  });
});
