/**
 * Lists of the invoice documents paged in SQL (issue 18 §2, decision 036), over HTTP on both
 * engines: credit notes (oldest first: date, number), reminders (by invoice and level) and
 * recurring templates (newest first) answer 50 rows by default and at most 500 (501 is a 400 on
 * `pageSize`), a walk by `nextCursor` gives every row once in the list's order, a cursor that is not
 * one of the list's own is a 400 on `cursor`, and the filters hold along the walk. The invoice
 * form's options carry the customers without their addresses: the form asks `address/list` for the
 * addresses of the customer chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/db/paging.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { follow, walk } from './paging-support.js';
import { invoiceData, invoicingWorkplace, ok, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

/** Cursors no list of this file gives: garbage, too short, wrong types, too long. */
const FOREIGN_CURSORS = [
  ['garbage'],
  [encodeCursor([])],
  [encodeCursor(['2025-01-01', 'x', 3])],
  [Buffer.from(JSON.stringify([{ id: 1 }])).toString('base64url')],
  // A carried count that is not one (db/paging.ts: a cursor carries its walk's count).
  [Buffer.from(JSON.stringify([7, { n: -1, c: false }])).toString('base64url')],
  ['x'.repeat(2001)],
];

async function sentInvoice(w: InvoicingWorkplace, description: string) {
  const created = await ok(w, '/api/invoice/insert', { data: { ...invoiceData(w), description } });
  await ok(w, '/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-01' });
  return (await ok(w, '/api/invoice/detail', { id: created.uuid })) as { uuid: string; items: { id: number }[] };
}

describe('POST /api/invoice/credit-note/list', () => {
  let first: { uuid: string; items: { id: number }[] };
  let second: { uuid: string; items: { id: number }[] };
  beforeAll(async () => {
    [first, second] = [await sentInvoice(wp, 'Credited often'), await sentInvoice(wp, 'Credited thrice')];
    // 53 notes on the first invoice whose dates run backwards as their numbers rise (several per
    // day), so the list's order (date, number) is not the order of creation; 3 on the second.
    for (let i = 0; i < 53; i++) {
      const date = `2025-04-${String(28 - (i % 27)).padStart(2, '0')}`;
      await ok(wp, '/api/invoice/credit-note/insert', { uuid: first.uuid, token: `first-${i}`, date, lines: [{ itemId: first.items[0]!.id, amount: '1.00' }] });
    }
    for (let i = 0; i < 3; i++) {
      await ok(wp, '/api/invoice/credit-note/insert', { uuid: second.uuid, token: `second-${i}`, date: '2025-04-10', lines: [{ itemId: second.items[0]!.id, amount: '2.00' }] });
    }
  });

  it('answers 50 notes by default, oldest first, with the total and the next cursor; an old body still works', async () => {
    const page = await ok(wp, '/api/invoice/credit-note/list', {});
    expect(page.data).toHaveLength(50);
    expect(page).toMatchObject({ total: 56, totalCapped: false });
    expect(page.nextCursor).toEqual(expect.any(String));
    const keys = page.data.map((n: { date: string; numberInt: number }) => [n.date, n.numberInt]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]));
    expect(page.data[0]).toMatchObject({ number: expect.stringMatching(/^GS-\d{6}$/), invoice: { uuid: expect.any(String) }, totals: { total: expect.any(String) } });
    const rest = await ok(wp, '/api/invoice/credit-note/list', { page: 2 });
    expect(rest.data).toHaveLength(6);
    expect(rest.nextCursor).toBeNull();
  });

  it('walks by cursor through every note once, in order, as the page numbers do', async () => {
    const all = await ok(wp, '/api/invoice/credit-note/list', { pageSize: 500 });
    expect(all.data).toHaveLength(56);
    expect(all.nextCursor).toBeNull();
    const { rows, pages } = await walk(wp.api, '/api/invoice/credit-note/list', {}, 7);
    expect(pages).toBe(8);
    expect(rows.map((n) => n.uuid)).toEqual(all.data.map((n: { uuid: string }) => n.uuid));
    expect(new Set(rows.map((n) => n.uuid)).size).toBe(56);
    const third = await ok(wp, '/api/invoice/credit-note/list', { page: 3, pageSize: 7 });
    expect(third.data.map((n: { uuid: string }) => n.uuid)).toEqual(rows.slice(14, 21).map((n) => n.uuid));
  });

  it("keeps the invoice filter along the cursor; 404 for an unknown invoice", async () => {
    const { rows } = await walk(wp.api, '/api/invoice/credit-note/list', { uuid: second.uuid }, 2);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((n) => n.invoice.uuid))).toEqual(new Set([second.uuid]));
    expect((await ok(wp, '/api/invoice/credit-note/list', { uuid: first.uuid })).total).toBe(53);
    expect((await wp.api.post('/api/invoice/credit-note/list', { uuid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('refuses more than 500 a page and cursors that are not its own: 400 naming the field', async () => {
    const tooMany = await wp.api.post('/api/invoice/credit-note/list', { pageSize: 501 });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.fields)).toEqual(['pageSize']);
    for (const [cursor] of FOREIGN_CURSORS) {
      const answer = await wp.api.post('/api/invoice/credit-note/list', { cursor });
      expect(answer.status, cursor).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
    }
  });
});

