/**
 * The served OpenAPI document is valid for standard clients (issue 11 §3): swagger-parser accepts
 * it, openapi-typescript turns it into types, and those types are the committed
 * apps/web/src/lib/api-schema.d.ts (a route schema changed without `npm run gen:api` fails here).
 */
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCHEMA_FILE, renderApiTypes } from '../../scripts/api-types.js';
import { startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
let document: Record<string, unknown>;
beforeAll(async () => {
  server = await startTestServer();
  const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  document = response.json();
});
afterAll(async () => server?.close());

describe('GET /api/docs/json', () => {
  it('is a valid OpenAPI 3 document', async () => {
    // validate() dereferences in place: give it a copy so the next test sees the served document.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('declares each query parameter by its own name', () => {
    const paths = document.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    const redirect = paths['/napi/auth/{provider}/redirect']!.get!.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
    expect(redirect).toEqual(expect.arrayContaining(['code', 'state']));
    expect(redirect).not.toContain('type');
    expect(redirect).not.toContain('additionalProperties');
  });

  it('generates the committed web types', async () => {
    const types = await renderApiTypes(document);
    expect(types).toContain('"/api/invoice/list"');
    expect(types, 'apps/web/src/lib/api-schema.d.ts is out of date: run `npm run gen:api`').toBe(readFileSync(API_SCHEMA_FILE, 'utf8'));
  });
});
