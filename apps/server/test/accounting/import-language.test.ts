/**
 * The CSV journal import's row errors in the request's language (issue 17 §3): the 400's `error`
 * (every "line N, column C: message" part) and `fields` (one per row and column) in German with
 * `accept-language`, English without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
let wp: LedgerWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());

const header = 'date,entry,description,account,amount,currency';
const call = (rows: string[], language?: string) =>
  wp.api.request('POST', '/api/accounting/import/journal', [header, ...rows].join('\n'), { 'content-type': 'text/csv', ...(language ? { 'accept-language': language } : {}) });

describe('POST /api/accounting/import/journal by Accept-Language', () => {
  it('answers the row errors in German, each part of the list translated', async () => {
    const rows = ['2024-02-01,A,x,1020,10.00,CHF', '2024-02-01,A,x,3200,-9.00,CHF', '2024-02-01,B,y,1020,12.5x,CHF', '2024-02-01,B,y,3200,-12.50,CHF'];
    const english = await call(rows);
    expect(english.status).toBe(400);
    expect(english.body.error).toBe(
      'line 4, column amount: "12.5x" is not an amount with at most 2 decimals such as -1994.75; line 2, column amount: entry A does not balance: debit minus credit is 1.00; ' +
        'line 4, column amount: entry B does not balance: debit minus credit is -12.50',
    );
    const german = await call(rows, 'de-CH');
    expect(german.status).toBe(400);
    expect(german.body.error).toBe(
      'Zeile 4, Spalte amount: "12.5x" ist kein Betrag mit höchstens 2 Dezimalstellen wie -1994.75; Zeile 2, Spalte amount: Buchung A ist nicht ausgeglichen: Soll minus Haben ist 1.00; ' +
        'Zeile 4, Spalte amount: Buchung B ist nicht ausgeglichen: Soll minus Haben ist -12.50',
    );
    expect(german.body.fields).toEqual({
      'line 4.amount': '"12.5x" ist kein Betrag mit höchstens 2 Dezimalstellen wie -1994.75',
      'line 2.amount': 'Buchung A ist nicht ausgeglichen: Soll minus Haben ist 1.00',
    });
    const french = await call(['2024-02-01,A,x,1020,0.00,CHF'], 'fr');
    expect(french.body.error).toBe("ligne 2, colonne entry : l'écriture A doit compter au moins deux lignes d'écriture");
  });

  it('answers a wrong header in German', async () => {
    const german = await wp.api.request('POST', '/api/accounting/import/journal', 'datum,entry\n2024-02-01,A', { 'content-type': 'text/csv', 'accept-language': 'de' });
    expect(german.status).toBe(400);
    expect(german.body.error).toMatch(/^Zeile 1: unbekannte Spalte "datum"; erwartet werden die Spalten /);
  });
});
