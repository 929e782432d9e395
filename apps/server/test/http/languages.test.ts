/**
 * Field messages in the client's language (issue 17 §3): a 400 answers its `error` and `fields` in
 * German, French or Italian when `Accept-Language` asks for it, in English otherwise (the spec's
 * texts). Nothing is written either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from '../accounting/ledger.js';
import { journalEntryCount } from '../invoicing/support.js';

let server: TestServer;
let wp: LedgerWorkplace;

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());

const unbalanced = JSON.stringify({
  data: { dateLedger: '2026-01-15', description: 'x', entryAccounts: [{ account: '1020', amount: '-5', direction: 1 }] },
});

describe('400 field messages by Accept-Language', () => {
  const refuse = (language?: string) =>
    wp.api.request('POST', '/api/accounting/entry/insert', unbalanced, { 'content-type': 'application/json', ...(language ? { 'accept-language': language } : {}) });

  it('answers English without a header, and with one Bilan does not speak', async () => {
    for (const answer of [await refuse(), await refuse('ja-JP')]) {
      expect(answer.status).toBe(400);
      expect(Object.values(answer.body.fields)).toContain('amount must be greater than 0');
    }
  });

  it.each([
    ['de-CH', 'der Betrag muss grösser als 0 sein'],
    ['fr-CH,fr;q=0.9', 'le montant doit être supérieur à 0'],
    ['it-CH', "l'importo deve essere maggiore di 0"],
  ])('answers %s in that language, the field path kept', async (language, text) => {
    const answer = await refuse(language);
    expect(answer.status).toBe(400);
    const [path] = Object.entries(answer.body.fields).find(([, message]) => message === text) ?? [];
    expect(path, JSON.stringify(answer.body)).toMatch(/amount/);
    expect(answer.body.error).not.toMatch(/must be|required/);
    expect(await journalEntryCount(server, wp)).toBe(0);
  });
});
