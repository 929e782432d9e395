import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
let wp: LedgerWorkplace;
let other: LedgerWorkplace;
let bank: number;
let revenue: number;
let receivable: number;
let otherEntryId: number;

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
  other = await ledgerWorkplace(server);
  [bank, revenue, receivable] = await Promise.all([wp.account('1020'), wp.account('3200'), wp.account('1100')]);
  const posted = await other.api.post('/api/accounting/entry/insert', simpleEntry('2024-01-10', await other.account('1020'), await other.account('3200'), '1.00'));
  otherEntryId = posted.body.id;
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown) => wp.api.post(`/api/accounting${path}`, body);

async function balanceAt(date: string, accountId: number): Promise<string | undefined> {
  const response = await post('/balance/get', { date });
  return response.body.accounts.find((a: { id: number }) => a.id === accountId)?.balance;
}

describe('POST /api/accounting/entry/insert', () => {
  it('posts a balanced entry, answers it in full and shows it in the trial balance', async () => {
    const response = await post('/entry/insert', simpleEntry('2024-02-15', receivable, revenue, '1200.50', 'Invoice 1'));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      dateLedger: '2024-02-15',
      description: 'Invoice 1',
      source: 'manual',
      debitTotal: '1200.50',
      entryAccounts: [
        { account: { id: receivable, number: '1100' }, amount: '1200.50', direction: 1, currency: 'CHF', originalAmount: '1200.50', exchangeRate: '1' },
        { account: { id: revenue, number: '3200' }, amount: '1200.50', direction: -1, currency: 'CHF' },
      ],
    });
    expect(typeof response.body.id).toBe('number');
    expect(await balanceAt('2024-02-29', receivable)).toBe('1200.50');
    expect(await balanceAt('2024-02-29', revenue)).toBe('-1200.50');
    expect(await balanceAt('2024-02-14', receivable)).toBeUndefined();
  });

  it('refuses an unbalanced entry with 400 on entryAccounts and writes nothing', async () => {
    const before = await ledgerCounts(server, wp.instanceId);
    const body = simpleEntry('2024-02-15', bank, revenue, '100.00');
    body.data.entryAccounts[1]!.amount = '99.99';
    const response = await post('/entry/insert', body);
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({ 'data.entryAccounts': 'debit and credit must be equal' });
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });

  it('refuses an entry with a single posting', async () => {
    const body = simpleEntry('2024-02-15', bank, revenue, '100.00');
    body.data.entryAccounts.pop();
    const response = await post('/entry/insert', body);
    expect(response.status).toBe(400);
    expect(response.body.fields['data.entryAccounts']).toBe('a journal entry needs at least two lines');
  });

  it.each([
    ['an unknown key', { foo: 1 }, 'data.foo', 'this key cannot be included'],
    ['three decimals', { amount: '1.005' }, 'data.entryAccounts.0.amount', 'amount must be a decimal number with at most 2 decimals'],
    ['a negative amount', { amount: '-5.00' }, 'data.entryAccounts.0.amount', 'amount must be greater than 0'],
    ['a number amount', { amount: 5 }, 'data.entryAccounts.0.amount', /expected.*string/],
    ['a bad direction', { direction: 2 }, 'data.entryAccounts.0.direction', 'direction must be 1 (debit) or -1 (credit)'],
    ['a bad date', { dateLedger: '2024-02-30' }, 'data.dateLedger', 'date invalid'],
    ['a year out of range', { dateLedger: '1899-12-31' }, 'data.dateLedger', 'date invalid'],
  ])('answers 400 naming the field for %s, writing nothing', async (_label, change, field, message) => {
    const before = await ledgerCounts(server, wp.instanceId);
    const body = simpleEntry('2024-02-15', bank, revenue, '10.00');
    const { amount, direction, foo, dateLedger } = change as Record<string, unknown>;
    if (amount !== undefined) (body.data.entryAccounts[0] as Record<string, unknown>).amount = amount;
    if (direction !== undefined) (body.data.entryAccounts[0] as Record<string, unknown>).direction = direction;
    if (dateLedger !== undefined) body.data.dateLedger = dateLedger as string;
    if (foo !== undefined) (body.data as Record<string, unknown>).foo = foo;
    const response = await post('/entry/insert', body);
    expect(response.status).toBe(400);
    expect(response.body.fields[field]).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });

  it("refuses an account id of another instance as unknown (400 on the posting's account)", async () => {
    const response = await post('/entry/insert', simpleEntry('2024-02-15', bank, 99_999, '10.00'));
    expect(response.status).toBe(400);
    expect(response.body.fields['data.entryAccounts.1.account.id']).toBe('ledger account 99999 not found');
  });

  it('checks a foreign-currency posting: amount = round2(originalAmount × exchangeRate), half-up', async () => {
    const euroLine = { account: { id: bank }, direction: 1, currency: 'EUR', originalAmount: '100.00', exchangeRate: '0.94235' };
    const posted = await post('/entry/insert', {
      data: {
        dateLedger: '2024-03-01',
        description: 'EUR receipt',
        entryAccounts: [{ ...euroLine, amount: '94.24' }, { account: { id: revenue }, amount: '94.24', direction: -1 }],
      },
    });
    expect(posted.status).toBe(200);
    expect(posted.body.entryAccounts[0]).toMatchObject({ amount: '94.24', currency: 'EUR', originalAmount: '100.00', exchangeRate: '0.94235' });

    const wrong = await post('/entry/insert', {
      data: {
        dateLedger: '2024-03-01',
        description: 'EUR receipt',
        entryAccounts: [{ ...euroLine, amount: '94.23' }, { account: { id: revenue }, amount: '94.23', direction: -1 }],
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields['data.entryAccounts.0.amount']).toMatch(/originalAmount × exchangeRate .*\(94.24\)/);

    const noRate = await post('/entry/insert', {
      data: {
        dateLedger: '2024-03-01',
        description: 'EUR receipt',
        entryAccounts: [{ account: { id: bank }, amount: '10.00', direction: 1, currency: 'EUR' }, { account: { id: revenue }, amount: '10.00', direction: -1 }],
      },
    });
    expect(noRate.status).toBe(400);
    expect(noRate.body.fields['data.entryAccounts.0.originalAmount']).toMatch(/required for a posting in another currency/);
  });

  it('never answers 500 for extreme values: huge foreign amounts and ids beyond the integer range are 400', async () => {
    const huge = await post('/entry/insert', {
      data: {
        dateLedger: '2024-03-01',
        description: 'huge',
        entryAccounts: [
          { account: { id: bank }, amount: '1.00', direction: 1, currency: 'EUR', originalAmount: '999999999999999999.99', exchangeRate: '999999999.5' },
          { account: { id: revenue }, amount: '1.00', direction: -1 },
        ],
      },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.fields['data.entryAccounts.0.originalAmount']).toMatch(/must be between -999999999999.99 and 999999999999.99/);
    const bigId = await post('/entry/detail', { id: 3_000_000_000 });
    expect(bigId.status).toBe(400);
    const bigAccount = await post('/entry/insert', simpleEntry('2024-03-01', 3_000_000_000, revenue, '1.00'));
    expect(bigAccount.status).toBe(400);
  });

  it('answers 401 without a token and 403 for a viewer', async () => {
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.post('/api/accounting/entry/insert', simpleEntry('2024-02-15', bank, revenue, '1.00'))).status).toBe(401);
    const viewer = await ledgerWorkplace(server, { role: 'viewer' });
    const response = await viewer.api.post('/api/accounting/entry/insert', simpleEntry('2024-02-15', await viewer.account('1020'), await viewer.account('3200'), '1.00'));
    expect(response.status).toBe(403);
  });
});

