/**
 * GET /api/search (issue 17 §1, decision 033): invoices, bills and entries by number, amount,
 * payment reference and text; one workplace never finds another's; bad queries answer 400 by name.
 * The words tables of migration 0044 follow every insert, change of description and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSearchQuery } from '../../src/modules/search/search.routes.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, ok, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let w: InvoicingWorkplace;
let other: InvoicingWorkplace;
let invoice: { uuid: string; id: number; paymentReference: string };
let billUuid: string;
let entryId: number;

beforeAll(async () => {
  server = await startTestServer();
  [w, other] = await Promise.all([invoicingWorkplace(server), invoicingWorkplace(server)]);
  const created = await ok(w, '/api/invoice/insert', {
    data: { ...invoiceData(w), description: 'Website relaunch Muster', dateInvoice: '2025-03-02', dateDue: '2025-04-01', items: [{ name: 'Work', amount: '1', price: '1000.00' }] },
  });
  await ok(w, '/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-02' });
  const detail = (await w.api.post('/api/invoice/detail', { id: created.uuid })).body;
  invoice = { uuid: created.uuid, id: detail.id, paymentReference: detail.paymentReference };
  const bill = await ok(w, '/api/payable/insert', { data: { date: '2025-03-05', amount: '269.55', description: 'Druckerpatronen März' }, supplier: { name: 'Papeterie Zumstein AG', iban: 'CH93 0076 2011 6238 5295 7' } });
  billUuid = bill.uuid;
  const [cash, office] = [await w.account('1000'), await w.account('6500')];
  const entry = await ok(w, '/api/accounting/entry/insert', {
    data: { dateLedger: '2025-03-10', description: 'Kaffeemaschine Büro', entryAccounts: [{ account: { id: office }, amount: '1234.50', direction: 1 }, { account: { id: cash }, amount: '1234.50', direction: -1 }] },
  });
  entryId = entry.id;
  // The other workplace has the same texts and amounts: none of it may show.
  await ok(other, '/api/payable/insert', { data: { date: '2025-03-05', amount: '269.55', description: 'Druckerpatronen März' }, supplier: { name: 'Papeterie Zumstein AG', iban: 'CH93 0076 2011 6238 5295 7' } });
});
afterAll(async () => server?.close());

/** The words the database keeps for one document (as the owner: the test reads past RLS on purpose). */
const storedWords = (table: 'payable_word' | 'invoice_word' | 'journal_entry_word', key: string, id: number) =>
  server.db.asOwner(async (tx) =>
    (await tx.query<{ word: string }>(`SELECT word FROM ${table} WHERE instance_id = $1 AND ${key} = $2 ORDER BY word`, [w.instanceId, id])).map((r) => r.word),
  );

