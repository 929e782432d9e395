/**
 * How answers become JSON (decision 040): each route's zod response schema is turned into a JSON
 * schema once (`z.toJSONSchema`, output side) and compiled by fast-json-stringify, Fastify's own
 * serializer. zod's serializer (fastify-type-provider-zod) checked every answer against its schema,
 * copied it (`safeEncode`) and then ran `JSON.stringify`: on a page of 50 invoices, a tenth to a
 * sixth of the server's CPU time per request (docs/performance.md).
 *
 * Outside production (`check`), every answer is still checked by zod as before, and the compiled
 * serializer's JSON must be the same value as zod's `JSON.stringify` (key order aside), else the
 * request fails with a 500 naming the route and where the texts part: the test suites are the
 * proof that the two agree on every answer they see. In production an answer is not validated any
 * more: a value of the wrong type is coerced as fast-json-stringify does, a missing required field
 * still fails.
 */
import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { serializerCompiler } from 'fastify-type-provider-zod';

type SerializerCompiler = typeof serializerCompiler;
type Route = Parameters<SerializerCompiler>[0];
type Stringify = (data: unknown) => string;

export interface ResponseSerializerOptions {
  /** Check each answer with zod and compare both JSON values (development and tests). */
  check: boolean;
  /** Told once per schema that fast-json-stringify cannot compile (served by zod instead). */
  onFallback?: (route: string, error: unknown) => void;
}

/**
 * The serializer compiler for `app.setSerializerCompiler`. Compiling is lazy (at a route's first
 * answer, about 1–10 ms for the largest schemas), so start-up stays as it was (issue 18 §3), and
 * shared schemas (the error answers) compile once.
 */
export function responseSerializerCompiler(options: ResponseSerializerOptions): SerializerCompiler {
  const compiled = new WeakMap<object, Stringify>();
  const compiledOnce = (route: Route): Stringify => {
    let stringify = compiled.get(route.schema as object);
    if (!stringify) compiled.set(route.schema as object, (stringify = compile(route, options)));
    return stringify;
  };
  return (route) => {
    // zod's serializer as before: the check outside production, the fallback in it.
    const byZod = serializerCompiler(route) as Stringify;
    let stringify: Stringify | undefined;
    return (data: unknown) => {
      stringify ??= compiledOnce(route);
      if (!options.check) return stringify(data);
      const expected = byZod(data);
      const text = stringify(data);
      // fast-json-stringify writes optional properties after the required ones: the same JSON value
      // (RFC 8259 objects are unordered), not always the same text.
      if (text !== expected && !isDeepStrictEqual(JSON.parse(text), JSON.parse(expected))) {
        throw new Error(`the answer of ${route.method} ${route.url} serializes differently from zod's: ${firstDifference(expected, text)}`);
      }
      return text;
    };
  };
}

function compile(route: Route, options: ResponseSerializerOptions): Stringify {
  try {
    return fastJson(jsonSchemaOf(route.schema as z.ZodType) as Parameters<typeof fastJson>[0]) as Stringify;
  } catch (error) {
    if (options.check) throw new Error(`the answer schema of ${route.method} ${route.url} does not compile to fast-json-stringify`, { cause: error });
    options.onFallback?.(`${route.method} ${route.url}`, error);
    return serializerCompiler(route) as Stringify;
  }
}

/**
 * The JSON schema fast-json-stringify compiles: zod's output side (what the answer holds), with
 * `anyOf: [X, {type: 'null'}]` (zod's nullable object, enum or array) rewritten as X with
 * `nullable: true`. fast-json-stringify picks an `anyOf` branch by running Ajv on each value; a
 * nullable type it checks with one comparison.
 */
export function jsonSchemaOf(schema: z.ZodType): unknown {
  return nullableInline(z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }));
}

function nullableInline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableInline);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = nullableInline(value);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && Object.keys(out).length === 1) {
    const nullAt = anyOf.findIndex((branch) => isExactly(branch, { type: 'null' }));
    const other = anyOf[1 - nullAt] as Record<string, unknown> | undefined;
    if (nullAt >= 0 && other && typeof other.type === 'string' && !('const' in other) && !('nullable' in other)) return { ...other, nullable: true };
  }
  return out;
}

const isExactly = (value: unknown, expected: Record<string, unknown>) =>
  value !== null && typeof value === 'object' && JSON.stringify(value) === JSON.stringify(expected);

/** Where two texts part, with some context on both sides. */
function firstDifference(expected: string, actual: string): string {
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  const from = Math.max(0, at - 60);
  return `at character ${at}: zod …${expected.slice(from, at + 60)}… / compiled …${actual.slice(from, at + 60)}…`;
}
