import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';

let server: TestServer;
let wp: Workplace;
let other: Workplace;
let viewer: Workplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await createWorkplace(server);
  other = await createWorkplace(server);
  viewer = await createWorkplace(server, { role: 'viewer', onboard: false });
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown) => wp.api.post(`/api${path}`, body);
const address = { street: 'Rue du Rhône', houseNumber: '12', city: 'Genève', zip: '1204', country: { id: 1 } };

async function companyCount(w: Workplace = wp): Promise<number> {
  return (await w.api.get('/api/company/list?pageSize=500')).body.total;
}

describe('POST /api/company/insert, detail, update, delete', () => {
  it('creates a company with a structured address and a canonical UID, reads, changes and deletes it', async () => {
    const created = await post('/company/insert', { data: { name: '  Acme SA ', uid: 'CHE116281710', address } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Acme SA',
      uid: 'CHE-116.281.710',
      isOwn: false,
      addressCount: 1,
      address: { street: 'Rue du Rhône', houseNumber: '12', zip: '1204', city: 'Genève', country: { id: 1 } },
    });
    const uuid = created.body.uuid;
    expect((await post('/company/detail', { id: uuid })).body).toEqual(created.body);

    const changed = await post('/company/update', { id: uuid, data: { name: 'Acme Genève SA', uid: null } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Acme Genève SA', uid: null });

    const bare = await post('/company/insert', { data: { name: 'No Address GmbH' } });
    expect(bare.body).toMatchObject({ address: null, addressCount: 0, uid: null });

    expect((await post('/company/delete', { id: uuid })).body).toEqual({ ok: true });
    expect((await post('/company/detail', { id: uuid })).status).toBe(404);
  });

  it("answers 400 with the spec's messages per field and writes nothing", async () => {
    const before = await companyCount();
    const noName = await post('/company/insert', { data: { name: ' ' } });
    expect(noName.status).toBe(400);
    expect(noName.body.fields).toEqual({ 'data.name': 'This field must be given' });
    const badUid = await post('/company/insert', { data: { name: 'X', uid: 'CHE-123.456.789' } });
    expect(badUid.body.fields).toEqual({ 'data.uid': 'UID invalid' });
    const badAddress = await post('/company/insert', { data: { name: 'X', address: { street: '', city: '', zip: '' } } });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.fields).toEqual({
      'data.address.street': 'This field must be given',
      'data.address.zip': 'This field must be given',
      'data.address.city': 'This field must be given',
      'data.address.country': 'This field must be given',
    });
    const longStreet = await post('/company/insert', { data: { name: 'X', address: { ...address, street: 'x'.repeat(71) } } });
    expect(longStreet.body.fields).toEqual({ 'data.address.street': 'Street must be at most 70 characters for Swiss QR-bills' });
    expect((await post('/company/insert', { data: { name: 'X', extra: 1 } })).body.fields).toEqual({ 'data.extra': 'this key cannot be included' });
    expect(await companyCount()).toBe(before);
  });

  it('keeps company data within a Swiss QR-bill (name 70, address type S, SPS 2025 characters) on insert and update', async () => {
    const before = await companyCount();
    const longName = await post('/company/insert', { data: { name: 'N'.repeat(71), address } });
    expect(longName.status).toBe(400);
    expect(longName.body.fields).toEqual({ 'data.name': 'Name must be at most 70 characters for Swiss QR-bills' });
    const greek = await post('/company/insert', { data: { name: 'Ωmega AG', address: { ...address, city: 'Αθήνα', houseNumber: '1'.repeat(17), zip: '8'.repeat(17) } } });
    expect(greek.status).toBe(400);
    expect(greek.body.fields).toEqual({
      'data.name': 'Character "Ω" cannot be used in Swiss payments',
      'data.address.houseNumber': 'House number must be at most 16 characters for Swiss QR-bills',
      'data.address.zip': 'ZIP must be at most 16 characters for Swiss QR-bills',
      'data.address.city': 'Character "Α" cannot be used in Swiss payments',
    });
    expect(await companyCount()).toBe(before);

    // The whole SPS 2025 set is fine, and a decomposed accent is stored composed (NFC).
    const fine = await post('/company/insert', { data: { name: 'N'.repeat(60) + ' Șț€ Łódź', address: { ...address, city: 'Gene\u0301ve' } } });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    expect(fine.body.address.city).toBe('Gen\u00e9ve');
    const uuid = fine.body.uuid;
    const renamed = await post('/company/update', { id: uuid, data: { name: 'Müller “Söhne” AG' } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.fields).toEqual({ 'data.name': 'Character "“" cannot be used in Swiss payments' });
    const street = await post('/address/update', { id: fine.body.address.id, data: { ...address, street: 'S'.repeat(71) } });
    expect(street.body.fields).toEqual({ 'data.street': 'Street must be at most 70 characters for Swiss QR-bills' });
    const added = await post('/address/insert', { data: { company: { uuid }, ...address, street: 'Улица 1' } });
    expect(added.body.fields).toEqual({ 'data.street': 'Character "У" cannot be used in Swiss payments' });
    const detail = (await post('/company/detail', { id: uuid })).body;
    expect(detail).toMatchObject({ name: fine.body.name, addressCount: 1, address: { street: address.street } });
  });

  it('still reads and updates a company stored before the QR-bill rules; only a new name is checked', async () => {
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ uuid: string }>("INSERT INTO company (instance_id, name) VALUES ($1, $2) RETURNING uuid", [wp.instanceId, `Ωμέγα ${'x'.repeat(90)}`]),
    );
    const legacy = row!.uuid;
    expect((await post('/company/detail', { id: legacy })).body.name).toMatch(/^Ωμέγα x+$/);
    const uid = await post('/company/update', { id: legacy, data: { uid: 'CHE-116.281.710' } });
    expect(uid.status, JSON.stringify(uid.body)).toBe(200);
    expect(uid.body).toMatchObject({ uid: 'CHE-116.281.710', name: expect.stringMatching(/^Ωμέγα/) });
    expect((await post('/company/update', { id: legacy, data: { name: 'Omega AG' } })).body.name).toBe('Omega AG');
  });

  it("refuses to delete the workplace's own company (409)", async () => {
    const res = await post('/company/delete', { id: wp.companyUuid });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/own company and cannot be deleted/);
    expect(res.body.code).toBe('own_company');
  });

  it('401 without a token, 403 for a viewer writing, 404 for another instance', async () => {
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.get('/api/company/list')).status).toBe(401);
    expect((await anonymous.post('/api/company/insert', { data: { name: 'X' } })).status).toBe(401);
    expect((await viewer.api.post('/api/company/insert', { data: { name: 'X' } })).status).toBe(403);
    expect((await viewer.api.get('/api/company/list')).status).toBe(200);
    const mine = (await post('/company/insert', { data: { name: 'Mine AG' } })).body.uuid;
    expect((await other.api.post('/api/company/detail', { id: mine })).status).toBe(404);
    expect((await other.api.post('/api/company/update', { id: mine, data: { name: 'Stolen' } })).status).toBe(404);
    expect((await other.api.post('/api/company/delete', { id: mine })).status).toBe(404);
    expect((await post('/company/detail', { id: mine })).body.name).toBe('Mine AG');
  });
});

