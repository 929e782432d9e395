/**
 * Invoice totals kept with the invoice (migration 0052, issue 18 §2): stored by the read that
 * computed them, forgotten by the database on any change of what they follow from (whoever makes
 * it), and never stored from a version of the invoice that changed meanwhile. Both engines; the
 * tests that need two open transactions at once run on PostgreSQL only (PGlite has one connection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeInvoiceTotals } from '../../src/modules/invoicing/invoicing.sql.js';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, ok, type InvoicingWorkplace } from './support.js';

let server: TestServer;
let w: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  w = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

type Stored = { format: number; total: string; totalBase: string; net: string; vat: string; lines: Record<string, string> } | null;

/** The invoice's stored totals and row version, read as the app's role in its instance. */
async function stored(uuid: string): Promise<{ totals: Stored; version: string }> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ totals: Stored; version: string }>('SELECT totals, xmin::text AS version FROM invoice WHERE instance_id = $1 AND uuid = $2', [w.instanceId, uuid]),
  );
  return row!;
}

/** Runs `sql` ($1 the instance, $2 the invoice uuid) in the invoice's instance, as any writer could. */
const write = (sql: string, uuid: string) => server.db.withInstance(w.instanceId, (tx) => tx.query(sql, [w.instanceId, uuid]));
const forget = (uuid: string) => write('UPDATE invoice SET totals = NULL WHERE instance_id = $1 AND uuid = $2', uuid);

const created = async (data: Record<string, unknown> = invoiceData(w)) => (await ok(w, '/api/invoice/insert', { data })) as { uuid: string; items: { id: number; total: string }[]; totals: { total: string } };

