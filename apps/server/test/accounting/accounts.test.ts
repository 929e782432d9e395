import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountFunctionType, AccountType } from '@bilan/domain';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
let wp: LedgerWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown) => wp.api.post(`/api/accounting${path}`, body);
const anonymous = () => new Client(server.baseUrl);

describe('Swiss SME chart seed', () => {
  it('loads the accounts with their types and function types, and the groups', async () => {
    const list = await post('/account/list', {});
    expect(list.status).toBe(200);
    const byNumber = new Map(list.body.data.map((a: { number: string }) => [a.number, a]));
    expect(list.body.total).toBe(list.body.data.length);
    expect(byNumber.get('1020')).toMatchObject({
      name: 'Postfinance oder Bank1',
      currency: 'CHF',
      type: { id: AccountType.assets },
      functionType: { id: AccountFunctionType.bankAccount },
      balance: '0.00',
      hasPostings: false,
    });
    expect(byNumber.get('1100')).toMatchObject({ functionType: { id: AccountFunctionType.receivable } });
    expect(byNumber.get('2000')).toMatchObject({ type: { id: AccountType.liability }, functionType: { id: AccountFunctionType.payable } });
    expect(byNumber.get('2200')).toMatchObject({ functionType: { id: AccountFunctionType.vat } });
    expect(byNumber.get('2800')).toMatchObject({ type: { id: AccountType.equity }, functionType: null });
    expect(byNumber.get('3200')).toMatchObject({ type: { id: AccountType.revenue }, functionType: { id: AccountFunctionType.salesRevenue } });
    expect(byNumber.get('6950')).toMatchObject({ type: { id: AccountType.revenue } });
    expect(byNumber.get('6500')).toMatchObject({ type: { id: AccountType.expenses } });
    const numbers = list.body.data.map((a: { number: string }) => a.number);
    expect(numbers).toEqual([...numbers].sort());

    const groups = await wp.api.get('/api/accounting/group/list');
    expect(groups.status).toBe(200);
    expect(groups.body.data.find((g: { number: string }) => g.number === '1')).toMatchObject({ name: 'AKTIVEN' });
    expect(groups.body.total).toBe(groups.body.data.length);
  });
});

