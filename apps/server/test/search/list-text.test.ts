/**
 * The lists' free-text filters (issue 18 §2, decision 033 addendum): invoices, bills and the
 * journal find a document by the words of its description (a word inside a compound, several words
 * all needed, in any field), by the customer's or supplier's name, by number or reference; the
 * capped count agrees with the rows; a text of nothing searchable filters nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceKey, textFilter } from '../../src/db/search.js';
import { companiesNamedLike, createAddress, createCompany } from '../../src/modules/companies/companies.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, ok, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let w: InvoicingWorkplace;
let other: InvoicingWorkplace;
/** Invoices: a = customer 'Simon Muster AG', b and c = customer 'Papeterie Zumstein AG'. */
const inv: Record<'a' | 'b' | 'c', { uuid: string; id: number; paymentReference: string }> = {} as never;
const bill: Record<'x' | 'y', string> = {} as never;
let entryId: number;
let importedEntry: number;

beforeAll(async () => {
  server = await startTestServer();
  [w, other] = await Promise.all([invoicingWorkplace(server), invoicingWorkplace(server)]);
  const { zumstein, address } = await server.db.withInstance(w.instanceId, async (tx) => {
    const uuid = await createCompany(tx, w.instanceId, { name: 'Papeterie Zumstein AG' });
    return { zumstein: uuid, address: await createAddress(tx, w.instanceId, uuid, { street: 'Bahnhofstrasse', houseNumber: '2', zip: '3000', city: 'Bern', countryId: 1 }) };
  });
  const insert = async (description: string, dateInvoice: string, customer?: { company: { uuid: string }; address: { id: number } }) => {
    const created = await ok(w, '/api/invoice/insert', { data: { ...invoiceData(w), description, dateInvoice, ...customer } });
    const detail = (await w.api.post('/api/invoice/detail', { id: created.uuid })).body;
    return { uuid: created.uuid as string, id: detail.id as number, paymentReference: detail.paymentReference as string };
  };
  inv.a = await insert('Druckerpatronen und Toner', '2025-01-10');
  inv.b = await insert('Beratung Website', '2025-02-10', { company: { uuid: zumstein }, address: { id: address } });
  inv.c = await insert('Beratung Buchhaltung', '2025-03-10', { company: { uuid: zumstein }, address: { id: address } });
  // The other workplace has the same texts: none of it may show.
  await ok(other, '/api/invoice/insert', { data: { ...invoiceData(other), description: 'Druckerpatronen und Toner', dateInvoice: '2025-01-10' } });

  bill.x = (
    await ok(w, '/api/payable/insert', {
      data: { date: '2025-03-05', amount: '269.55', description: 'Druckerpatronen März', referenceNumber: 'RF18 5390 0754 7034' },
      supplier: { name: 'Bürobedarf Keller GmbH', iban: 'CH93 0076 2011 6238 5295 7' },
    })
  ).uuid;
  bill.y = (await ok(w, '/api/payable/insert', { data: { isExpense: true, date: '2025-03-06', amount: '42.00', description: 'Taxi Flughafen' } })).uuid;

  const [cash, office] = [await w.account('1000'), await w.account('6500')];
  const entry = (description: string) => ({
    data: { dateLedger: '2025-03-10', description, entryAccounts: [{ account: { id: office }, amount: '12.50', direction: 1 }, { account: { id: cash }, amount: '12.50', direction: -1 }] },
  });
  entryId = (await ok(w, '/api/accounting/entry/insert', entry('Kaffeemaschine Büro'))).id;
  importedEntry = (await ok(w, '/api/accounting/entry/insert', entry('Miete April'))).id;
  await server.db.asOwner((tx) => tx.query("UPDATE journal_entry SET source = 'import', source_ref = 'A-1' WHERE instance_id = $1 AND id = $2", [w.instanceId, importedEntry]));
});
afterAll(async () => server?.close());

