/**
 * Security rules as tests (STYLE.md #12): every accounting endpoint refuses a missing or bad token,
 * and ids of another instance are 404 (row-level security plus explicit instance filters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

const ENDPOINTS: [method: 'GET' | 'POST', path: string][] = [
  ['POST', 'account/list'],
  ['POST', 'account/detail'],
  ['POST', 'account/insert'],
  ['POST', 'account/update'],
  ['POST', 'account/delete'],
  ['GET', 'account/dashboard'],
  ['POST', 'entry/insert'],
  ['POST', 'entry/update'],
  ['POST', 'entry/detail'],
  ['POST', 'entry/delete'],
  ['POST', 'entry/list'],
  ['POST', 'entry/account/list'],
  ['POST', 'entry/account/update'],
  ['POST', 'entry/merge'],
  ['POST', 'balance/get'],
  ['POST', 'balance/get/multi'],
  ['POST', 'balance/snapshot'],
  ['GET', 'balance/check'],
  ['POST', 'balance/check'],
  ['GET', 'group/list'],
  ['POST', 'group/insert'],
  ['POST', 'import/chart'],
  ['POST', 'import/journal'],
];

let server: TestServer;
let owner: LedgerWorkplace;
let stranger: LedgerWorkplace;
let ownAccountId: number;
let ownEntries: { id: number; entryAccounts: { id: number }[] }[];

beforeAll(async () => {
  server = await startTestServer();
  owner = await ledgerWorkplace(server);
  stranger = await ledgerWorkplace(server);
  // An account id beyond the seeded chart exists in the owner's instance only.
  const created = await owner.api.post('/api/accounting/account/insert', { data: { number: '1099', name: 'Owner only', currency: 'CHF' } });
  ownAccountId = created.body.id;
  const revenue = await owner.account('3200');
  ownEntries = [];
  for (const day of ['01', '01']) {
    ownEntries.push((await owner.api.post('/api/accounting/entry/insert', simpleEntry(`2024-06-${day}`, ownAccountId, revenue, '25.00'))).body);
  }
});
afterAll(async () => server?.close());

describe('authentication', () => {
  it.each(ENDPOINTS)('%s /api/accounting/%s answers 401 without a token and with a bad one', async (method, path) => {
    const url = `/api/accounting/${path}`;
    const anonymous = new Client(server.baseUrl);
    const forged = anonymous.withToken('not.a.jwt');
    for (const client of [anonymous, forged]) {
      const response = method === 'GET' ? await client.get(url) : await client.post(url, {});
      expect(response.status).toBe(401);
      expect(response.body.error).toBeTruthy();
    }
  });

  it('documents every endpoint in the OpenAPI document under the accounting tag', async () => {
    const response = await new Client(server.baseUrl).get('/api/docs/json');
    expect(response.status).toBe(200);
    for (const [method, path] of ENDPOINTS) {
      const operation = response.body.paths[`/api/accounting/${path}`]?.[method.toLowerCase()];
      expect({ path, tags: operation?.tags, hasDescription: Boolean(operation?.description) }).toEqual({ path, tags: ['accounting'], hasDescription: true });
    }
  });
});

describe("another instance's ids are 404", () => {
  it('for ledger accounts', async () => {
    const call = (path: string, body: unknown) => stranger.api.post(`/api/accounting/${path}`, body);
    expect((await call('account/detail', { id: ownAccountId })).status).toBe(404);
    expect((await call('account/update', { id: ownAccountId, data: { name: 'taken over' } })).status).toBe(404);
    expect((await call('account/delete', { id: ownAccountId })).status).toBe(404);
    expect((await call('entry/account/list', { filters: { accountId: ownAccountId } })).status).toBe(404);
    const snapshot = await call('balance/snapshot', { date: '2024-12-31', accounts: [ownAccountId] });
    expect(snapshot.status).toBe(400);
    expect(snapshot.body.fields).toEqual({ 'accounts.0': `ledger account ${ownAccountId} not found` });
    expect((await call('balance/snapshot', { date: '2024-12-31' })).body).toEqual({ data: [] });
    expect((await call('analytics/revenue-by-account', { year: 2024 })).body).toMatchObject({ total: '0.00', rows: [] });
    const posting = await call('entry/insert', simpleEntry('2024-06-02', ownAccountId, await stranger.account('3200'), '1.00'));
    expect(posting.status).toBe(400);
    expect(posting.body.fields['data.entryAccounts.0.account.id']).toBe(`ledger account ${ownAccountId} not found`);
  });

  it('for journal entries and postings, and nothing of the owner changes', async () => {
    const before = await ledgerCounts(server, owner.instanceId);
    const call = (path: string, body: unknown) => stranger.api.post(`/api/accounting/${path}`, body);
    const [first, second] = ownEntries as [(typeof ownEntries)[0], (typeof ownEntries)[0]];
    const [bank, revenue] = [await stranger.account('1020'), await stranger.account('3200')];
    expect((await call('entry/detail', { id: first.id })).status).toBe(404);
    expect((await call('entry/update', { id: first.id, ...simpleEntry('2024-06-01', bank, revenue, '1.00') })).status).toBe(404);
    expect((await call('entry/delete', { id: first.id })).status).toBe(404);
    expect((await call('entry/merge', { entry1: first.id, entry2: second.id })).status).toBe(404);
    expect((await call('entry/account/update', { id: first.entryAccounts[0]!.id, data: { description: 'x' } })).status).toBe(404);
    const list = await call('entry/list', {});
    expect(list.body).toMatchObject({ data: [], total: 0, totalCapped: false });
    const trial = await call('balance/get', { date: '2024-12-31' });
    expect(trial.body.accounts).toEqual([]);
    expect(await ledgerCounts(server, owner.instanceId)).toEqual(before);
    expect((await owner.api.post('/api/accounting/entry/detail', { id: first.id })).body).toEqual({ ...first, document: null });
  });
});