describe('stored invoice totals', () => {
  it('are stored when the invoice is written, and answered the same as computed from its lines', async () => {
    const invoice = await created();
    const { totals } = await stored(invoice.uuid);
    expect(totals).toMatchObject({ format: 1, net: '249.33', vat: '20.20', total: '269.55', totalBase: '269.55' });
    expect(totals!.lines).toEqual(Object.fromEntries(invoice.items.map((item) => [String(item.id), item.total])));

    const fromStored = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    await forget(invoice.uuid);
    const computed = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(fromStored).toEqual(computed);
    // The read that computed them stored them again.
    expect((await stored(invoice.uuid)).totals).toEqual(totals);
    const listed = await w.api.get('/api/invoice/list?pageSize=500');
    const inList = listed.body.data.find((i: { uuid: string }) => i.uuid === invoice.uuid);
    expect(inList.totals).toEqual(computed.totals);
    expect(computed).toMatchObject(inList);
  });

  it('are forgotten on any change of the lines, VAT rate, currency, date or exchange rate, whoever writes it', async () => {
    const invoice = await created();
    const line = invoice.items[0]!.id;
    const changes: [string, string][] = [
      ['a line changed', `UPDATE invoice_item SET quantity = 3 WHERE instance_id = $1 AND invoice_uuid = $2 AND id = ${line}`],
      ['a line added', `INSERT INTO invoice_item (instance_id, id, invoice_uuid, label, quantity, price, currency_id, fx_rate)
                        VALUES ($1, next_ids($1, 'invoice_item'), $2, 'Extra', 1, 10, 1, 1)`],
      ['a line removed', `DELETE FROM invoice_item WHERE instance_id = $1 AND invoice_uuid = $2 AND label = 'Extra'`],
      ['the VAT rate', `UPDATE invoice SET vat_rate = 0.026 WHERE instance_id = $1 AND uuid = $2`],
      ['the date', `UPDATE invoice SET date_invoice = '2023-06-30' WHERE instance_id = $1 AND uuid = $2`],
      ['the currency', `UPDATE invoice SET currency_id = 2, fx_rate = 0.95 WHERE instance_id = $1 AND uuid = $2`],
      ['the exchange rate', `UPDATE invoice SET fx_rate = 0.9312 WHERE instance_id = $1 AND uuid = $2`],
    ];
    for (const [change, sql] of changes) {
      await ok(w, '/api/invoice/detail', { id: invoice.uuid });
      expect((await stored(invoice.uuid)).totals, `before ${change}`).not.toBeNull();
      await write(sql, invoice.uuid);
      expect((await stored(invoice.uuid)).totals, change).toBeNull();
    }
    // What the invoice answers now follows every change: 3 × 120 less 10 % + 33.33 = 357.33 in EUR at
    // 2.5 % (the reduced rate in force on 2023-06-30), no 5-Rappen rounding, 366.26 × 0.9312 in the books.
    const now = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(now.totals).toMatchObject({ net: '357.33', vatRate: '0.025', vat: '8.93', total: '366.26', rounding: '0.00' });
    expect(now.totalBase).toBe('341.06');
    expect((await stored(invoice.uuid)).totals).toMatchObject({ total: '366.26', totalBase: '341.06' });

    // A change of anything else keeps them.
    await write(`UPDATE invoice SET description = 'Consulting April' WHERE instance_id = $1 AND uuid = $2`, invoice.uuid);
    expect((await stored(invoice.uuid)).totals).not.toBeNull();
  });

  it('follow the API\'s changes of a pending invoice: its lines and its head', async () => {
    const invoice = await created();
    const added = await ok(w, '/api/invoice/item/insert', { data: { invoice: { uuid: invoice.uuid }, name: 'Support', amount: '1', price: '50.00' } });
    expect(added.totals.net).toBe('299.33');
    expect((await stored(invoice.uuid)).totals).toMatchObject({ net: '299.33', total: added.totals.total });
    const support = added.items.find((item: { name: string }) => item.name === 'Support');
    const changedLine = await ok(w, '/api/invoice/item/update', { id: support.id, data: { name: 'Support', amount: '2', price: '50.00' } });
    expect(changedLine.totals.net).toBe('349.33');
    expect((await stored(invoice.uuid)).totals).toMatchObject({ net: '349.33', lines: { [support.id]: '100.00' } });
    const removed = await ok(w, '/api/invoice/item/delete', { id: invoice.items[0]!.id });
    expect(removed.totals.net).toBe('133.33');
    expect((await stored(invoice.uuid)).totals).toMatchObject({ net: '133.33', total: removed.totals.total });
    const changed = await ok(w, '/api/invoice/update', { id: invoice.uuid, data: { vat: '0' } });
    expect(changed.totals).toMatchObject({ net: '133.33', vat: '0.00', total: '133.35' });
    expect((await stored(invoice.uuid)).totals).toMatchObject({ vat: '0.00', total: '133.35' });
  });

  it('of another format, or missing a line, are computed again', async () => {
    const invoice = await created();
    const expected = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    const wrong = { format: 1, net: '1.00', vatRate: '0.081', vat: '0.00', vatLines: [], gross: '1.00', rounding: '0.00', total: '1.00', totalBase: '1.00' };
    for (const totals of [{ ...wrong, format: 2, lines: {} }, { ...wrong, lines: { [invoice.items[0]!.id]: '1.00' } }]) {
      await server.db.withInstance(w.instanceId, (tx) =>
        tx.query('UPDATE invoice SET totals = $3 WHERE instance_id = $1 AND uuid = $2', [w.instanceId, invoice.uuid, JSON.stringify(totals)]),
      );
      expect(await ok(w, '/api/invoice/detail', { id: invoice.uuid })).toEqual(expected);
    }
  });

  it('computed from a version of the invoice that changed meanwhile are not stored', async () => {
    const invoice = await created();
    await forget(invoice.uuid);
    const read = await stored(invoice.uuid);
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    await forget(invoice.uuid);
    // Another writer changed a line after the read: the read's figures (from the old lines) are dropped.
    await write(`UPDATE invoice_item SET price = 200 WHERE instance_id = $1 AND invoice_uuid = $2 AND id = ${invoice.items[1]!.id}`, invoice.uuid);
    const stale = { format: 1, ...detail.totals, totalBase: detail.totalBase, lines: {} };
    await server.db.withInstance(w.instanceId, (tx) => storeInvoiceTotals(tx, w.instanceId, [{ uuid: invoice.uuid, version: read.version, totals: stale }]));
    expect((await stored(invoice.uuid)).totals).toBeNull();
    // From the current version they are.
    const current = await stored(invoice.uuid);
    await server.db.withInstance(w.instanceId, (tx) => storeInvoiceTotals(tx, w.instanceId, [{ uuid: invoice.uuid, version: current.version, totals: stale }]));
    expect((await stored(invoice.uuid)).totals).toMatchObject({ total: detail.totals.total });
  });

  it.runIf(engine === 'postgres')('are not stored into a row another transaction holds, and the read does not wait for it', async () => {
    const invoice = await created();
    await forget(invoice.uuid);
    const read = await stored(invoice.uuid);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const writer = server.db.withInstance(w.instanceId, async (tx) => {
      await tx.query('SELECT 1 FROM invoice WHERE instance_id = $1 AND uuid = $2 FOR UPDATE', [w.instanceId, invoice.uuid]);
      locked();
      await held;
    });
    await isLocked;
    const totals = { format: 1, net: '0.00', vatRate: '0.081', vat: '0.00', vatLines: [], gross: '0.00', rounding: '0.00', total: '0.00', totalBase: '0.00', lines: {} };
    // Returns while the writer still holds the row (a wait would never end: the writer waits for this test).
    await server.db.withInstance(w.instanceId, (tx) => storeInvoiceTotals(tx, w.instanceId, [{ uuid: invoice.uuid, version: read.version, totals }]));
    release();
    await writer;
    expect((await stored(invoice.uuid)).totals).toBeNull();
  });

  it.runIf(engine === 'postgres')('parallel reads of invoices without them all answer, and store them once', async () => {
    const uuids = [];
    for (let i = 0; i < 5; i++) uuids.push((await created()).uuid);
    for (const uuid of uuids) await forget(uuid);
    const answers = await Promise.all(Array.from({ length: 8 }, () => w.api.get('/api/invoice/list?pageSize=500')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    for (const answer of answers) expect(answer.body.data).toEqual(answers[0]!.body.data);
    for (const uuid of uuids) expect((await stored(uuid)).totals).toMatchObject({ total: '269.55' });
  });
});

describe('the list with amounts without lines (withItems: false, decision 042)', () => {
  it('answers each invoice as its detail less its items, from stored totals or from its lines when none are stored', async () => {
    const own = await invoicingWorkplace(server);
    const uuids: string[] = [];
    for (const price of ['100.00', '250.40', '75.05']) {
      const data = { ...invoiceData(own), items: [{ name: 'Work', amount: '2', price }, { name: 'Travel', amount: '1', price: '12.35', vat: '0' }] };
      uuids.push(((await ok(own, '/api/invoice/insert', { data })) as { uuid: string }).uuid);
    }
    await ok(own, '/api/invoice/status/change', { uuid: uuids[0], status: 2, ledgerDate: invoiceData(own).dateInvoice });
    // The second one's totals are forgotten, as any change of its lines would: it is read with its lines.
    const forgotten = uuids[1]!;
    await server.db.withInstance(own.instanceId, (tx) => tx.query('UPDATE invoice SET totals = NULL WHERE instance_id = $1 AND uuid = $2', [own.instanceId, forgotten]));

    const page = await ok(own, '/api/invoice/list-w-amounts', { withItems: false });
    expect(page.data).toHaveLength(3);
    for (const uuid of uuids) {
      const listed = page.data.find((invoice: { uuid: string }) => invoice.uuid === uuid);
      expect(listed, uuid).not.toHaveProperty('items');
      const { payToken: _pay, creditToken: _credit, items, ...detail } = await ok(own, '/api/invoice/detail', { id: uuid });
      expect(items).toHaveLength(2);
      expect(listed).toEqual(detail);
    }
    // The read that had to compute the forgotten totals stored them, as a read with lines does.
    const [row] = await server.db.withInstance(own.instanceId, (tx) =>
      tx.query<{ totals: { total: string } | null }>('SELECT totals FROM invoice WHERE instance_id = $1 AND uuid = $2', [own.instanceId, forgotten]),
    );
    // 500.80 + 8.1 % (40.56) + 12.35 without VAT = 553.71, to 5 Rappen.
    expect(row!.totals).toMatchObject({ total: '553.70' });
    // The default keeps the lines; a bad value names the field and is refused.
    const whole = await ok(own, '/api/invoice/list-w-amounts', {});
    expect(whole.data.map((invoice: { items: unknown[] }) => invoice.items.length)).toEqual([2, 2, 2]);
    const refused = await own.api.post('/api/invoice/list-w-amounts', { withItems: 'no' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('withItems');
  });
});

describe('the company list\'s open amounts from stored totals', () => {
  it('are the same whether the totals are stored or computed, and the computed ones get stored', async () => {
    const customer = (await ok(w, '/api/company/insert', { data: { name: 'Offene Posten AG' } })).uuid as string;
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query('INSERT INTO address (instance_id, id, company_uuid, street, zip, city, country_id) SELECT instance_id, next_ids(instance_id, \'address\'), $2, street, zip, city, country_id FROM address WHERE instance_id = $1 AND id = $3', [w.instanceId, customer, w.address]),
    );
    const [address] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ id: number }>('SELECT id FROM address WHERE instance_id = $1 AND company_uuid = $2', [w.instanceId, customer]),
    );
    const base = { ...invoiceData(w), company: { uuid: customer }, address: { id: address!.id } };
    const sent = async (data: Record<string, unknown>) => {
      const invoice = await created(data);
      await ok(w, '/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-03-01' });
      return invoice;
    };
    const chf = await sent(base);
    await ok(w, '/api/invoice/payment/insert', { uuid: chf.uuid, amount: '100.00', date: '2025-03-05' });
    const eur = await sent({ ...base, currency: 'EUR', fxRate: '0.9312' });
    await ok(w, '/api/invoice/payment/insert', { uuid: eur.uuid, amount: '50.00', date: '2025-03-07' });
    const untouched = await sent({ ...base, currency: 'EUR', fxRate: '0.9377' });
    await sent({ ...base, items: [{ name: 'Audit', amount: '1', price: '1000.00' }] });

    const open = async () => {
      const list = await w.api.post('/api/company/list', { openAmounts: true, filters: { text: 'Offene Posten' } });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      return list.body.data[0].open.receivable as string;
    };
    // Each invoice's open amount in the books: 269.55 − 100 = 169.55; (269.53 EUR − 50) × 0.9312 = 204.43;
    // the booked 269.53 × 0.9377 = 252.74 of the untouched one; 1,081.00: 1,707.72.
    const apAr = (await ok(w, '/api/company/ap-ar', { uuid: customer })).totals.receivable as string;
    expect(apAr).toBe('1707.72');
    expect(await open()).toBe(apAr);
    for (const uuid of [chf.uuid, eur.uuid, untouched.uuid]) await forget(uuid);
    expect(await open()).toBe(apAr);
    for (const uuid of [chf.uuid, eur.uuid, untouched.uuid]) expect((await stored(uuid)).totals, uuid).not.toBeNull();
    expect(await open()).toBe(apAr);
  });
});
