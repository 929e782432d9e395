/**
 * What the server stores in English and the user reads in their language (issue 17 §3): the bank
 * reconciliation's reasons for an unmatched line (stored in English at import, `unmatched_reason`,
 * answered in the language of `accept-language` by the import and the reconciliation), and the
 * lock-date refusal of a posting, also when the database's trigger is the one refusing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../../src/http/errors.js';
import { translateServerMessage } from '../../src/http/message-catalog.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace, type PayablesWorkplace } from '../payables/setup.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from '../accounting/ledger.js';
import { camt054 } from './xsd.js';

let server: TestServer;
let w: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  w = await payablesWorkplace(server);
});
afterAll(async () => server?.close());

const OWN_IBAN = 'CH9300762011623852957';
const asked = (language?: string): Record<string, string> => (language ? { 'accept-language': language } : {});

async function approvedBill(amount: string) {
  const created = await w.api.post('/api/payable/insert', {
    data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.ibanProfile }, date: '2025-11-03', amount },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return approved.body as { uuid: string; id: number };
}

describe('bank reconciliation reasons by Accept-Language', () => {
  it('stores the reason in English and answers it in German on import and in the reconciliation', async () => {
    const a = await approvedBill('70.00');
    const b = await approvedBill('70.00');
    const late = await approvedBill('33.30');
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-11-30')`, [w.instanceId]));
    const xml = camt054('NTF-LANG-1', OWN_IBAN, [
      { direction: 'DBIT', amount: '70.00', bankRef: 'LANG-AMB-1', name: 'Muster Lieferant' },
      { direction: 'DBIT', amount: '33.30', bankRef: 'LANG-LOCK-1', name: 'Muster Lieferant AG', date: '2025-11-28' },
    ]);
    const imported = await w.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml', 'accept-language': 'de-CH' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const [ambiguous, locked] = imported.body.transactions;
    expect(ambiguous.reason).toBe(`2 offene Lieferantenrechnungen (${a.id}, ${b.id}) passen zu Betrag und Gläubiger: ordnen Sie von Hand zu`);
    expect(locked.reason).toBe(`Lieferantenrechnung ${late.id}: das Datum 2025-11-28 liegt am oder vor dem Sperrdatum 2025-11-30`);

    // Stored in English.
    const stored = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ unmatched_reason: string }>("SELECT unmatched_reason FROM bank_transaction WHERE unmatched_reason IS NOT NULL ORDER BY id"),
    );
    expect(stored.map((row) => row.unmatched_reason)).toEqual([
      `2 open bills (${a.id}, ${b.id}) match amount and creditor: match by hand`,
      `bill ${late.id}: the date 2025-11-28 is on or before the lock date 2025-11-30`,
    ]);

    const bank = await w.account('1020');
    const reasons = async (language?: string) => {
      const view = await w.api.request('GET', `/api/banking/integrations/reconcile?account=${bank}`, undefined, asked(language));
      expect(view.status).toBe(200);
      return Object.fromEntries(view.body.unmatched.map((t: { amount: string; reason: string | null; suggestions: { label: string }[] }) => [t.amount, [t.reason, t.suggestions[0]?.label]]));
    };
    expect((await reasons())['70.00']).toEqual([`2 open bills (${a.id}, ${b.id}) match amount and creditor: match by hand`, expect.stringMatching(/^Bill \d+ /)]);
    const french = await reasons('fr-CH');
    expect(french['70.00']).toEqual([
      `2 factures fournisseurs ouvertes (${a.id}, ${b.id}) correspondent au montant et au créancier : attribuez à la main`,
      expect.stringMatching(/^Facture fournisseur \d+ /),
    ]);
    expect(french['33.30']![0]).toBe(`facture fournisseur ${late.id} : la date 2025-11-28 est à la date de verrouillage 2025-11-30 ou avant`);
  });
});

describe('lock-date refusals by Accept-Language', () => {
  let wp: LedgerWorkplace;
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
  });

  it('answers a posting on or before the lock date in German', async () => {
    const lockDate = '2024-06-30';
    expect((await wp.api.post('/api/accounting/lock/insert', { date: lockDate })).status).toBe(200);
    const entry = simpleEntry('2024-06-15', await wp.account('1020'), await wp.account('3200'), '10.00');
    const english = await wp.api.post('/api/accounting/entry/insert', entry);
    expect(english.status).toBe(409);
    expect(english.body).toMatchObject({ code: 'period_locked', error: 'the date 2024-06-15 is on or before the lock date 2024-06-30' });
    const german = await wp.api.request('POST', '/api/accounting/entry/insert', entry, asked('de-CH'));
    expect(german.status).toBe(409);
    expect(german.body).toMatchObject({
      code: 'period_locked',
      error: 'das Datum 2024-06-15 liegt am oder vor dem Sperrdatum 2024-06-30',
      fields: { 'data.dateLedger': 'das Datum 2024-06-15 liegt am oder vor dem Sperrdatum 2024-06-30' },
    });
  });

  it("translates the database trigger's own refusal as the error handler passes it on", async () => {
    // The trigger refuses what the services would have refused first: an entry after the lock moved before it in SQL.
    const posted = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2024-07-10', await wp.account('1020'), await wp.account('3200'), '10.00'));
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    let caught: unknown;
    try {
      await server.db.withInstance(wp.instanceId, (tx) => tx.query(`UPDATE journal_entry SET date_ledger = '2024-06-10' WHERE instance_id = $1 AND id = $2`, [wp.instanceId, posted.body.id]));
    } catch (error) {
      caught = error;
    }
    const appError = fromDatabaseError(caught);
    expect(appError?.extra).toMatchObject({ code: 'period_locked' });
    expect(appError!.message).toBe(`journal entry ${posted.body.id} is dated 2024-06-10 which is on or before the lock date 2024-06-30`);
    expect(translateServerMessage(appError!.message, 'de')).toMatch(/^Buchung \d+ ist vom 2024-06-10 und liegt damit am oder vor dem Sperrdatum 2024-06-30$/);
    expect(translateServerMessage(appError!.message, 'it')).toMatch(/^la registrazione \d+ è datata 2024-06-10, cioè alla data di blocco 2024-06-30 o prima$/);
  });
});
