/**
 * Answers through fast-json-stringify (decision 040): the compiled text equals zod's
 * `JSON.stringify` for the shapes the routes use, zod still checks every answer outside
 * production, and production trades that check for speed.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { jsonSchemaOf, responseSerializerCompiler } from '../../src/http/serializer.js';

const serializerFor = (schema: z.ZodType, check: boolean) =>
  responseSerializerCompiler({ check })({ schema, method: 'POST', url: '/api/test', httpStatus: '200' } as never) as (data: unknown) => string;

const account = z.object({ id: z.number().int(), number: z.string(), name: z.string() });
const answer = z.object({
  data: z.array(
    z.object({
      uuid: z.string(),
      id: z.number().int(),
      amount: z.string(),
      note: z.string().nullable(),
      account: account.nullable(),
      kind: z.enum(['sent', 'paid']).nullable(),
      status: z.union([z.literal(1), z.literal(2)]),
      shared: z.boolean(),
      openAmount: z.string().optional(),
      lines: z.array(z.object({ rate: z.string(), base: z.string() })),
      byCurrency: z.record(z.string(), z.string()),
      payload: z.unknown(),
      target: z.discriminatedUnion('type', [z.object({ type: z.literal('iban'), iban: z.string() }), z.object({ type: z.literal('qr'), reference: z.string() })]),
    }),
  ),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});

const row = (over: Record<string, unknown> = {}) => ({
  uuid: 'bd62f8ae-b827-e098-7150-9911703bbdd0',
  id: 42,
  amount: '1234.55',
  note: 'Zahlung "Druck" 12/2025\nZeile 2 \u2028 ä é – ✓ \\ </script>',
  account: { id: 7, number: '3200', name: 'Handelserlöse 8.1%' },
  kind: 'sent',
  status: 1,
  shared: false,
  openAmount: '10.00',
  lines: [{ rate: '0.081', base: '2174.65' }],
  byCurrency: { CHF: '1.00', EUR: '0.93' },
  payload: { any: [1, 'two', null] },
  target: { type: 'qr', reference: '210000000003139471430009017' },
  ...over,
});

describe('answers through fast-json-stringify', () => {
  it('writes the same JSON as zod for nulls, absent optionals, records, unions and escapes', () => {
    const data = {
      data: [
        row(),
        row({ note: null, account: null, kind: null, status: 2, openAmount: undefined, lines: [], byCurrency: {}, payload: null, target: { type: 'iban', iban: 'CH93 0076 2011 6238 5295 7' } }),
        // Keys the schema does not name are left out, by zod and by the compiled serializer alike.
        { ...row(), secret: 'never answered', account: { id: 1, number: '1020', name: 'Bank', password: 'x' } },
      ],
      total: 3,
      nextCursor: null,
    };
    const text = serializerFor(answer, false)(data);
    expect(JSON.parse(text)).toStrictEqual(JSON.parse(JSON.stringify(answer.parse(data))));
    expect(text).not.toContain('never answered');
    expect(text).not.toContain('password');
    // The check mode compares both texts on every answer and passes them through unchanged.
    expect(serializerFor(answer, true)(data)).toBe(text);
  });

  it('compiles a nullable object, enum or array as one type with nullable, not an anyOf', () => {
    const schema = jsonSchemaOf(z.object({ a: account.nullable(), b: z.enum(['x', 'y']).nullable(), c: z.array(z.string()).nullable(), d: z.string().nullable() })) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.a).toMatchObject({ type: 'object', nullable: true });
    expect(schema.properties.a).not.toHaveProperty('anyOf');
    expect(schema.properties.b).toMatchObject({ type: 'string', enum: ['x', 'y'], nullable: true });
    expect(schema.properties.c).toMatchObject({ type: 'array', nullable: true });
    expect(schema.properties.d).toMatchObject({ type: ['string', 'null'] });
    // A union of literals keeps its anyOf: a nullable there would lose the values.
    expect(jsonSchemaOf(z.union([z.literal(1), z.literal(2)]).nullable())).toHaveProperty('anyOf');
  });

  it('outside production, an answer that breaks its schema fails as it did with zod alone', () => {
    const bad = { data: [row({ amount: 12.5 })], total: 1, nextCursor: null };
    let thrown: unknown;
    try {
      serializerFor(answer, true)(bad);
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });

  it('in production, a value of the wrong type is coerced, a missing required field still fails', () => {
    const serialize = serializerFor(answer, false);
    expect(JSON.parse(serialize({ data: [row({ amount: 12.5 })], total: 1, nextCursor: null })).data[0].amount).toBe('12.5');
    const { uuid: _missing, ...withoutUuid } = row();
    expect(() => serialize({ data: [withoutUuid], total: 1, nextCursor: null })).toThrow(/uuid/);
  });
});
