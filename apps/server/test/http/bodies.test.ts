/**
 * Request bodies (issue 11 §5): a deeply nested JSON body answers 400 naming the body, not a 500
 * from a blown stack; every route takes at most 1 MiB except the file and bulk-import routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNestedDeeperThan, nulBytePath } from '../../src/http/validation.js';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from '../accounting/ledger.js';

const DEPTH = 100_000;
const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

let server: TestServer;
let anonymous: Client;
let wp: LedgerWorkplace;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());

const json = { 'content-type': 'application/json' };

describe('deeply nested JSON', () => {
  for (const [name, body] of [
    ['[[[…]]]', deepArray],
    ['{"a":{"a":…}}', deepObject],
  ] as const) {
    it(`answers 400 naming the body for ${name} ${DEPTH} deep, on a public and an authenticated write route`, async () => {
      for (const response of [
        await anonymous.request('POST', '/napi/instance/exists', body, json),
        await wp.api.request('POST', '/api/accounting/entry/insert', body, json),
      ]) {
        expect(response.status).toBe(400);
        expect(response.body.fields.body).toMatch(/must not nest/);
      }
      // The server still answers.
      expect((await anonymous.get('/api/meta/version')).status).toBe(200);
    });
  }

  it('finds NUL characters at any depth without recursion and names the path', () => {
    expect(nulBytePath({ a: [1, { b: 'ok', c: 'x\u0000y' }] })).toBe('a.1.c');
    expect(nulBytePath({ 'k\u0000': 'fine' })).toBe('k\u0000');
    expect(nulBytePath('\u0000')).toBe('_');
    expect(nulBytePath({ a: ['no NUL'] })).toBeUndefined();
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < DEPTH; i += 1) deep = [deep];
    expect(nulBytePath(deep)).toBe(Array(DEPTH).fill('0').join('.'));
    expect(isNestedDeeperThan(deep)).toBe(true);
    expect(isNestedDeeperThan({ data: { entryAccounts: [{ account: { id: 1 } }] } })).toBe(false);
  });
});

describe('body size limits', () => {
  it('refuses a 2 MiB JSON body on an ordinary route with 413', async () => {
    const accountId = await wp.account('1020');
    const entry = simpleEntry('2026-03-01', accountId, await wp.account('3200'), '10.00', 'x'.repeat(2 * 1024 * 1024));
    const response = await wp.api.post('/api/accounting/entry/insert', entry);
    expect(response.status).toBe(413);
    expect(response.body.error).toMatch(/too large/i);
    // Unauthenticated too.
    expect((await anonymous.post('/napi/instance/exists', { name: 'x'.repeat(2 * 1024 * 1024) })).status).toBe(413);
  });

  it('still takes a journal import larger than 1 MiB', async () => {
    const description = 'Imported entry with a long description '.padEnd(480, '.');
    const rows = ['date,entry,description,account,amount,currency'];
    for (let i = 1; i <= 1200; i += 1) {
      rows.push(`2026-02-01,E${i},${description},1020,1.00,CHF`, `2026-02-01,E${i},${description},3200,-1.00,CHF`);
    }
    const csv = rows.join('\n');
    expect(csv.length).toBeGreaterThan(1024 * 1024);
    const response = await wp.api.post('/api/accounting/import/journal', csv);
    expect(response.status).toBe(200);
  });
});