describe('POST /api/dunning/reminder/list', () => {
  const invoices: string[] = [];
  beforeAll(async () => {
    // 6 invoices with a reminder of each level 1–9: 54 reminders, written in SQL (a dunning run
    // renders a letter per reminder; dunning.test.ts covers the run), read over HTTP.
    for (let i = 0; i < 6; i++) invoices.push((await sentInvoice(wp, `Reminded ${i}`)).uuid);
    await server.db.withInstance(wp.instanceId, async (tx) => {
      for (const uuid of invoices) {
        for (let level = 1; level <= 9; level++) {
          await tx.query(
            `INSERT INTO dunning_reminder (instance_id, invoice_uuid, level, date_reminder, open_before, fee, interest, amount_due, delivery, lang, pdf)
             VALUES ($1, $2, $3, $4, 100, 20, 0, 120, 'print', 'de', '\\x25504446'::bytea)`,
            [wp.instanceId, uuid, level, `2025-05-${String(level).padStart(2, '0')}`],
          );
        }
      }
    });
    invoices.sort();
  });

  it('answers 50 reminders by default, by invoice and level, with the total and the next cursor', async () => {
    const page = await ok(wp, '/api/dunning/reminder/list', {});
    expect(page.data).toHaveLength(50);
    expect(page).toMatchObject({ total: 54, totalCapped: false });
    expect(page.data.slice(0, 10).map((r: { invoice: { uuid: string }; level: number }) => [r.invoice.uuid, r.level])).toEqual([
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((level) => [invoices[0], level]),
      [invoices[1], 1],
    ]);
    expect(page.data[0]).toMatchObject({ amountDue: '120.00', delivery: 'print', currency: 'CHF' });
    expect((await ok(wp, '/api/dunning/reminder/list', { page: 2 })).data).toHaveLength(4);
  });

  it('walks by cursor through every reminder once, in order', async () => {
    const all = await ok(wp, '/api/dunning/reminder/list', { pageSize: 500 });
    const { rows, pages } = await walk(wp.api, '/api/dunning/reminder/list', {}, 5);
    expect(pages).toBe(11);
    expect(rows.map((r) => r.uuid)).toEqual(all.data.map((r: { uuid: string }) => r.uuid));
    expect(new Set(rows.map((r) => r.uuid)).size).toBe(54);
  });

  it("keeps the invoice filter along the cursor; 404 for an unknown invoice", async () => {
    const { rows } = await walk(wp.api, '/api/dunning/reminder/list', { invoiceUuid: invoices[3] }, 4);
    expect(rows.map((r) => [r.invoice.uuid, r.level])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((level) => [invoices[3], level]));
    expect((await wp.api.post('/api/dunning/reminder/list', { invoiceUuid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('refuses more than 500 a page and cursors that are not its own: 400 naming the field', async () => {
    const tooMany = await wp.api.post('/api/dunning/reminder/list', { pageSize: 501 });
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.fields)).toEqual(['pageSize']);
    // A key of the right shape whose uuid is not one, and a credit note's cursor (date, number).
    for (const cursor of [...FOREIGN_CURSORS.map(([c]) => c!), encodeCursor(['not-a-uuid', 1]), encodeCursor(['2025-04-01', 1])]) {
      const answer = await wp.api.post('/api/dunning/reminder/list', { cursor });
      expect(answer.status, cursor).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
    }
  });
});

describe('GET /api/recurring/list', () => {
  let other: InvoicingWorkplace;
  beforeAll(async () => {
    other = await invoicingWorkplace(server);
    const { dateInvoice: _d, dateDue: _due, ...head } = invoiceData(other);
    for (let i = 0; i < 53; i++) {
      await ok(other, '/api/recurring/insert', { data: { ...head, description: `Hosting ${i}`, interval: 'monthly', startDate: '2030-01-31', sendMode: 'draft' } });
    }
  });

  it('answers 50 templates by default, newest first, and links the next page', async () => {
    const page = await other.api.get('/api/recurring/list');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(50);
    expect(page.body).toMatchObject({ total: 53, totalCapped: false });
    expect(page.body.data.slice(0, 2).map((t: { description: string }) => t.description)).toEqual(['Hosting 52', 'Hosting 51']);
    expect(page.headers.get('link')).toMatch(/^<\/api\/recurring\/list\?cursor=[\w-]+>; rel="next"$/);
    const second = await other.api.get('/api/recurring/list?page=2');
    expect(second.body.data.map((t: { description: string }) => t.description)).toEqual(['Hosting 2', 'Hosting 1', 'Hosting 0']);
    expect(second.headers.get('link')).toBeNull();
  });

  it('walks by cursor through every template once, newest first', async () => {
    const all = await other.api.get('/api/recurring/list?pageSize=500');
    expect(all.body.data).toHaveLength(53);
    const rows = await follow(other.api, '/api/recurring/list?pageSize=6');
    expect(rows.map((t) => t.uuid)).toEqual(all.body.data.map((t: { uuid: string }) => t.uuid));
    const ids = rows.map((t) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(53);
  });

  it('refuses more than 500 a page and cursors that are not its own: 400 naming the field', async () => {
    const tooMany = await other.api.get('/api/recurring/list?pageSize=501');
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.fields)).toEqual(['pageSize']);
    for (const cursor of [...FOREIGN_CURSORS.map(([c]) => c!), encodeCursor(['2025-04-01', 1])]) {
      const answer = await other.api.get(`/api/recurring/list?cursor=${encodeURIComponent(cursor)}`);
      expect(answer.status, cursor).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
    }
  });
});

describe('the invoice form options', () => {
  it("name no customers (the form searches company/list); address/list gives the chosen customer's addresses, which an invoice takes", async () => {
    const w = await invoicingWorkplace(server);
    const created = await ok(w, '/api/company/insert', {
      data: { name: 'Zweisitz AG', address: { street: 'Hauptgasse', houseNumber: '1', zip: '4500', city: 'Solothurn', country: { id: 1 } } },
    });
    await ok(w, '/api/address/insert', { data: { company: { uuid: created.uuid }, street: 'Nebengasse', houseNumber: '2', zip: '4500', city: 'Solothurn', country: { id: 1 } } });
    const options = await w.api.get('/api/invoice/form-options');
    expect(options.status).toBe(200);
    expect(options.body).not.toHaveProperty('companies');
    const found = await ok(w, '/api/company/list', { filters: { text: 'zweisitz' }, pageSize: 20 });
    expect(found.data.map((c: { uuid: string }) => c.uuid)).toEqual([created.uuid]);

    const addresses = await ok(w, '/api/address/list', { filters: { company: { uuid: created.uuid } }, pageSize: 500 });
    expect(addresses.data.map((a: { street: string }) => a.street)).toEqual(['Hauptgasse', 'Nebengasse']);
    const invoice = await ok(w, '/api/invoice/insert', { data: { ...invoiceData(w), company: { uuid: created.uuid }, address: { id: addresses.data[1].id } } });
    expect(invoice.address).toMatchObject({ id: addresses.data[1].id, street: 'Nebengasse' });
    // Another customer's address is refused by the invoice's own check.
    const foreign = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), company: { uuid: created.uuid }, address: { id: w.address } } });
    expect(foreign.status).toBe(400);
    expect(Object.keys(foreign.body.fields)).toContain('data.address.id');
  });
});
