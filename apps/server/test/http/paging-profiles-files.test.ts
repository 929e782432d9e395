/**
 * `POST /api/payment-profile/list` and `POST /api/file/list` paged in SQL (issue 18 §2, decision
 * 036): 50 rows by default, at most 500, a walk by `nextCursor` gives every row once in the list's
 * order (by id; newest file first, to the microsecond, ties by uuid), filters hold along the
 * cursor, a foreign cursor is a 400 on `cursor`, and another instance sees none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProfileType } from '@bilan/domain';
import { encodeCursor } from '../../src/db/paging.js';
import { createCompany } from '../../src/modules/companies/companies.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { walk } from './paging-support.js';
import { payablesWorkplace, type PayablesWorkplace } from '../payables/setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
let other: PayablesWorkplace;
/** A company with 60 payment profiles. */
let bank: string;

const IBAN = 'CH9300762011623852957';
const QR_IBAN = 'CH4431999123000889012';

beforeAll(async () => {
  server = await startTestServer();
  [wp, other] = await Promise.all([payablesWorkplace(server), payablesWorkplace(server)]);
  // 60 profiles on one company (20 archived; 15 with the QR-IBAN, 5 of them archived), 3 on the
  // workplace's own company beside its onboarding profile, 2 on the supplier of the set-up (one with
  // the QR-IBAN); and 5 files uploaded in one transaction (one upload time), 3 within one
  // millisecond, 55 a second apart.
  await server.db.withInstance(wp.instanceId, async (tx) => {
    bank = await createCompany(tx, wp.instanceId, { name: 'Many Accounts AG' });
    await tx.query(
      `INSERT INTO payment_profile (instance_id, id, company_uuid, type_id, iban, log_is_log)
       SELECT $1, next_ids($1, 'payment_profile'), $2, CASE WHEN n % 4 = 0 THEN 2 ELSE 1 END, CASE WHEN n % 4 = 0 THEN $4 ELSE $3 END, n % 3 = 0
         FROM generate_series(1, 60) n`,
      [wp.instanceId, bank, IBAN, QR_IBAN],
    );
    await tx.query(
      `INSERT INTO payment_profile (instance_id, id, company_uuid, type_id, iban)
       SELECT $1, next_ids($1, 'payment_profile'), $2, 1, $3 FROM generate_series(1, 3)`,
      [wp.instanceId, wp.companyUuid, IBAN],
    );
    await tx.query(
      `INSERT INTO inbox_file (instance_id, name, mime_type, size, content, created_at)
       SELECT $1, 'same-' || n || '.pdf', 'application/pdf', 4, '\\x25504446'::bytea, '2025-06-01 12:00:00+00' FROM generate_series(1, 5) n`,
      [wp.instanceId],
    );
    await tx.query(
      `INSERT INTO inbox_file (instance_id, name, mime_type, size, content, created_at)
       SELECT $1, 'micro-' || n || '.pdf', 'application/pdf', 4, '\\x25504446'::bytea, '2025-06-01 12:00:01.123+00'::timestamptz + n * interval '200 microseconds'
         FROM generate_series(1, 3) n`,
      [wp.instanceId],
    );
    await tx.query(
      `INSERT INTO inbox_file (instance_id, name, mime_type, size, content, created_at)
       SELECT $1, 'file-' || n || '.pdf', 'application/pdf', 4, '\\x25504446'::bytea, '2025-05-01 08:00:00+00'::timestamptz + n * interval '1 second'
         FROM generate_series(1, 55) n`,
      [wp.instanceId],
    );
  });
});
afterAll(async () => server?.close());