describe('POST /api/accounting/entry/detail', () => {
  it('answers the entry, 404 for an unknown id and for an id of another instance, 400 for a bad id', async () => {
    const posted = await post('/entry/insert', simpleEntry('2024-04-01', bank, revenue, '5.00'));
    const detail = await post('/entry/detail', { id: posted.body.id });
    expect(detail.status).toBe(200);
    // A manual entry: no document behind it (issue 11 §2).
    expect(detail.body).toEqual({ ...posted.body, document: null });
    expect((await post('/entry/detail', { id: 987_654 })).status).toBe(404);
    // Ids are per instance: the other instance's entry id may not exist here or be a different entry.
    const foreign = await other.api.post('/api/accounting/entry/detail', { id: otherEntryId });
    expect(foreign.status).toBe(200);
    expect((await post('/entry/detail', { id: otherEntryId + 1000 })).status).toBe(404);
    const bad = await post('/entry/detail', { id: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.id).toBe('id must be greater than 0');
    expect((await post('/entry/detail', { id: -1 })).body.fields.id).toBe('negative numbers are not accepted');
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/detail', { id: 1 })).status).toBe(401);
  });

  it("never shows another instance's entry", async () => {
    // A fresh instance has no entries at all: every id the other instance used is unknown here.
    const fresh = await ledgerWorkplace(server);
    const response = await fresh.api.post('/api/accounting/entry/detail', { id: otherEntryId });
    expect(response.status).toBe(404);
    expect(response.body.error).toBe(`journal entry ${otherEntryId} not found`);
  });
});

describe('POST /api/accounting/entry/update', () => {
  it('moves balances between months when the date changes, and the running balances follow', async () => {
    const fresh = await ledgerWorkplace(server);
    const [freshBank, freshRevenue] = [await fresh.account('1020'), await fresh.account('3200')];
    const call = (path: string, body: unknown) => fresh.api.post(`/api/accounting${path}`, body);
    const first = await call('/entry/insert', simpleEntry('2024-01-15', freshBank, freshRevenue, '100.00', 'January sale'));
    const second = await call('/entry/insert', simpleEntry('2024-02-10', freshBank, freshRevenue, '50.00', 'February sale'));
    const multi = async () =>
      (await call('/balance/get/multi', { endDates: ['2024-01-31', '2024-02-29', '2024-03-31'] })).body.accounts.find(
        (a: { id: number }) => a.id === freshBank,
      ).balances;
    expect(await multi()).toEqual(['100.00', '150.00', '150.00']);

    const updated = await call('/entry/update', {
      id: first.body.id,
      data: {
        dateLedger: '2024-03-05',
        description: 'March sale',
        entryAccounts: [
          { account: { id: freshBank }, amount: '120.00', direction: 1 },
          { account: { id: freshRevenue }, amount: '120.00', direction: -1 },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: first.body.id, dateLedger: '2024-03-05', description: 'March sale', debitTotal: '120.00' });
    expect(await multi()).toEqual(['0.00', '50.00', '170.00']);

    const postings = await call('/entry/account/list', { filters: { accountId: freshBank } });
    expect(postings.status).toBe(200);
    expect(postings.body).toMatchObject({ total: 2, openingBalance: '0.00', closingBalance: '170.00' });
    expect(postings.body.data.map((p: { entry: { id: number }; debit: string; credit: string; balance: string }) => [p.entry.id, p.debit, p.credit, p.balance])).toEqual([
      [second.body.id, '50.00', '0.00', '50.00'],
      [first.body.id, '120.00', '0.00', '170.00'],
    ]);
    const march = await call('/entry/account/list', { filters: { accountId: freshBank, dateFrom: '2024-03-01' } });
    expect(march.body).toMatchObject({ total: 1, openingBalance: '50.00', closingBalance: '170.00' });
    expect(march.body.data[0].balance).toBe('170.00');
    const checks = await fresh.api.get('/api/accounting/balance/check');
    expect(checks.body.ok).toBe(true);
  });

  it('answers 404 for an entry of another instance and 400 (nothing changed) for bad data', async () => {
    const foreign = await post('/entry/update', { id: otherEntryId + 5000, ...simpleEntry('2024-02-15', bank, revenue, '1.00') });
    expect(foreign.status).toBe(404);
    const posted = await post('/entry/insert', simpleEntry('2024-05-01', bank, revenue, '7.00'));
    const before = await ledgerCounts(server, wp.instanceId);
    const unbalanced = simpleEntry('2024-06-01', bank, revenue, '7.00');
    unbalanced.data.entryAccounts[0]!.amount = '8.00';
    const response = await post('/entry/update', { id: posted.body.id, ...unbalanced });
    expect(response.status).toBe(400);
    expect(response.body.fields['data.entryAccounts']).toBe('debit and credit must be equal');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await post('/entry/detail', { id: posted.body.id })).body).toEqual({ ...posted.body, document: null });
    const missing = await post('/entry/update', { id: posted.body.id });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.data).toBeDefined();
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/update', { id: posted.body.id, ...unbalanced })).status).toBe(401);
  });
});

