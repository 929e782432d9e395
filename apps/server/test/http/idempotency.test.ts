/**
 * `Idempotency-Key` on write POSTs (issue #11 §1, decision 013), over real HTTP on both engines:
 * a repeat replays the stored answer and books once; another request under the same key is 422;
 * keys are per instance; expired keys run again; parallel repeats run once (PostgreSQL).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, engine, startTestServer, type ApiResponse, type TestServer } from '../helpers.js';
import { requestFingerprint } from '../../src/http/idempotency.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from '../accounting/ledger.js';
import { invoiceData, invoicingWorkplace, memberClient } from '../invoicing/support.js';

let server: TestServer;
let wp: LedgerWorkplace;
let bank: number;
let revenue: number;

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
  bank = await wp.account('1020');
  revenue = await wp.account('3200');
});
afterAll(async () => server?.close());

const withKey = (client: Client, path: string, body: unknown, key: string) => client.request('POST', path, body, { 'idempotency-key': key });
const insertEntry = (key: string, amount = '10.00', client: Client = wp.api) =>
  withKey(client, '/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, revenue, amount, `idempotency ${amount}`), key);
/** Journal entries of an instance whose description starts with `idempotency`. */
const entries = async (instanceId: string = wp.instanceId) => {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entry WHERE description LIKE 'idempotency%'`),
  );
  return row!.n;
};
const storedKeys = (instanceId: string, key: string) =>
  server.db.asOwner((tx) =>
    tx.query<{ status_code: number | null; user_id: string }>('SELECT status_code, user_id FROM idempotency_key WHERE instance_id = $1 AND key = $2', [instanceId, key]),
  );
const expectReplayOf = (repeat: ApiResponse, first: ApiResponse) => {
  expect(repeat.status).toBe(first.status);
  expect(repeat.body).toEqual(first.body);
  expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
};

describe('Idempotency-Key', () => {
  it('replays the first answer for a repeat with the same body and books once', async () => {
    const before = await entries();
    const key = randomUUID();
    const first = await insertEntry(key, '11.00');
    expect(first.status).toBe(200);
    const repeat = await insertEntry(key, '11.00');
    expectReplayOf(repeat, first);
    expect(await entries()).toBe(before + 1);
    expect(await storedKeys(wp.instanceId, key)).toEqual([{ status_code: 200, user_id: wp.userId }]);
  });

  it('compares bodies whatever their key order', async () => {
    const key = randomUUID();
    const body = simpleEntry('2025-02-03', bank, revenue, '12.00', 'idempotency order');
    const first = await withKey(wp.api, '/api/accounting/entry/insert', body, key);
    const reordered = { data: Object.fromEntries(Object.entries(body.data).reverse()) };
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    expectReplayOf(await withKey(wp.api, '/api/accounting/entry/insert', reordered, key), first);
  });

  it('marks an invoice paid once for two calls with one key', async () => {
    const w = await invoicingWorkplace(server);
    const created = (await w.api.post('/api/invoice/insert', { data: invoiceData(w) })).body;
    expect((await w.api.post('/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-01' })).status).toBe(200);
    const key = randomUUID();
    const paid = { uuid: created.uuid, status: 3, ledgerDate: '2025-03-20' };
    const first = await withKey(w.api, '/api/invoice/status/change', paid, key);
    expect(first.status).toBe(200);
    expectReplayOf(await withKey(w.api, '/api/invoice/status/change', paid, key), first);
    const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entry`));
    // Sent and paid: two entries, not three.
    expect(row!.n).toBe(2);
  });

  it('answers 422 naming the header for the same key with another body, route or user, and books nothing', async () => {
    const key = randomUUID();
    expect((await insertEntry(key, '13.00')).status).toBe(200);
    const before = await entries();
    const otherBody = await insertEntry(key, '14.00');
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual({ error: expect.stringMatching(/Idempotency-Key/), fields: { 'Idempotency-Key': expect.any(String) }, code: 'idempotency_key_reused' });
    const otherRoute = await withKey(wp.api, '/api/accounting/account/insert', { data: { number: '9980', name: 'Idempotency', currency: 'CHF' } }, key);
    expect(otherRoute.status).toBe(422);
    expect(otherRoute.body.code).toBe('idempotency_key_reused');
    const accountant = await memberClient(server, wp, 'accountant');
    const otherUser = await insertEntry(key, '13.00', accountant);
    expect(otherUser.status).toBe(422);
    expect(await entries()).toBe(before);
  });

  it('keeps keys per instance', async () => {
    const other = await ledgerWorkplace(server);
    const key = randomUUID();
    expect((await insertEntry(key, '15.00')).status).toBe(200);
    const elsewhere = await withKey(
      other.api,
      '/api/accounting/entry/insert',
      simpleEntry('2025-02-03', await other.account('1020'), await other.account('3200'), '15.00', 'idempotency 15.00'),
      key,
    );
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    expect(await entries(other.instanceId)).toBe(1);
    // Each instance replays its own answer.
    const repeat = await withKey(other.api, '/api/accounting/entry/insert', simpleEntry('2025-02-03', await other.account('1020'), await other.account('3200'), '15.00', 'idempotency 15.00'), key);
    expectReplayOf(repeat, elsewhere);
    expect(await entries(other.instanceId)).toBe(1);
  });

  it('runs a key again once its answer is older than 24 hours, and sweeps other expired keys', async () => {
    const key = randomUUID();
    const stale = randomUUID();
    expect((await insertEntry(key, '16.00')).status).toBe(200);
    expect((await insertEntry(stale, '17.00')).status).toBe(200);
    const before = await entries();
    await server.db.asOwner((tx) =>
      tx.query(`UPDATE idempotency_key SET created_at = created_at - interval '25 hours' WHERE instance_id = $1 AND key IN ($2, $3)`, [wp.instanceId, key, stale]),
    );
    const again = await insertEntry(key, '16.00');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await entries()).toBe(before + 1);
    // The new claim was marked by its own write, not left with the old one's mark.
    const [mark] = await server.db.asOwner((tx) =>
      tx.query<{ fresh: boolean }>('SELECT committed_at >= created_at AS fresh FROM idempotency_key WHERE instance_id = $1 AND key = $2', [wp.instanceId, key]),
    );
    expect(mark!.fresh).toBe(true);
    // Within 24 hours of the new answer it is replayed again.
    expectReplayOf(await insertEntry(key, '16.00'), again);
    expect(await storedKeys(wp.instanceId, stale)).toEqual([]);
  });

  it('marks the claim in the write\'s own transaction, and never runs a booked key again when its answer was lost', async () => {
    const key = randomUUID();
    expect((await insertEntry(key, '19.00')).status).toBe(200);
    const [marked] = await server.db.asOwner((tx) =>
      tx.query<{ committed: boolean }>('SELECT committed_at IS NOT NULL AS committed FROM idempotency_key WHERE instance_id = $1 AND key = $2', [wp.instanceId, key]),
    );
    expect(marked!.committed).toBe(true);
    const before = await entries();
    // What a server that died between the entry's COMMIT and storing the answer leaves behind.
    await server.db.asOwner((tx) =>
      tx.query('UPDATE idempotency_key SET status_code = NULL, response_body = NULL WHERE instance_id = $1 AND key = $2', [wp.instanceId, key]),
    );
    const pending = await insertEntry(key, '19.00');
    expect(pending.status).toBe(409);
    expect(pending.body.code).toBe('idempotency_in_progress');
    // Long past the minute an answer takes, and past the 10 minutes that abandon an unbooked claim.
    await server.db.asOwner((tx) =>
      tx.query(
        `UPDATE idempotency_key SET created_at = created_at - interval '11 minutes', committed_at = committed_at - interval '11 minutes'
          WHERE instance_id = $1 AND key = $2`,
        [wp.instanceId, key],
      ),
    );
    const lost = await insertEntry(key, '19.00');
    expect(lost.status).toBe(409);
    expect(lost.body.code).toBe('idempotency_answer_lost');
    expect(lost.body.error).toMatch(/carried out/);
    expect(await entries()).toBe(before);
  });

  it('runs a key again once its claim is abandoned without a booked write (10 minutes)', async () => {
    const key = randomUUID();
    const before = await entries();
    const body = simpleEntry('2025-02-03', bank, revenue, '19.50', 'idempotency 19.50');
    // What a server that died before its write committed leaves behind: a claim, nothing booked.
    await server.db.asOwner((tx) =>
      tx.query('INSERT INTO idempotency_key (instance_id, key, user_id, fingerprint) VALUES ($1, $2, $3, $4)', [
        wp.instanceId,
        key,
        wp.userId,
        requestFingerprint('POST', '/api/accounting/entry/insert', body),
      ]),
    );
    expect((await insertEntry(key, '19.50')).body.code).toBe('idempotency_in_progress');
    await server.db.asOwner((tx) =>
      tx.query(`UPDATE idempotency_key SET created_at = created_at - interval '11 minutes' WHERE instance_id = $1 AND key = $2`, [wp.instanceId, key]),
    );
    const again = await insertEntry(key, '19.50');
    expect(again.status).toBe(200);
    expect(await entries()).toBe(before + 1);
    expectReplayOf(await insertEntry(key, '19.50'), again);
  });

  it('leaves the claim unmarked when the handler\'s transaction rolls back', async () => {
    const key = randomUUID();
    const refused = await withKey(wp.api, '/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, 99_999_999, '19.75', 'idempotency 19.75'), key);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const marks = await server.db.asOwner((tx) =>
      tx.query<{ status_code: number; committed: boolean }>(
        'SELECT status_code, committed_at IS NOT NULL AS committed FROM idempotency_key WHERE instance_id = $1 AND key = $2',
        [wp.instanceId, key],
      ),
    );
    expect(marks).toEqual([{ status_code: refused.status, committed: false }]);
  });

  it('replays a refusal of the handler as stored, but claims nothing for a body refused by validation', async () => {
    const key = randomUUID();
    // Schema-valid, refused by the service: the account does not exist.
    const refused = await withKey(wp.api, '/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, 99_999_999, '18.00', 'idempotency 18.00'), key);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expectReplayOf(await withKey(wp.api, '/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, 99_999_999, '18.00', 'idempotency 18.00'), key), refused);
    expect(await storedKeys(wp.instanceId, key)).toEqual([{ status_code: refused.status, user_id: wp.userId }]);

    const invalidKey = randomUUID();
    const invalid = await withKey(wp.api, '/api/accounting/entry/insert', { data: { dateLedger: 'soon' } }, invalidKey);
    expect(invalid.status).toBe(400);
    expect(await storedKeys(wp.instanceId, invalidKey)).toEqual([]);
    expect((await insertEntry(invalidKey, '19.00')).status).toBe(200);
  });

  it('refuses a key that is not 1–255 printable ASCII characters with 400 naming the header', async () => {
    const before = await entries();
    for (const key of ['', 'x'.repeat(256), 'tab\tinside']) {
      const response = await insertEntry(key, '20.00');
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(Object.keys(response.body.fields)).toEqual(['Idempotency-Key']);
    }
    expect(await entries()).toBe(before);
    expect((await insertEntry('x'.repeat(255), '20.00')).status).toBe(200);
  });

  it('changes nothing without the header, on reads and for answers that are not JSON', async () => {
    const before = await entries();
    expect((await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, revenue, '21.00', 'idempotency 21.00'))).status).toBe(200);
    expect((await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-02-03', bank, revenue, '21.00', 'idempotency 21.00'))).status).toBe(200);
    expect(await entries()).toBe(before + 2);

    const readKey = randomUUID();
    const read = await withKey(wp.api, '/api/accounting/account/list', {}, readKey);
    expect(read.status).toBe(200);
    expect(read.headers.get('idempotent-replayed')).toBeNull();
    expect(await storedKeys(wp.instanceId, readKey)).toEqual([]);

    // The pain.001 file is XML: not stored, the claim released, a repeat runs again.
    const xmlKey = randomUUID();
    const pain001 = {
      uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d',
      executionDate: '2025-12-01',
      creditors: [{ name: 'Beispiel AG', iban: 'CH5800791123000889012', bic: '', reference: 'RF18539007547034', amount: '100' }],
      debtor: { bic: 'UBSWCHZH80A', iban: 'CH9300762011623852957', name: 'Muster AG' },
    };
    for (let i = 0; i < 2; i += 1) {
      const xml = await withKey(wp.api, '/api/banking/pain001', pain001, xmlKey);
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toMatch(/xml/);
      expect(xml.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await storedKeys(wp.instanceId, xmlKey)).toEqual([]);
  });

  it('documents the header on every write POST of the OpenAPI document, and only there', async () => {
    const doc = (await new Client(server.baseUrl).get('/api/docs/json')).body as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>>;
    };
    const hasHeader = (path: string, method = 'post') => (doc.paths[path]?.[method]?.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && !p.required);
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).filter((method) => hasHeader(path, method)).map((method) => `${method} ${path}`));
    const writes = server.app.guardedRoutes
      .filter((route) => route.method === 'POST' && route.url.startsWith('/api/') && (route.access === 'write' || route.access === 'admin'))
      .map((route) => `post ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(writes.length).toBeGreaterThan(40);
    expect(documented.sort()).toEqual([...new Set(writes)].sort());
    expect(hasHeader('/api/accounting/entry/insert')).toBe(true);
    expect(hasHeader('/api/accounting/entry/list')).toBe(false);
  });
});

describe.runIf(engine === 'postgres')('Idempotency-Key under concurrency (PostgreSQL)', () => {
  it('books nothing for 20 parallel retries of a booked key whose answer was lost: each is told so', async () => {
    const key = randomUUID();
    expect((await insertEntry(key, '23.00')).status).toBe(200);
    const before = await entries();
    // The server died after the COMMIT of the entry and before storing its answer, 11 minutes ago.
    await server.db.asOwner((tx) =>
      tx.query(
        `UPDATE idempotency_key SET status_code = NULL, response_body = NULL, created_at = created_at - interval '11 minutes',
                committed_at = committed_at - interval '11 minutes' WHERE instance_id = $1 AND key = $2`,
        [wp.instanceId, key],
      ),
    );
    const responses = await Promise.all(Array.from({ length: 20 }, () => insertEntry(key, '23.00')));
    expect(responses.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array.from({ length: 20 }, () => '409 idempotency_answer_lost'));
    expect(await entries()).toBe(before);
  });

  it('runs 20 parallel requests with one key once: the others replay or answer 409 in progress, none 5xx', async () => {
    const before = await entries();
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => insertEntry(key, '22.00')));
    expect(responses.filter((r) => r.status >= 500)).toEqual([]);
    const fresh = responses.filter((r) => r.status === 200 && !r.headers.get('idempotent-replayed'));
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response === fresh[0]) continue;
      if (response.status === 409) expect(response.body, JSON.stringify(response.body)).toMatchObject({ code: 'idempotency_in_progress' });
      else expectReplayOf(response, fresh[0]!);
    }
    expect(await entries()).toBe(before + 1);
  });
});