describe('POST /api/accounting/account/list', () => {
  it('filters by text (number prefix or name), type and function type', async () => {
    expect((await post('/account/list', { filters: { text: '102' } })).body.data.map((a: { number: string }) => a.number)).toEqual(['1020', '1021']);
    expect((await post('/account/list', { filters: { text: 'kasse' } })).body.data.map((a: { number: string }) => a.number)).toEqual(['1000']);
    const bank = await post('/account/list', { filters: { functionType: AccountFunctionType.bankAccount } });
    expect(bank.body.data.map((a: { number: string }) => a.number)).toEqual(['1020', '1021']);
    const equity = await post('/account/list', { filters: { type: AccountType.equity } });
    expect(equity.body.data.every((a: { type: { id: number } }) => a.type.id === AccountType.equity)).toBe(true);
    // LIKE wildcards in the text match literally: '%' finds the VAT accounts named "… (8.1%)".
    const percent = await post('/account/list', { filters: { text: '%' } });
    expect(percent.body.total).toBeGreaterThan(0);
    expect(percent.body.data.every((a: { name: string }) => a.name.includes('%'))).toBe(true);
    expect((await post('/account/list', { filters: { text: '_' } })).body.total).toBe(0);
  });

  it('answers 400 naming the field and 401 without a token', async () => {
    const bad = await post('/account/list', { filters: { type: 9 } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['filters.type']);
    expect((await post('/account/list', { filter: {} })).body.fields).toEqual({ filter: 'this key cannot be included' });
    expect((await anonymous().post('/api/accounting/account/list', {})).status).toBe(401);
  });
});

describe('POST /api/accounting/account/insert, detail, update, delete', () => {
  it('creates an account with the type defaulted by first digit, reads, changes and deletes it', async () => {
    const created = await post('/account/insert', { data: { number: '3410', name: 'Beratung', currency: 'CHF' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ number: '3410', name: 'Beratung', type: { id: AccountType.revenue }, functionType: null, balance: '0.00', hasPostings: false });
    for (const [number, type] of [['1090', AccountType.assets], ['2090', AccountType.liability], ['7010', AccountType.expenses]] as const) {
      expect((await post('/account/insert', { data: { number, name: `n${number}`, currency: 'EUR' } })).body.type).toEqual({ id: type });
    }
    const numeric = await post('/account/insert', { data: { number: '10200', name: 'Sub bank', currency: 'CHF', type: 1, functionType: 1 } });
    expect(numeric.body).toMatchObject({ number: '10200', functionType: { id: 1 } });

    const detail = await post('/account/detail', { id: created.body.id });
    expect(detail.body).toEqual(created.body);

    const updated = await post('/account/update', { id: created.body.id, data: { name: 'Beratungserlöse', functionType: 3 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, number: '3410', name: 'Beratungserlöse', functionType: { id: 3 } });
    const cleared = await post('/account/update', { id: created.body.id, data: { functionType: null, number: '3420' } });
    expect(cleared.body).toMatchObject({ number: '3420', functionType: null, name: 'Beratungserlöse' });

    const deleted = await post('/account/delete', { id: created.body.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await post('/account/detail', { id: created.body.id })).status).toBe(404);
  });

  it('answers 409 for a number in use, naming the field, and writes nothing', async () => {
    const before = await ledgerCounts(server, wp.instanceId);
    const taken = await post('/account/insert', { data: { number: '1020', name: 'Bank', currency: 'CHF' } });
    expect(taken.status).toBe(409);
    expect(taken.body.fields).toEqual({ 'data.number': 'ledger account number 1020 already exists' });
    const kasse = await wp.account('1000');
    const renumber = await post('/account/update', { id: kasse, data: { number: '1020' } });
    expect(renumber.status).toBe(409);
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });

  it.each([
    [{ data: { number: '12', name: 'x', currency: 'CHF' } }, 'data.number', 'account number must have 4 to 10 digits'],
    [{ data: { number: 1234, name: 'x', currency: 'CHF' } }, 'data.number', expect.stringMatching(/expected.*string/)],
    [{ data: { number: '1234', name: ' ', currency: 'CHF' } }, 'data.name', 'This field must be given'],
    [{ data: { number: '1234', name: 'x', currency: 'XYZ' } }, 'data.currency', 'currency unknown'],
    [{ data: { number: '1234', name: 'x', currency: 'CHF', type: 6 } }, 'data.type', 'account type unknown'],
    [{ data: { number: '1234', name: 'x', currency: 'CHF', functionType: 0 } }, 'data.functionType', 'function type unknown'],
    [{ data: { number: '1234', name: 'x', currency: 'CHF', colour: 'red' } }, 'data.colour', 'this key cannot be included'],
    [{ data: { number: '1234', name: 'x'.repeat(201), currency: 'CHF' } }, 'data.name', 'name must have at most 200 characters'],
    [{ data: { number: '1234', name: 'x' } }, 'data.currency', expect.any(String)],
  ])('account/insert %j answers 400 on %s and writes nothing', async (body, field, message) => {
    const before = await ledgerCounts(server, wp.instanceId);
    const response = await post('/account/insert', body);
    expect(response.status).toBe(400);
    expect(response.body.fields[field]).toEqual(message);
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });

  it('answers 400 for bad update data, 404 for unknown ids, 401 without a token', async () => {
    const kasse = await wp.account('1000');
    expect((await post('/account/update', { id: kasse, data: { name: '' } })).body.fields['data.name']).toBe('This field must be given');
    expect((await post('/account/update', { id: kasse, data: { hasPostings: true } })).body.fields['data.hasPostings']).toBe('this key cannot be included');
    expect((await post('/account/detail', { id: 0 })).body.fields.id).toBe('id must be greater than 0');
    expect((await post('/account/detail', { id: 1.5 })).body.fields.id).toBe('must be an integer');
    for (const path of ['/account/detail', '/account/delete']) expect((await post(path, { id: 777_777 })).status).toBe(404);
    expect((await post('/account/update', { id: 777_777, data: { name: 'x' } })).status).toBe(404);
    for (const path of ['/account/detail', '/account/delete', '/account/insert', '/account/update']) {
      expect((await anonymous().post(`/api/accounting${path}`, { id: kasse })).status).toBe(401);
    }
  });

  it('refuses to delete an account with postings (409 naming the number) and deletes nothing', async () => {
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    await post('/entry/insert', simpleEntry('2024-01-05', bank, revenue, '10.00'));
    const detail = await post('/account/detail', { id: bank });
    expect(detail.body).toMatchObject({ balance: '10.00', hasPostings: true });
    const before = await ledgerCounts(server, wp.instanceId);
    const refused = await post('/account/delete', { id: bank });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ledger account 1020 Postfinance oder Bank1 has postings and cannot be deleted');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });
});

describe('GET /api/accounting/account/dashboard', () => {
  it("answers the 12 month-ends of the year and the accounts non-zero at the year's end, the balance the card shows", async () => {
    const dash = await ledgerWorkplace(server);
    const [bank, revenue, cash] = [await dash.account('1020'), await dash.account('3200'), await dash.account('1000')];
    await dash.api.post('/api/accounting/entry/insert', simpleEntry('2023-12-31', bank, revenue, '100.00'));
    await dash.api.post('/api/accounting/entry/insert', simpleEntry('2024-03-15', bank, revenue, '50.00'));
    // Cash is 5.00 at the end of March and back to zero in April: zero at the year's end, so no card
    // (spec §2.4: cards of accounts with a non-zero balance).
    await dash.api.post('/api/accounting/entry/insert', simpleEntry('2024-03-10', cash, revenue, '5.00'));
    await dash.api.post('/api/accounting/entry/insert', simpleEntry('2024-04-20', revenue, cash, '5.00'));
    const response = await dash.api.get('/api/accounting/account/dashboard?year=2024');
    expect(response.status).toBe(200);
    expect(response.body.year).toBe(2024);
    expect(response.body.endDates).toEqual([
      '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31', '2024-06-30',
      '2024-07-31', '2024-08-31', '2024-09-30', '2024-10-31', '2024-11-30', '2024-12-31',
    ]);
    expect(response.body.accounts.map((a: { number: string }) => a.number)).toEqual(['1020', '3200']);
    expect(response.body.accounts[0]).toMatchObject({ id: bank, currency: 'CHF' });
    expect(response.body.accounts[0].balances).toEqual(['100.00', '100.00', ...Array(10).fill('150.00')]);
    expect((await dash.api.get('/api/accounting/account/dashboard?year=2022')).body.accounts).toEqual([]);
    expect((await dash.api.get('/api/accounting/account/dashboard')).status).toBe(200);
    const bad = await dash.api.get('/api/accounting/account/dashboard?year=abc');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['year']);
    expect((await dash.api.get('/api/accounting/account/dashboard?year=1899')).status).toBe(400);
    expect((await anonymous().get('/api/accounting/account/dashboard?year=2024')).status).toBe(401);
    expect(response.body.label).toBe('2024');

    // A July–June fiscal year (issue 12 §3): year 2023 is 2023/24, its month-ends July to June.
    expect((await dash.api.post('/api/accounting/settings/update', { fiscalYearStartMonth: 7 })).status).toBe(200);
    const fiscal = await dash.api.get('/api/accounting/account/dashboard?year=2023');
    expect(fiscal.body).toMatchObject({ year: 2023, label: '2023/24' });
    expect(fiscal.body.endDates).toEqual([
      '2023-07-31', '2023-08-31', '2023-09-30', '2023-10-31', '2023-11-30', '2023-12-31',
      '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31', '2024-06-30',
    ]);
    expect(fiscal.body.accounts.map((a: { number: string }) => a.number)).toEqual(['1020', '3200']);
    expect(fiscal.body.accounts[0].balances).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00', '100.00', '100.00', '100.00', '150.00', '150.00', '150.00', '150.00']);
    // Without a year: the fiscal year that contains today.
    const current = await dash.api.get('/api/accounting/account/dashboard');
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Zurich' });
    const startYear = Number(today.slice(0, 4)) - (Number(today.slice(5, 7)) >= 7 ? 0 : 1);
    expect(current.body).toMatchObject({ year: startYear, label: `${startYear}/${String(startYear + 1).slice(-2)}`, endDates: expect.arrayContaining([`${startYear}-07-31`]) });
  });
});

describe('account groups', () => {
  it('inserts a group, refuses a taken number (409) and bad input (400), 401 without a token', async () => {
    const created = await post('/group/insert', { data: { number: '999', name: 'Test group' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ number: '999', name: 'Test group' });
    const list = await wp.api.get('/api/accounting/group/list');
    expect(list.body.data).toContainEqual(created.body);
    const before = await ledgerCounts(server, wp.instanceId);
    expect((await post('/group/insert', { data: { number: '999', name: 'Again' } })).status).toBe(409);
    const bad = await post('/group/insert', { data: { number: '1000', name: 'Too long' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields['data.number']).toBe('group number must have 1 to 3 digits');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await anonymous().get('/api/accounting/group/list')).status).toBe(401);
    expect((await anonymous().post('/api/accounting/group/insert', { data: { number: '1', name: 'x' } })).status).toBe(401);
  });
});
