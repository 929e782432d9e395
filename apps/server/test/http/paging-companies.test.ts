/**
 * `GET` and `POST /api/company/list` paged by key (issue 18 §2, decision 036): for every sort
 * (name, UID, city of the first address, date added; ascending and descending) a walk by
 * `nextCursor` — or by the GET's `Link: rel="next"` — gives every company once, in the order of
 * the page numbers, with ties on the sorted field broken by name and uuid and empty UIDs and cities
 * last both ways; a cursor page answers the walk's first count; the text filter holds along the
 * cursor; a cursor that is not one of this list's (or of another sort) is a 400 on `cursor`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/db/paging.js';
import { createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { follow, walk } from './paging-support.js';

let server: TestServer;
let wp: Workplace;
let other: Workplace;

/** Companies of the set-up: 36 inserted + the workplace's own. */
const COMPANIES = 37;
const SORTS = ['name', 'uid', 'city', 'dateAdded'] as const;
const ORDERS = ['asc', 'desc'] as const;

interface Listed {
  uuid: string;
  name: string;
  uid: string | null;
  dateAdded: string;
  address: { city: string } | null;
}

beforeAll(async () => {
  server = await startTestServer();
  [wp, other] = await Promise.all([createWorkplace(server), createWorkplace(server)]);
  // 36 companies: names of letters only (the same order under any collation), every sixth one a
  // name of another in other case (a tie on the name: the uuid decides); every third without UID,
  // every fifth sharing a UID; every second without address, and cities repeating; every fourth
  // added at one same time, the others 250 microseconds apart (a millisecond holds four of them).
  await server.db.withInstance(wp.instanceId, async (tx) => {
    await tx.query(
      `WITH k AS (SELECT n, chr(65 + n % 26) || chr(65 + (n * 7) % 26) AS letters FROM generate_series(1, 36) n)
       INSERT INTO company (instance_id, name, uid, created_at)
       SELECT $1,
              CASE WHEN n % 6 = 0 THEN 'Firma' || lower((SELECT letters FROM k k2 WHERE k2.n = k.n - 1)) ELSE 'Firma' || letters END,
              CASE WHEN n % 3 = 0 THEN NULL WHEN n % 5 = 0 THEN 'CHE-100.000.005' ELSE 'CHE-100.000.' || lpad(n::text, 3, '0') END,
              CASE WHEN n % 4 = 0 THEN '2025-01-01 00:00:00+00'::timestamptz ELSE '2025-01-01 00:00:00+00'::timestamptz + n * interval '250 microseconds' END
         FROM k`,
      [wp.instanceId],
    );
    await tx.query(
      `INSERT INTO address (instance_id, id, company_uuid, street, zip, city, country_id)
       SELECT $1, next_ids($1, 'address'), uuid, 'Bahnhofstrasse', '3000', (ARRAY['Bern', 'Aarau', 'Zug', 'Chur', 'bern'])[1 + (row_number() OVER (ORDER BY uuid))::int % 5], 1
         FROM company WHERE instance_id = $1 AND name LIKE 'Firma%' AND (uid IS NULL OR right(uid, 1)::int % 2 = 0)`,
      [wp.instanceId],
    );
  });
});
afterAll(async () => server?.close());

/** The sort key of the documented order: the field (empty ones last in both orders), then name, then uuid. */
function expectedOrder(rows: Listed[], by: 'name' | 'uid' | 'city', order: 'asc' | 'desc'): string[] {
  const field = (row: Listed) => (by === 'name' ? row.name.toLowerCase() : by === 'uid' ? row.uid : (row.address?.city.toLowerCase() ?? null));
  const compare = (a: Listed, b: Listed) => {
    const [fa, fb] = [field(a), field(b)];
    if ((fa === null) !== (fb === null)) return fa === null ? 1 : -1; // empty last, whatever the order
    const sign = order === 'asc' ? 1 : -1;
    for (const [x, y] of [
      [fa ?? '', fb ?? ''],
      [a.name.toLowerCase(), b.name.toLowerCase()],
      [a.uuid, b.uuid],
    ]) {
      if (x! < y!) return -sign;
      if (x! > y!) return sign;
    }
    return 0;
  };
  return [...rows].sort(compare).map((row) => row.uuid);
}