describe('POST /api/payment-profile/list', () => {
  it('answers 50 by default with the count, at most 500; the old body without paging still works', async () => {
    const archived = await wp.api.post('/api/payment-profile/list', { filters: { includeArchived: true } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ total: 66, totalCapped: false, nextCursor: expect.any(String) });
    expect(archived.body.data).toHaveLength(50);
    // Active: 40 of the bank's, the supplier's 2, the onboarding profile and 3 more of the own company.
    const active = await wp.api.post('/api/payment-profile/list', {});
    expect(active.body).toMatchObject({ total: 46, totalCapped: false, nextCursor: null });
    expect(active.body.data).toHaveLength(46);
    expect((await wp.api.post('/api/payment-profile/list')).body.total).toBe(46);
    const max = await wp.api.post('/api/payment-profile/list', { filters: { includeArchived: true }, pageSize: 500 });
    expect(max.body.data).toHaveLength(66);
    expect(max.body.nextCursor).toBeNull();
    const over = await wp.api.post('/api/payment-profile/list', { pageSize: 501 });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body.fields)).toEqual(['pageSize']);
  });

  it('walks by cursor through every profile once, by id, as the page numbers do', async () => {
    const all = (await wp.api.post('/api/payment-profile/list', { filters: { includeArchived: true }, pageSize: 500 })).body.data.map((p: { id: number }) => p.id);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const { rows, pages } = await walk(wp.api, '/api/payment-profile/list', { filters: { includeArchived: true } }, 7);
    expect(pages).toBe(10);
    expect(rows.map((p) => p.id)).toEqual(all);
    const third = await wp.api.post('/api/payment-profile/list', { filters: { includeArchived: true }, page: 3, pageSize: 7 });
    expect(third.body.data.map((p: { id: number }) => p.id)).toEqual(all.slice(14, 21));
  });

  it('keeps the company, type and IBAN filters along the cursor', async () => {
    const own = await walk(wp.api, '/api/payment-profile/list', { filters: { company: { uuid: wp.companyUuid } } }, 3);
    expect(own.rows).toHaveLength(4);
    expect(new Set(own.rows.map((p) => p.company.uuid))).toEqual(new Set([wp.companyUuid]));
    const many = await walk(wp.api, '/api/payment-profile/list', { filters: { company: { uuid: bank } } }, 6);
    expect(many.rows).toHaveLength(40);
    expect(many.rows.every((p) => p.company.uuid === bank && !p.logIsLog)).toBe(true);
    const qr = await walk(wp.api, '/api/payment-profile/list', { filters: { type: PaymentProfileType.QrBill, includeArchived: true } }, 4);
    expect(qr.rows).toHaveLength(16);
    // Spaces and case do not matter; only the profiles with that IBAN.
    const byIban = await wp.api.post('/api/payment-profile/list', { filters: { iban: 'ch44 3199 9123 0008 8901 2' } });
    expect(byIban.body.total).toBe(11);
    expect(byIban.body.data.every((p: { iban: string }) => p.iban === QR_IBAN)).toBe(true);
    const unknown = await wp.api.post('/api/payment-profile/list', { filters: { company: { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d' } } });
    expect(unknown.status).toBe(404);
  });

  it.each([['garbage'], [encodeCursor(['x'])], [encodeCursor([1, 2])], [encodeCursor(['2024-01-01T00:00:00.000000Z', '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'])]])(
    'refuses a cursor that is not one of its own: 400 on cursor (%#)',
    async (cursor) => {
      const answer = await wp.api.post('/api/payment-profile/list', { cursor });
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
    },
  );

  it("shows another instance none of the workplace's profiles, whatever the cursor", async () => {
    const mine = await wp.api.post('/api/payment-profile/list', { pageSize: 2 });
    const theirs = await other.api.post('/api/payment-profile/list', { pageSize: 500 });
    expect(theirs.status).toBe(200);
    const theirCompanies = new Set([other.companyUuid, other.supplier.uuid]);
    expect(theirs.body.total).toBe(3);
    expect(theirs.body.data.every((p: { company: { uuid: string } }) => theirCompanies.has(p.company.uuid))).toBe(true);
    const following = await other.api.post('/api/payment-profile/list', { cursor: mine.body.nextCursor });
    expect(following.status).toBe(200);
    expect(following.body.data.every((p: { company: { uuid: string } }) => theirCompanies.has(p.company.uuid))).toBe(true);
    expect((await other.api.post('/api/payment-profile/list', { filters: { company: { uuid: bank } } })).status).toBe(404);
  });
});

describe('POST /api/file/list', () => {
  it('answers 50 by default, newest first, at most 500', async () => {
    const first = await wp.api.post('/api/file/list', {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 63, totalCapped: false, nextCursor: expect.any(String) });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data.slice(0, 3).map((f: { name: string }) => f.name)).toEqual(['micro-3.pdf', 'micro-2.pdf', 'micro-1.pdf']);
    const all = await wp.api.post('/api/file/list', { pageSize: 500 });
    expect(all.body.data).toHaveLength(63);
    expect(all.body.nextCursor).toBeNull();
    const times = all.body.data.map((f: { createdAt: string }) => f.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const over = await wp.api.post('/api/file/list', { pageSize: 501 });
    expect(over.status).toBe(400);
    expect(Object.keys(over.body.fields)).toEqual(['pageSize']);
  });

  it.each([1, 2, 4, 50])('walks by cursor through every file once, in order, %i a page (same upload time, same millisecond)', async (pageSize) => {
    const all = (await wp.api.post('/api/file/list', { pageSize: 500 })).body.data.map((f: { uuid: string }) => f.uuid);
    const { rows, pages } = await walk(wp.api, '/api/file/list', {}, pageSize);
    expect(pages).toBe(Math.ceil(63 / pageSize));
    expect(rows.map((f) => f.uuid)).toEqual(all);
    const second = await wp.api.post('/api/file/list', { page: 2, pageSize });
    expect(second.body.data.map((f: { uuid: string }) => f.uuid)).toEqual(all.slice(pageSize, 2 * pageSize));
  });

  it('keeps its filters along the cursor and finds one file by uuid', async () => {
    const bill = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '45.90', description: 'Taxi' } });
    expect(bill.status, JSON.stringify(bill.body)).toBe(200);
    const files = (await wp.api.post('/api/file/list', { pageSize: 500 })).body.data;
    for (const file of files.slice(10, 13)) {
      expect((await wp.api.post('/api/file/update', { uuid: file.uuid, data: { payable: { id: bill.body.id } } })).status).toBe(200);
    }
    const attached = await walk(wp.api, '/api/file/list', { filters: { payable: { id: bill.body.id } } }, 2);
    expect(attached.rows.map((f) => f.uuid)).toEqual(files.slice(10, 13).map((f: { uuid: string }) => f.uuid));
    const unassigned = await walk(wp.api, '/api/file/list', { filters: { unassigned: true } }, 20);
    expect(unassigned.rows).toHaveLength(60);
    const loose = await walk(wp.api, '/api/file/list', { filters: { mail: null } }, 20);
    expect(loose.rows).toHaveLength(63);
    const one = await wp.api.post('/api/file/list', { filters: { uuid: files[30].uuid } });
    expect(one.body).toMatchObject({ total: 1, nextCursor: null, data: [{ uuid: files[30].uuid, name: files[30].name }] });
  });

  it.each([
    ['garbage'],
    [encodeCursor([1])],
    [encodeCursor(['2025-06-01', '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'])],
    [encodeCursor(['2025-06-01T12:00:00.000000Z', 'not-a-uuid'])],
    [encodeCursor(['2025-99-99T12:00:00Z', '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'])],
  ])('refuses a cursor that is not one of its own: 400 on cursor (%#)', async (cursor) => {
    const answer = await wp.api.post('/api/file/list', { cursor });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.fields)).toEqual(['cursor']);
  });

  it("shows another instance none of the workplace's files, whatever the cursor or uuid", async () => {
    const mine = await wp.api.post('/api/file/list', { pageSize: 2 });
    expect((await other.api.post('/api/file/list', {})).body).toMatchObject({ data: [], total: 0, nextCursor: null });
    // The cursor carries the count of the walk it came from; the rows are still only the instance's own.
    const following = await other.api.post('/api/file/list', { cursor: mine.body.nextCursor });
    expect(following.status).toBe(200);
    expect(following.body.data).toEqual([]);
    expect((await other.api.post('/api/file/list', { filters: { uuid: mine.body.data[0].uuid } })).body).toMatchObject({ data: [], total: 0 });
  });
});