describe('company list', () => {
  it('searches name, UID and city, sorts and pages', async () => {
    const w = await createWorkplace(server, { name: 'Zeta Own' });
    for (const [name, city] of [['Beta AG', 'Bern'], ['alpha GmbH', 'Zug'], ['Gamma SA', 'Lausanne']] as const) {
      await w.api.post('/api/company/insert', { data: { name, address: { ...address, city } } });
    }
    const all = await w.api.get('/api/company/list');
    expect(all.body.data.map((c: { name: string }) => c.name)).toEqual(['alpha GmbH', 'Beta AG', 'Gamma SA', 'Zeta Own']);
    expect(all.body.total).toBe(4);
    const byCity = await w.api.post('/api/company/list', { filters: { text: 'laus' } });
    expect(byCity.body.data.map((c: { name: string }) => c.name)).toEqual(['Gamma SA']);
    const desc = await w.api.post('/api/company/list', { sort: { by: 'city', order: 'desc' }, page: 1, pageSize: 2 });
    expect(desc.body.data.map((c: { address: { city: string } }) => c.address.city)).toEqual(['Zürich', 'Zug']);
    expect(desc.body.total).toBe(4);
    const page2 = await w.api.get('/api/company/list?pageSize=3&page=2');
    expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(['Zeta Own']);
    const past = await w.api.get('/api/company/list?pageSize=3&page=9');
    expect(past.body).toEqual({ data: [], total: 4, totalCapped: false, nextCursor: null });
    expect((await w.api.post('/api/company/list', { filters: { text: '%' } })).body.total).toBe(0);
    expect((await w.api.post('/api/company/list', { pageSize: 0 })).body.fields).toHaveProperty('pageSize');
  });
});