/** The invoices a text finds (ids, newest first), with the answer's count. */
async function invoices(text: string, path: 'list-w-amounts' | 'list' = 'list-w-amounts') {
  const answer = await w.api.post(`/api/invoice/${path}`, { filters: { text } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const ids = answer.body.data.map((i: { uuid: string }) => i.uuid);
  expect(answer.body.total).toBe(ids.length);
  return ids as string[];
}

describe('invoice lists: filters.text', () => {
  it('finds a word inside a compound, any case', async () => {
    expect(await invoices('patronen')).toEqual([inv.a.uuid]);
    expect(await invoices('TONER')).toEqual([inv.a.uuid]);
  });

  it('needs every typed word, each in any field (description or customer)', async () => {
    expect(await invoices('Beratung')).toEqual([inv.c.uuid, inv.b.uuid]);
    expect(await invoices('beratung website')).toEqual([inv.b.uuid]);
    expect(await invoices('website buchhaltung')).toEqual([]);
    // One word in the customer's name, the other in the description.
    expect(await invoices('Zumstein Buchhaltung')).toEqual([inv.c.uuid]);
    expect(await invoices('Muster Buchhaltung')).toEqual([]);
  });

  it("finds by the customer's name, whole or in part", async () => {
    expect(await invoices('Papeterie Zumstein AG')).toEqual([inv.c.uuid, inv.b.uuid]);
    expect(await invoices('umstei')).toEqual([inv.c.uuid, inv.b.uuid]);
    expect(await invoices('simon muster')).toEqual([inv.a.uuid]);
  });

  it('finds by display number and by payment reference (spaces ignored)', async () => {
    const display = `BILAN${String(inv.b.id).padStart(6, '0')}`;
    expect(await invoices(display)).toEqual([inv.b.uuid]);
    expect(await invoices(`#${inv.b.id}`)).toEqual([inv.b.uuid]);
    expect(await invoices(inv.c.paymentReference)).toEqual([inv.c.uuid]);
    const spaced = inv.c.paymentReference.replace(/(.{5})/g, '$1 ');
    expect(await invoices(spaced)).toEqual([inv.c.uuid]);
  });

  it("finds nothing by a name only another workplace's customer has", async () => {
    const alpen = await server.db.withInstance(other.instanceId, async (tx) => {
      const uuid = await createCompany(tx, other.instanceId, { name: 'Alpenblick Treuhand AG' });
      return { company: { uuid }, address: { id: await createAddress(tx, other.instanceId, uuid, { street: 'Dorfstrasse', houseNumber: '1', zip: '3800', city: 'Interlaken', countryId: 1 }) } };
    });
    await ok(other, '/api/invoice/insert', { data: { ...invoiceData(other), description: 'Jahresabschluss', dateInvoice: '2025-01-10', ...alpen } });
    expect(await invoices('Alpenblick')).toEqual([]);
    expect(await invoices('alpenblick beratung')).toEqual([]);
  });

  it('finds nothing for a word no invoice has, and GET /invoice/list too', async () => {
    expect(await invoices('Kaffeemaschine')).toEqual([]);
    expect(await invoices('patro')).toEqual([inv.a.uuid]);
    const listed = await w.api.get('/api/invoice/list');
    expect(listed.body.total).toBe(3);
  });

  it('lets a text of nothing searchable filter nothing', async () => {
    expect(await invoices('x')).toEqual([inv.c.uuid, inv.b.uuid, inv.a.uuid]);
    expect(await invoices('- .')).toEqual([inv.c.uuid, inv.b.uuid, inv.a.uuid]);
    // A 1-character word among others is ignored.
    expect(await invoices('x patronen')).toEqual([inv.a.uuid]);
  });

  it('counts what it pages, by page and by cursor', async () => {
    const first = await w.api.post('/api/invoice/list-w-amounts', { filters: { text: 'beratung' }, pageSize: 1 });
    expect(first.body).toMatchObject({ total: 2, totalCapped: false });
    expect(first.body.data.map((i: { uuid: string }) => i.uuid)).toEqual([inv.c.uuid]);
    const second = await w.api.post('/api/invoice/list-w-amounts', { filters: { text: 'beratung' }, pageSize: 1, cursor: first.body.nextCursor });
    expect(second.body).toMatchObject({ total: 2, nextCursor: null });
    expect(second.body.data.map((i: { uuid: string }) => i.uuid)).toEqual([inv.b.uuid]);
    const none = await w.api.post('/api/invoice/list-w-amounts', { filters: { text: 'nirgendwo' } });
    expect(none.body).toMatchObject({ data: [], total: 0, totalCapped: false, nextCursor: null });
  });
});

describe('bill list: filters.text', () => {
  const bills = async (text: string) => {
    const answer = await w.api.post('/api/payable/list', { filters: { text } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.total).toBe(answer.body.data.length);
    return answer.body.data.map((b: { uuid: string }) => b.uuid) as string[];
  };

  it('finds by description words, supplier name and whole reference', async () => {
    expect(await bills('PATRONEN')).toEqual([bill.x]);
    expect(await bills('keller patronen')).toEqual([bill.x]);
    expect(await bills('keller taxi')).toEqual([]);
    expect(await bills('Bürobedarf')).toEqual([bill.x]);
    expect(await bills('RF18 5390 0754 7034')).toEqual([bill.x]);
    expect(await bills('rf18539007547034')).toEqual([bill.x]);
    expect(await bills('flughafen')).toEqual([bill.y]);
    expect(await bills('nirgendwo')).toEqual([]);
    expect(await bills('x')).toEqual([bill.y, bill.x]);
  });
});

describe('journal: filters.text', () => {
  const entries = async (text: string) => {
    const answer = await w.api.post('/api/accounting/entry/list', { filters: { text } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.total).toBe(answer.body.data.length);
    return answer.body.data.map((e: { id: number }) => e.id) as number[];
  };

  it('finds by description words, number and import key', async () => {
    expect(await entries('maschine')).toEqual([entryId]);
    expect(await entries('kaffee büro')).toEqual([entryId]);
    expect(await entries('kaffee april')).toEqual([]);
    expect(await entries(`EN${entryId}`)).toEqual([entryId]);
    expect(await entries(String(importedEntry))).toEqual([importedEntry]);
    expect(await entries('A-1')).toEqual([importedEntry]);
    expect(await entries('nirgendwo')).toEqual([]);
    // Nothing searchable: no filter (both entries of the workplace).
    expect(await entries('x')).toHaveLength(2);
  });

  it("filters an account's ledger by the entry's or the posting's description", async () => {
    const office = await w.account('6500');
    const ledger = async (text: string) => {
      const answer = await w.api.post('/api/accounting/entry/account/list', { filters: { accountId: office, text } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.total).toBe(answer.body.data.length);
      return answer.body.data.map((p: { entry: { id: number } }) => p.entry.id) as number[];
    };
    expect(await ledger('maschine')).toEqual([entryId]);
    expect(await ledger('nirgendwo')).toEqual([]);
    expect(await ledger('x')).toHaveLength(2);
    await server.db.asOwner((tx) =>
      tx.query("UPDATE journal_line SET description = 'Entkalker' WHERE instance_id = $1 AND entry_id = $2 AND account_id = $3", [w.instanceId, importedEntry, office]),
    );
    expect(await ledger('KALK')).toEqual([importedEntry]);
    expect(await ledger('kalk miete')).toEqual([importedEntry]);
    expect(await ledger('kalk kaffee')).toEqual([]);
  });

  it('finds the entries with every word and the one whose import key is the whole text', async () => {
    const [cash, rent] = [await w.account('1000'), await w.account('6000')];
    const keyed = (
      await ok(w, '/api/accounting/entry/insert', {
        data: { dateLedger: '2025-03-11', description: 'Miete Mai', entryAccounts: [{ account: { id: rent }, amount: '900.00', direction: 1 }, { account: { id: cash }, amount: '900.00', direction: -1 }] },
      })
    ).id;
    await server.db.asOwner((tx) => tx.query("UPDATE journal_entry SET source = 'import', source_ref = 'Kaffee Büro' WHERE instance_id = $1 AND id = $2", [w.instanceId, keyed]));
    expect(await entries('Kaffee Büro')).toEqual([entryId, keyed]);
    expect(await entries('kaffee büro')).toEqual([entryId]);
    expect(await entries('Kaffee Miete')).toEqual([]);
  });
});

describe('textFilter', () => {
  it('leaves out the names no document has, and then plans the statements for their values', async () => {
    const filter = (text: string) =>
      server.db.withInstance(w.instanceId, async (tx) => {
        const params: unknown[] = [w.instanceId];
        const names = (pattern: string) => `SELECT n.id FROM invoice n WHERE n.instance_id = $1 AND n.company_uuid IN (${companiesNamedLike(pattern)})`;
        const condition = await textFilter(tx, 'i', text, { table: 'invoice', words: { table: 'invoice_word', key: 'invoice_id' }, names }, [], params);
        const [row] = await tx.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode");
        return { unions: condition?.split('UNION ALL').length, mode: row!.mode };
      });
    expect(await filter('patronen')).toEqual({ unions: 1, mode: 'force_custom_plan' });
    expect(await filter('zumstein')).toEqual({ unions: 2, mode: 'auto' });
    expect(await filter('zumstein beratung')).toEqual({ unions: 2, mode: 'auto' });
  });
});

describe('referenceKey', () => {
  it.each([
    ['RF18 5390 0754 7034', 'RF18539007547034'],
    ['21 00000 00003 13947 14300 09017', '210000000003139471430009017'],
    ['Beratung', null],
    ['1', null],
    ['a-1', null],
  ])('%s → %s', (text, key) => expect(referenceKey(text)).toBe(key));
});