describe('POST /api/accounting/entry/delete', () => {
  it('deletes an entry and its postings; 404 afterwards and for another instance; 400 for a bad id', async () => {
    const posted = await post('/entry/insert', simpleEntry('2024-07-01', bank, revenue, '33.00'));
    const before = await ledgerCounts(server, wp.instanceId);
    const response = await post('/entry/delete', { id: posted.body.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    const after = await ledgerCounts(server, wp.instanceId);
    expect(Number(after.entries)).toBe(Number(before.entries) - 1);
    expect(Number(after.lines)).toBe(Number(before.lines) - 2);
    expect((await post('/entry/detail', { id: posted.body.id })).status).toBe(404);
    expect((await post('/entry/delete', { id: posted.body.id })).status).toBe(404);
    expect((await post('/entry/delete', { id: 'x' })).body.fields.id).toMatch(/expected.*number/);
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/delete', { id: 1 })).status).toBe(401);
  });
});

describe('POST /api/accounting/entry/list', () => {
  it('pages entries by date, filters by date, text and account, and orders both ways', async () => {
    const fresh = await ledgerWorkplace(server);
    const [a, b, c] = [await fresh.account('1020'), await fresh.account('3200'), await fresh.account('6500')];
    const call = (body: unknown) => fresh.api.post('/api/accounting/entry/list', body);
    for (const [date, debit, description] of [
      ['2024-01-03', a, 'alpha'],
      ['2024-01-01', c, 'bravo office'],
      ['2024-01-02', a, 'charlie'],
    ] as const) {
      await fresh.api.post('/api/accounting/entry/insert', simpleEntry(date, debit, b, '10.00', description));
    }
    const all = await call({});
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(3);
    expect(all.body.data.map((e: { description: string }) => e.description)).toEqual(['bravo office', 'charlie', 'alpha']);
    expect((await call({ order: 'desc', pageSize: 1, page: 2 })).body.data.map((e: { description: string }) => e.description)).toEqual(['charlie']);
    expect((await call({ filters: { dateFrom: '2024-01-02', dateTo: '2024-01-02' } })).body.total).toBe(1);
    expect((await call({ filters: { text: 'OFFICE' } })).body.data[0].description).toBe('bravo office');
    expect((await call({ filters: { accountId: a } })).body.total).toBe(2);
    expect((await call({ filters: { text: '100%' } })).body.total).toBe(0);
    const bad = await call({ pageSize: 501 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['pageSize']);
    expect((await call({ filters: { dateFrom: '2024-13-01' } })).body.fields['filters.dateFrom']).toBe('date invalid');
    expect((await call({ filters: { nope: 1 } })).body.fields['filters.nope']).toBe('this key cannot be included');
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/list', {})).status).toBe(401);
  });
});

describe('POST /api/accounting/entry/account/list', () => {
  it('answers 404 for an account of another instance and 400 without accountId', async () => {
    expect((await post('/entry/account/list', { filters: { accountId: 99_999 } })).status).toBe(404);
    const bad = await post('/entry/account/list', { filters: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.fields['filters.accountId']).toBeDefined();
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/account/list', { filters: { accountId: bank } })).status).toBe(401);
  });
});

describe('POST /api/accounting/entry/account/update', () => {
  it("moves a posting to another account and changes its description; 404 for another instance's line", async () => {
    const posted = await post('/entry/insert', simpleEntry('2024-08-01', bank, revenue, '40.00'));
    const line = posted.body.entryAccounts[1];
    const services = await wp.account('3400');
    const response = await post('/entry/account/update', { id: line.id, data: { account: { id: services }, description: 'services' } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: line.id, account: { id: services, number: '3400' }, amount: '40.00', direction: -1, description: 'services' });
    expect(await balanceAt('2024-08-31', services)).toBe('-40.00');

    const before = await ledgerCounts(server, wp.instanceId);
    const unknownAccount = await post('/entry/account/update', { id: line.id, data: { account: { id: 99_999 } } });
    expect(unknownAccount.status).toBe(400);
    expect(unknownAccount.body.fields['data.account.id']).toBe('ledger account 99999 not found');
    expect((await post('/entry/account/update', { id: line.id, data: { amount: '1.00' } })).body.fields['data.amount']).toBe(
      'this key cannot be included',
    );
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await post('/entry/account/update', { id: 999_999, data: { description: 'x' } })).status).toBe(404);
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/account/update', { id: line.id, data: {} })).status).toBe(401);
  });
});

describe('POST /api/accounting/entry/merge', () => {
  it('moves the postings of entry2 into entry1 and deletes entry2; refuses different dates', async () => {
    const one = await post('/entry/insert', simpleEntry('2024-09-01', bank, revenue, '10.00'));
    const two = await post('/entry/insert', simpleEntry('2024-09-01', receivable, revenue, '15.00'));
    const merged = await post('/entry/merge', { entry1: one.body.id, entry2: two.body.id });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(one.body.id);
    expect(merged.body.entryAccounts).toHaveLength(4);
    expect(merged.body.debitTotal).toBe('25.00');
    expect((await post('/entry/detail', { id: two.body.id })).status).toBe(404);

    const later = await post('/entry/insert', simpleEntry('2024-09-02', bank, revenue, '1.00'));
    const before = await ledgerCounts(server, wp.instanceId);
    const refused = await post('/entry/merge', { entry1: one.body.id, entry2: later.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.entry2).toMatch(/same date/);
    expect((await post('/entry/merge', { entry1: one.body.id, entry2: one.body.id })).status).toBe(400);
    expect((await post('/entry/merge', { entry1: one.body.id })).body.fields.entry2).toBeDefined();
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await post('/entry/merge', { entry1: one.body.id, entry2: 999_999 })).status).toBe(404);
    expect((await new Client(server.baseUrl).post('/api/accounting/entry/merge', { entry1: 1, entry2: 2 })).status).toBe(401);
  });
});

describe('lock date', () => {
  it('refuses insert, update, delete, merge and moves on or before the lock date (409) and allows them after it', async () => {
    const locked = await ledgerWorkplace(server);
    const [a, b] = [await locked.account('1020'), await locked.account('3200')];
    const call = (path: string, body: unknown) => locked.api.post(`/api/accounting${path}`, body);
    const old = await call('/entry/insert', simpleEntry('2024-03-31', a, b, '10.00'));
    const open = await call('/entry/insert', simpleEntry('2024-04-01', a, b, '10.00'));
    await server.db.withInstance(locked.instanceId, (tx) =>
      tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2024-03-31')`, [locked.instanceId]),
    );
    const before = await ledgerCounts(server, locked.instanceId);

    const onLockDate = await call('/entry/insert', simpleEntry('2024-03-31', a, b, '1.00'));
    expect(onLockDate.status).toBe(409);
    expect(onLockDate.body.fields['data.dateLedger']).toBe('the date 2024-03-31 is on or before the lock date 2024-03-31');
    expect((await call('/entry/insert', simpleEntry('2023-12-31', a, b, '1.00'))).status).toBe(409);
    expect((await call('/entry/update', { id: old.body.id, ...simpleEntry('2024-04-02', a, b, '1.00') })).status).toBe(409);
    expect((await call('/entry/update', { id: open.body.id, ...simpleEntry('2024-03-30', a, b, '1.00') })).status).toBe(409);
    expect((await call('/entry/delete', { id: old.body.id })).status).toBe(409);
    const moveLocked = await call('/entry/account/update', { id: old.body.entryAccounts[0].id, data: { account: { id: await locked.account('1021') } } });
    expect(moveLocked.status).toBe(409);
    const describeLocked = await call('/entry/account/update', { id: old.body.entryAccounts[0].id, data: { description: 'late note' } });
    expect(describeLocked.status).toBe(409);
    expect(describeLocked.body.fields['data.dateLedger']).toMatch(/lock date 2024-03-31/);
    expect((await call('/entry/merge', { entry1: old.body.id, entry2: old.body.id + 100 })).status).toBe(404);
    expect(await ledgerCounts(server, locked.instanceId)).toEqual(before);

    expect((await call('/entry/insert', simpleEntry('2024-04-01', a, b, '1.00'))).status).toBe(200);
    expect((await call('/entry/update', { id: open.body.id, ...simpleEntry('2024-04-02', a, b, '2.00') })).status).toBe(200);
    expect((await call('/entry/delete', { id: open.body.id })).status).toBe(200);
  });

  it('is enforced by the database too: a raw delete of a locked posting fails with BIL02', async () => {
    const locked = await ledgerWorkplace(server);
    const posted = await locked.api.post('/api/accounting/entry/insert', simpleEntry('2024-01-31', await locked.account('1020'), await locked.account('3200'), '5.00'));
    await expect(
      server.db.withInstance(locked.instanceId, async (tx) => {
        await tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2024-01-31')`, [locked.instanceId]);
        await tx.query('DELETE FROM journal_line WHERE instance_id = $1 AND entry_id = $2', [locked.instanceId, posted.body.id]);
      }),
    ).rejects.toMatchObject({ code: 'BIL02' });
  });
});

describe('database invariant', () => {
  it('refuses an unbalanced entry written by raw SQL (deferred trigger, BIL01) and keeps nothing', async () => {
    const raw = await ledgerWorkplace(server);
    const [a, b] = [await raw.account('1020'), await raw.account('3200')];
    const before = await ledgerCounts(server, raw.instanceId);
    await expect(
      server.db.withInstance(raw.instanceId, async (tx) => {
        await tx.query(`INSERT INTO journal_entry (instance_id, id, date_ledger) VALUES ($1, 9001, '2024-05-05')`, [raw.instanceId]);
        await tx.query(
          `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
           VALUES ($1, 9001, 9001, '2024-05-05', $2, 1, 100, 1, 100, 1), ($1, 9002, 9001, '2024-05-05', $3, -1, 90, 1, 90, 1)`,
          [raw.instanceId, a, b],
        );
      }),
    ).rejects.toMatchObject({ code: 'BIL01' });
    expect(await ledgerCounts(server, raw.instanceId)).toEqual(before);
  });
});