describe('company list paged by cursor', () => {
  it('has ties to break: same names in other case, shared and missing UIDs and cities, one upload time', async () => {
    const all: Listed[] = (await wp.api.post('/api/company/list', { pageSize: 500 })).body.data;
    expect(all).toHaveLength(COMPANIES);
    const lowered = all.map((c) => c.name.toLowerCase());
    expect(new Set(lowered).size).toBeLessThan(all.length);
    expect(all.filter((c) => c.uid === null).length).toBeGreaterThan(5);
    expect(all.filter((c) => c.uid === 'CHE-100.000.005').length).toBeGreaterThan(1);
    expect(all.filter((c) => c.address === null).length).toBeGreaterThan(5);
    // 9 added at one time, 3 more within its millisecond (the key keeps microseconds).
    expect(all.filter((c) => c.dateAdded === '2025-01-01T00:00:00.000Z').length).toBe(12);
  });

  for (const by of SORTS) {
    for (const order of ORDERS) {
      it(`walks every company once in order by ${by} ${order}, as the page numbers do`, async () => {
        const sort = { by, order };
        const offset = await wp.api.post('/api/company/list', { sort, pageSize: 500 });
        expect(offset.body).toMatchObject({ total: COMPANIES, totalCapped: false, nextCursor: null });
        const all: Listed[] = offset.body.data;
        if (by !== 'dateAdded') expect(all.map((c) => c.uuid)).toEqual(expectedOrder(all, by, order));
        else {
          const times = all.map((c) => c.dateAdded);
          expect(times).toEqual(order === 'asc' ? [...times].sort() : [...times].sort().reverse());
        }
        for (const pageSize of [1, 4, 10]) {
          const { rows, pages } = await walk(wp.api, '/api/company/list', { sort }, pageSize);
          expect(pages).toBe(Math.ceil(COMPANIES / pageSize));
          expect(rows.map((c) => c.uuid)).toEqual(all.map((c) => c.uuid));
        }
        const third = await wp.api.post('/api/company/list', { sort, page: 3, pageSize: 4 });
        expect(third.body.data.map((c: Listed) => c.uuid)).toEqual(all.slice(8, 12).map((c) => c.uuid));
        // The GET list: the same walk by its Link headers, the sort kept in the link.
        const followed = await follow(wp.api, `/api/company/list?sort=${by}&order=${order}&pageSize=6`);
        expect(followed.map((c) => c.uuid)).toEqual(all.map((c) => c.uuid));
      });
    }
  }

  it('keeps the text filter and open amounts along the cursor', async () => {
    const bern = await walk(wp.api, '/api/company/list', { filters: { text: 'bern' }, sort: { by: 'city', order: 'desc' }, openAmounts: true }, 2);
    expect(bern.rows.length).toBeGreaterThan(2);
    expect(bern.rows.every((c) => c.address?.city.toLowerCase() === 'bern')).toBe(true);
    expect(bern.rows.every((c) => c.open?.receivable === '0.00' && c.open?.payable === '0.00')).toBe(true);
    const firstPage = await wp.api.get('/api/company/list?text=bern&pageSize=2');
    expect(firstPage.headers.get('link')).toMatch(/^<\/api\/company\/list\?text=bern&pageSize=2&cursor=[\w-]+>; rel="next"$/);
  });

  it("answers the walk's first count on its cursor pages, while page numbers count again", async () => {
    const w = await createWorkplace(server);
    for (const name of ['Aa AG', 'Bb AG', 'Cc AG']) expect((await w.api.post('/api/company/insert', { data: { name } })).status).toBe(200);
    const first = await w.api.post('/api/company/list', { pageSize: 2 });
    expect(first.body).toMatchObject({ total: 4, nextCursor: expect.any(String) });
    expect((await w.api.post('/api/company/insert', { data: { name: 'Zz AG' } })).status).toBe(200);
    const next = await w.api.post('/api/company/list', { pageSize: 2, cursor: first.body.nextCursor });
    expect(next.body.total).toBe(4);
    expect(next.body.data).toHaveLength(2);
    expect(next.body.nextCursor).toEqual(expect.any(String));
    const page2 = await w.api.post('/api/company/list', { pageSize: 2, page: 2 });
    expect(page2.body.total).toBe(5);
  });

  it.each([
    ['garbage'],
    [encodeCursor([1])],
    [encodeCursor(['firmaab', 'not-a-uuid'])],
    [encodeCursor(['firmaab', '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'], { total: 10_001, totalCapped: false })],
    [encodeCursor(['firmaab', '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d', 'x'])],
  ])('refuses a cursor that is not one of its own: 400 on cursor, GET and POST (%#)', async (cursor) => {
    const post = await wp.api.post('/api/company/list', { cursor });
    expect(post.status).toBe(400);
    expect(Object.keys(post.body.fields)).toEqual(['cursor']);
    const get = await wp.api.get(`/api/company/list?cursor=${encodeURIComponent(cursor)}`);
    expect(get.status).toBe(400);
    expect(Object.keys(get.body.fields)).toEqual(['cursor']);
  });

  it("refuses one sort's cursor in another sort whose key it is not", async () => {
    const byName = await wp.api.post('/api/company/list', { pageSize: 2 });
    const byDate = await wp.api.post('/api/company/list', { pageSize: 2, cursor: byName.body.nextCursor, sort: { by: 'dateAdded', order: 'asc' } });
    expect(byDate.status).toBe(400);
    expect(Object.keys(byDate.body.fields)).toEqual(['cursor']);
    const byUid = await wp.api.post('/api/company/list', { pageSize: 2, cursor: byName.body.nextCursor, sort: { by: 'uid', order: 'asc' } });
    expect(byUid.status).toBe(400);
  });

  it("shows another instance none of the workplace's companies, whatever the cursor", async () => {
    const mine = await wp.api.post('/api/company/list', { pageSize: 2 });
    const theirs = await other.api.post('/api/company/list', { cursor: mine.body.nextCursor, pageSize: 500 });
    expect(theirs.status).toBe(200);
    const ownUuids = new Set((await wp.api.post('/api/company/list', { pageSize: 500 })).body.data.map((c: Listed) => c.uuid));
    expect(theirs.body.data.every((c: Listed) => !ownUuids.has(c.uuid))).toBe(true);
  });
});