const search = async (q: string) => {
  const answer = await w.api.get(`/api/search?q=${encodeURIComponent(q)}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { kind: string; number: number; href: string; amount: string | null; text: string }[];
};

describe('GET /api/search', () => {
  it('finds by text anywhere in the description, any case, in each kind', async () => {
    expect((await search('relaunch')).map((h) => [h.kind, h.href])).toEqual([['invoice', `/invoice/${invoice.uuid}/detail`]]);
    const bills = await search('PATRONEN');
    expect(bills.map((h) => [h.kind, h.href, h.amount])).toEqual([['bill', `/bill/${billUuid}/detail`, '269.55']]);
    expect((await search('maschine')).map((h) => [h.kind, h.number, h.amount])).toEqual([['entry', entryId, '1234.50']]);
    // Pattern characters are taken literally.
    expect(await search('%%%')).toEqual([]);
  });

  it('finds a word by its beginning, any case, and a document only when every typed word is in it', async () => {
    const bill = await ok(w, '/api/payable/insert', { data: { date: '2025-03-06', amount: '480.00', description: 'Beratung Steuererklärung 2024' }, supplier: { name: 'Treuhand Berger GmbH', iban: 'CH93 0076 2011 6238 5295 7' } });
    const hit = ['bill', `/bill/${bill.uuid}/detail`];
    expect((await search('berat')).map((h) => [h.kind, h.href])).toEqual([hit]);
    expect((await search('BERATUNG')).map((h) => [h.kind, h.href])).toEqual([hit]);
    // Both words, in any order, each in a word of its own; the umlaut is a letter like any other.
    expect((await search('steuererkl berat')).map((h) => [h.kind, h.href])).toEqual([hit]);
    expect((await search('Beratung Steuererklärung')).map((h) => [h.kind, h.href])).toEqual([hit]);
    // One word the bill does not have is enough to leave it out.
    expect(await search('Beratung Kaffee')).toEqual([]);
    // Words of 1 character are ignored; a text of no longer word searches nothing.
    expect((await search('berat a')).map((h) => [h.kind, h.href])).toEqual([hit]);
    expect(await search('a b c')).toEqual([]);
  });

  it('finds a changed description by its new words and no longer by its old ones', async () => {
    const bill = await ok(w, '/api/payable/insert', { data: { date: '2025-03-07', amount: '75.00', description: 'Tonerkartusche Kopierer' }, supplier: { name: 'Büro Schmid AG', iban: 'CH93 0076 2011 6238 5295 7' } });
    expect((await search('tonerkart')).map((h) => h.href)).toEqual([`/bill/${bill.uuid}/detail`]);
    await ok(w, '/api/payable/update', { uuid: bill.uuid, data: { description: 'Recyclingpapier A4' } });
    expect(await search('tonerkart')).toEqual([]);
    expect((await search('recyclingpapier')).map((h) => h.href)).toEqual([`/bill/${bill.uuid}/detail`]);

    const pending = await ok(w, '/api/invoice/insert', {
      data: { ...invoiceData(w), description: 'Workshop Frühling', dateInvoice: '2025-03-08', dateDue: '2025-04-07', items: [{ name: 'Workshop', amount: '1', price: '500.00' }] },
    });
    await ok(w, '/api/invoice/update', { id: pending.uuid, data: { description: 'Schulung Herbst' } });
    expect(await search('Frühling')).toEqual([]);
    expect((await search('schulung herbst')).map((h) => [h.kind, h.href])).toEqual([['invoice', `/invoice/${pending.uuid}/detail`]]);

    const [cash, office] = [await w.account('1000'), await w.account('6500')];
    const lines = (amount: string) => [{ account: { id: office }, amount, direction: 1 }, { account: { id: cash }, amount, direction: -1 }];
    const entry = await ok(w, '/api/accounting/entry/insert', { data: { dateLedger: '2025-03-11', description: 'Porto Einschreiben', entryAccounts: lines('12.30') } });
    await ok(w, '/api/accounting/entry/update', { id: entry.id, data: { dateLedger: '2025-03-11', description: 'Briefmarken', entryAccounts: lines('12.30') } });
    expect(await search('einschreiben')).toEqual([]);
    expect((await search('marken')).map((h) => [h.kind, h.number])).toEqual([['entry', entry.id]]);
    expect(await storedWords('journal_entry_word', 'entry_id', entry.id)).toEqual(['arken', 'briefmarken', 'efmarken', 'en', 'fmarken', 'ken', 'marken', 'iefmarken', 'rken', 'riefmarken'].sort());
  });

  it("drops a deleted bill's words with the bill", async () => {
    const bill = await ok(w, '/api/payable/insert', { data: { date: '2025-03-09', amount: '33.40', description: 'Veloersatzteile' }, supplier: { name: 'Velo Huber', iban: 'CH93 0076 2011 6238 5295 7' } });
    const { id } = (await w.api.post('/api/payable/detail', { uuid: bill.uuid })).body as { id: number };
    expect(await storedWords('payable_word', 'payable_id', id)).toContain('ersatzteile');
    await ok(w, '/api/payable/delete', { uuid: bill.uuid });
    expect(await search('veloersatz')).toEqual([]);
    expect(await storedWords('payable_word', 'payable_id', id)).toEqual([]);
  });

  it('finds by amount as people write it: the bill by its total, the entry by a posting', async () => {
    for (const q of ['1234.50', "1'234.50", '1 234,50', '1234,5']) expect((await search(q)).map((h) => [h.kind, h.number]), q).toContainEqual(['entry', entryId]);
    expect((await search('269.55')).map((h) => [h.kind, h.href])).toEqual([['bill', `/bill/${billUuid}/detail`]]);
    // The invoice's sent entry has its total on 1100 (1000.00 + VAT).
    expect((await search('1081.00')).map((h) => h.kind)).toContain('entry');
  });

  it('matches an amount to the cent: neither a tenth nor a hundred times it', async () => {
    for (const q of ['269.5', '2695.50', '26955', '2.70']) expect((await search(q)).map((h) => h.kind), q).not.toContain('bill');
    for (const q of ['1234.05', '123.45', '12345']) expect((await search(q)).map((h) => [h.kind, h.number]), q).not.toContainEqual(['entry', entryId]);
    const cents = await server.db.asOwner((tx) =>
      tx.query<{ amount_cents: string }>('SELECT DISTINCT amount_cents FROM journal_line WHERE instance_id = $1 AND entry_id = $2', [w.instanceId, entryId]),
    );
    expect(cents).toEqual([{ amount_cents: '123450' }]);
  });

  it('finds by number and by payment reference (spaces ignored)', async () => {
    const byNumber = await search(`INV${invoice.id}`);
    expect(byNumber).toContainEqual(expect.objectContaining({ kind: 'invoice', number: invoice.id }));
    expect(await search(`EN${entryId}`)).toContainEqual(expect.objectContaining({ kind: 'entry', number: entryId }));
    const spaced = invoice.paymentReference.replace(/(.{5})/g, '$1 ');
    expect((await search(spaced)).map((h) => h.kind)).toContain('invoice');
  });

  it('answers 400 naming q for an empty or too long query, and nothing for a query that means nothing', async () => {
    for (const q of ['', '   ', 'x'.repeat(101)]) {
      const answer = await w.api.get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['q']);
    }
    expect((await w.api.get('/api/search')).body.fields.q).toBe('This field is required');
    expect(await search('ab')).toEqual([]);
  });

  it("never finds another workplace's documents", async () => {
    const hits = await search('Druckerpatronen');
    expect(hits).toHaveLength(1);
    expect(hits[0]!.href).toBe(`/bill/${billUuid}/detail`);
  });
});

describe('readSearchQuery', () => {
  it.each([
    ['12', { number: 12, amount: '12.00' }],
    ['INV 7', { number: 7, text: 'INV 7' }],
    ['1 081,00', { amount: '1081.00', text: '1 081,00' }],
    ['RF18 5390 0754 7034', { reference: 'RF18539007547034', text: 'RF18 5390 0754 7034' }],
    ['ab', {}],
    ['-5', {}],
    ['0', { number: 0 }],
    ['000000000000000000000000011', { reference: '000000000000000000000000011', text: '000000000000000000000000011' }],
  ])('%s → %j', (q, read) => {
    expect(readSearchQuery(q)).toEqual(read);
  });
});
