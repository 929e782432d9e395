/** Accounting locks over HTTP (spec §2.2 `/accounting/lock`, §7.1 "Locks"; issue 12 §1), on both engines. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function audits(wp: LedgerWorkplace, event: string) {
  return server.db.withInstance(wp.instanceId, (tx) =>
    tx.query<{ user_id: string; instance_id: string; detail: any }>(
      'SELECT user_id, instance_id, detail FROM audit_event WHERE event = $1 AND instance_id = $2 ORDER BY id',
      [event, wp.instanceId],
    ),
  );
}

describe('lock/insert, lock/list, lock/delete', () => {
  let wp: LedgerWorkplace;
  let bank: number;
  let revenue: number;
  const call = (path: string, body?: unknown) => (body === undefined ? wp.api.get(`/api/accounting${path}`) : wp.api.post(`/api/accounting${path}`, body));

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    [bank, revenue] = await Promise.all([wp.account('1020'), wp.account('3200')]);
  });

  it('locks by date, refuses postings on or before it naming the lock date, accepts after it, and reopens on delete', async () => {
    const created = await call('/lock/insert', { date: '2024-03-31' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ lockDate: '2024-03-31', endEntry: null, createdBy: { id: wp.userId } });
    expect(Date.parse(created.body.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const before = await ledgerCounts(server, wp.instanceId);
    const onLock = await call('/entry/insert', simpleEntry('2024-03-31', bank, revenue, '1.00'));
    expect(onLock.status).toBe(409);
    expect(onLock.body.fields['data.dateLedger']).toBe('the date 2024-03-31 is on or before the lock date 2024-03-31');
    expect((await call('/entry/insert', simpleEntry('2024-01-15', bank, revenue, '1.00'))).status).toBe(409);
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await call('/entry/insert', simpleEntry('2024-04-01', bank, revenue, '1.00'))).status).toBe(200);

    const deleted = await call('/lock/delete', { uuid: created.body.uuid });
    expect(deleted.status).toBe(200);
    expect(deleted.body.uuid).toBe(created.body.uuid);
    expect((await call('/entry/insert', simpleEntry('2024-03-31', bank, revenue, '1.00'))).status).toBe(200);
    expect((await call('/lock/list')).body.locks).toEqual([]);
    expect((await call('/lock/delete', { uuid: created.body.uuid })).status).toBe(404);

    const [createdAudit] = await audits(wp, 'accounting_lock.created');
    const [deletedAudit] = await audits(wp, 'accounting_lock.deleted');
    expect(createdAudit).toMatchObject({ user_id: wp.userId, detail: { lock: { uuid: created.body.uuid, lockDate: '2024-03-31' } } });
    expect(deletedAudit).toMatchObject({ user_id: wp.userId, detail: { lock: { uuid: created.body.uuid, lockDate: '2024-03-31' } } });
  });

  it('locks up to the ledger date of an end entry and lists the latest lock date first', async () => {
    const entry = await call('/entry/insert', simpleEntry('2023-06-30', bank, revenue, '5.00'));
    const byEntry = await call('/lock/insert', { endEntry: { id: entry.body.id } });
    expect(byEntry.status, JSON.stringify(byEntry.body)).toBe(200);
    expect(byEntry.body).toMatchObject({ lockDate: '2023-06-30', endEntry: { id: entry.body.id } });
    const byDate = await call('/lock/insert', { date: '2023-12-31' });
    expect(byDate.status).toBe(200);
    const older = await call('/lock/insert', { date: '2022-12-31' });
    expect(older.status).toBe(200);

    const list = await call('/lock/list');
    expect(list.status).toBe(200);
    expect(list.body.locks.map((lock: { lockDate: string }) => lock.lockDate)).toEqual(['2023-12-31', '2023-06-30', '2022-12-31']);
    expect(list.body.locks[1]).toEqual(byEntry.body);

    // The latest lock is in force: deleting it re-opens only down to the next one.
    await call('/lock/delete', { uuid: byDate.body.uuid });
    expect((await call('/entry/insert', simpleEntry('2023-07-01', bank, revenue, '1.00'))).status).toBe(200);
    expect((await call('/entry/insert', simpleEntry('2023-06-30', bank, revenue, '1.00'))).status).toBe(409);
    for (const lock of [byEntry, older]) expect((await call('/lock/delete', { uuid: lock.body.uuid })).status).toBe(200);
  });

  it('answers 409 already_done for a second lock with the same date and keeps one', async () => {
    const first = await call('/lock/insert', { date: '2021-12-31' });
    const again = await call('/lock/insert', { date: '2021-12-31' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_done');
    expect((await call('/lock/list')).body.locks).toEqual([first.body]);
    expect(await audits(wp, 'accounting_lock.created')).toHaveLength(5);
    await call('/lock/delete', { uuid: first.body.uuid });
  });

  it('names the field of a bad request (400) and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'date'],
      [{ date: '2024-01-31', endEntry: { id: 1 } }, 'endEntry'],
      [{ endEntry: { id: 999_999 } }, 'endEntry.id'],
      [{ date: '2024-02-30' }, 'date'],
      [{ date: 'yesterday' }, 'date'],
      [{ endEntry: {} }, 'endEntry.id'],
    ];
    for (const [body, field] of cases) {
      const response = await call('/lock/insert', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.fields), JSON.stringify(response.body)).toContain(field);
    }
    expect((await call('/lock/delete', { uuid: 'not-a-uuid' })).body.fields).toHaveProperty('uuid');
    expect((await call('/lock/list')).body.locks).toEqual([]);
  });

  it("keeps instances apart: another instance's lock is neither listed nor deletable", async () => {
    const other = await ledgerWorkplace(server);
    const theirs = await other.api.post('/api/accounting/lock/insert', { date: '2024-06-30' });
    expect(theirs.status).toBe(200);
    expect((await call('/lock/list')).body.locks).toEqual([]);
    expect((await call('/lock/delete', { uuid: theirs.body.uuid })).status).toBe(404);
    expect((await other.api.get('/api/accounting/lock/list')).body.locks).toHaveLength(1);
  });
});

describe('roles', () => {
  it('lets owner and admin lock and refuses accountant (the writer role) and viewer (403); every role reads the locks', async () => {
    for (const role of ['admin', 'owner'] as const) {
      const wp = await ledgerWorkplace(server, { role });
      const created = await wp.api.post('/api/accounting/lock/insert', { date: '2024-01-31' });
      expect(created.status, role).toBe(200);
      expect((await wp.api.get('/api/accounting/lock/list')).status).toBe(200);
      expect((await wp.api.post('/api/accounting/lock/delete', { uuid: created.body.uuid })).status).toBe(200);
    }
    for (const role of ['viewer', 'accountant'] as const) {
      const wp = await ledgerWorkplace(server, { role });
      expect((await wp.api.post('/api/accounting/lock/insert', { date: '2024-01-31' })).status, role).toBe(403);
      expect((await wp.api.get('/api/accounting/lock/list')).status, role).toBe(200);
      expect((await wp.api.post('/api/accounting/lock/delete', { uuid: '00000000-0000-4000-8000-000000000000' })).status, role).toBe(403);
      expect(await audits(wp, 'accounting_lock.created')).toEqual([]);
    }
  });
});

describe.runIf(engine === 'postgres')('parallel inserts', () => {
  it('leaves one lock for 20 identical parallel inserts; the others answer 409 already_done', async () => {
    const wp = await ledgerWorkplace(server);
    const answers = await Promise.all(Array.from({ length: 20 }, () => wp.api.post('/api/accounting/lock/insert', { date: '2024-12-31' })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const others = answers.filter((answer) => answer.status !== 200);
    expect(others.every((answer) => answer.status === 409 && answer.body.code === 'already_done')).toBe(true);
    expect((await wp.api.get('/api/accounting/lock/list')).body.locks).toHaveLength(1);
    expect(await audits(wp, 'accounting_lock.created')).toHaveLength(1);
  });
});