describe('POST /api/company/import', () => {
  it('imports all rows or none, naming each bad row', async () => {
    const w = await createWorkplace(server);
    const good = 'name,uid,street,houseNumber,zip,city,country\n"Müller, Söhne AG",CHE-116.281.710,Hauptstrasse,5,3000,Bern,CH\nSolo GmbH,,,,,,\nParis SARL,,Rue de Rivoli,1,75001,Paris,France\n';
    const ok = await w.api.post('/api/company/import', { data: good });
    expect(ok.status).toBe(200);
    expect(ok.body.created).toBe(3);
    expect(ok.body.data.find((c: { name: string }) => c.name === 'Paris SARL').address).toMatchObject({ country: { id: 5 }, houseNumber: '1' });
    const before = await companyCount(w);
    const bad = 'name,uid,street,zip,city,country\nGood AG,,,,,\n,CHE-123.456.789,Weg,8000,Zürich,CH\nX,,Weg,,Zürich,Narnia\n';
    const res = await w.api.post('/api/company/import', { data: bad });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      'line 3.name': 'This field must be given',
      'line 3.uid': 'UID invalid',
      'line 4.zip': 'This field must be given',
      'line 4.country': 'country "Narnia" unknown',
    });
    expect(await companyCount(w)).toBe(before);
    const qrBill = 'name,street,houseNumber,zip,city,country\nFine AG,,,,,\nΩmega AG,Weg,1,8000,Zürich,CH\nLong GmbH,Weg,1,8000,Zürich Zürich Zürich Zürich Zürich Zürich,CH\n' + 'L'.repeat(71) + ',,,,,\n';
    const refused = await w.api.post('/api/company/import', { data: qrBill });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({
      'line 3.name': 'Character "Ω" cannot be used in Swiss payments',
      'line 4.city': 'City must be at most 35 characters for Swiss QR-bills',
      'line 5.name': 'Name must be at most 70 characters for Swiss QR-bills',
    });
    expect(await companyCount(w)).toBe(before);
    expect((await w.api.post('/api/company/import', { data: 'nom\nx\n' })).status).toBe(400);
    expect((await viewer.api.post('/api/company/import', { data: good })).status).toBe(403);
  });
});

describe('addresses', () => {
  it('lists, inserts, updates and deletes the addresses of a company', async () => {
    const uuid = (await post('/company/insert', { data: { name: 'Addr AG', address } })).body.uuid;
    const added = await post('/address/insert', { data: { company: { uuid }, street: 'Bahnhofplatz', zip: '3011', city: 'Bern', country: { id: 1 } } });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ company: { uuid }, street: 'Bahnhofplatz', houseNumber: null });
    const list = await post('/address/list', { filters: { company: { uuid } } });
    expect(list.body.total).toBe(2);
    const changed = await post('/address/update', { id: added.body.id, data: { street: 'Bahnhofplatz', houseNumber: '10a', zip: '3011', city: 'Bern', country: { id: 1 } } });
    expect(changed.body).toMatchObject({ houseNumber: '10a' });
    expect((await post('/address/delete', { id: added.body.id })).body).toEqual({ ok: true });
    expect((await post('/address/list', { filters: { company: { uuid } } })).body.total).toBe(1);
    expect((await post('/company/detail', { id: uuid })).body.addressCount).toBe(1);
  });

  it("says 'This field must be given' for street, zip, city and country; 404 across instances; 401; 403", async () => {
    const uuid = (await post('/company/insert', { data: { name: 'Addr2 AG' } })).body.uuid;
    const bad = await post('/address/insert', { data: { company: { uuid }, street: ' ', zip: '', city: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({
      'data.street': 'This field must be given',
      'data.zip': 'This field must be given',
      'data.city': 'This field must be given',
      'data.country': 'This field must be given',
    });
    expect((await post('/address/list', { filters: { company: { uuid } } })).body.total).toBe(0);
    const foreign = await other.api.post('/api/address/insert', { data: { company: { uuid }, ...address } });
    expect(foreign.status).toBe(404);
    const mine = (await post('/address/insert', { data: { company: { uuid }, ...address } })).body.id;
    expect((await other.api.post('/api/address/update', { id: mine, data: address })).status).toBe(404);
    expect((await other.api.post('/api/address/delete', { id: mine })).status).toBe(404);
    expect((await other.api.post('/api/address/list', { filters: { company: { uuid } } })).status).toBe(404);
    expect((await new Client(server.baseUrl).post('/api/address/list', {})).status).toBe(401);
    expect((await viewer.api.post('/api/address/delete', { id: mine })).status).toBe(403);
  });
});

// A company kept by its invoices, bills and postings (409 naming them) is tested with real
// documents in test/companies/delete.test.ts.
