import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdditionalPropertyType as T } from '@bilan/domain';
import { Client, createWorkplace, freePort, startTestServer, type TestServer, type Workplace } from '../helpers.js';

// A local stand-in for the Zefix public REST API answering with responses of its shape.
const zefixCompany = {
  name: 'Bilan Test AG',
  ehraid: 1234567,
  uid: 'CHE116281710',
  chid: 'CH02030000001',
  legalSeat: 'Zürich',
  registryOfCommerceId: 20,
  legalForm: { id: 3, uid: '0106', name: { de: 'Aktiengesellschaft', fr: 'Société anonyme', it: 'Società anonima', en: 'Limited or Corporation' }, shortName: { de: 'AG' } },
  status: 'ACTIVE',
  sogcDate: '2020-01-01',
  deletionDate: null,
};
let zefix: Server;
let zefixUrl: string;
const zefixCalls: { method: string; url: string; auth: string | undefined; body: string }[] = [];

let server: TestServer;
let unconfigured: TestServer;
let wp: Workplace;
let other: Workplace;
let viewer: Workplace;
let company: string;

beforeAll(async () => {
  const port = await freePort();
  zefix = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      zefixCalls.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/zefix/api/v1/company/search') {
        const { name } = JSON.parse(body) as { name: string };
        if (name.includes('boom')) return res.writeHead(500).end('{}');
        if (!name.toLowerCase().includes('bilan')) return res.writeHead(404).end('{"error":"not found"}');
        return res.end(JSON.stringify([zefixCompany, { name: 'Bilan Zweig GmbH', ehraid: 7654321, uid: null, legalSeat: 'Bern', status: 'ACTIVE' }]));
      }
      if (req.method === 'GET' && req.url === '/zefix/api/v1/company/ehraid/1234567') {
        return res.end(JSON.stringify([{ ...zefixCompany, address: { organisation: 'Bilan Test AG', street: 'Bahnhofstrasse', houseNumber: '42', city: 'Zürich', swissZipCode: '8001' } }]));
      }
      return res.writeHead(404).end('[]');
    });
  });
  await new Promise<void>((resolve) => zefix.listen(port, '127.0.0.1', resolve));
  zefixUrl = `http://127.0.0.1:${port}/zefix`;
  server = await startTestServer({ BILAN_ZEFIX_URL: zefixUrl, BILAN_ZEFIX_USER: 'bilan', BILAN_ZEFIX_PASSWORD: 's3cret' });
  unconfigured = await startTestServer();
  wp = await createWorkplace(server);
  other = await createWorkplace(server);
  viewer = await createWorkplace(server, { role: 'viewer', onboard: false });
  company = (await wp.api.post('/api/company/insert', { data: { name: 'Props AG' } })).body.uuid;
});
afterAll(async () => {
  await server?.close();
  await unconfigured?.close();
  await new Promise((resolve) => zefix?.close(resolve));
});

const insert = (type: number, value: string, name = 'p') => wp.api.post('/api/additional-property/insert', { data: { company: { uuid: company }, type, name, value } });

describe('additional properties', () => {
  it('stores a valid value of every type and lists and deletes them', async () => {
    const valid: [number, string, string][] = [
      [T.Text, 'Key account', 'Key account'],
      [T.Email, 'billing@example.ch', 'billing@example.ch'],
      [T.Phone, '+41 44 668 18 00', '+41 44 668 18 00'],
      [T.Link, 'https://www.example.ch/shop?x=1', 'https://www.example.ch/shop?x=1'],
      [T.Date, '2024-02-29', '2024-02-29'],
      [T.Barcode, '7612345678900', '7612345678900'],
      [T.ReferenceNumber, '21 00000 00003 13947 14300 09017', '210000000003139471430009017'],
      [T.Amount, '1994.75', '1994.75'],
      [T.Amount, 'eur 250', '250 EUR'],
      [T.InternalLink, '/accounting/journal', '/accounting/journal'],
    ];
    for (const [type, value, stored] of valid) {
      const res = await insert(type, value);
      expect(res.status, `${type} ${value}`).toBe(200);
      expect(res.body).toMatchObject({ company: { uuid: company }, type, value: stored });
    }
    const list = await wp.api.post('/api/additional-property/list', { filters: { company: { uuid: company } } });
    expect(list.body.data.map((p: { type: number }) => p.type)).toEqual(valid.map(([type]) => type));
    const first = list.body.data[0].id;
    expect((await wp.api.post('/api/additional-property/delete', { id: first })).body).toEqual({ ok: true });
    expect((await wp.api.post('/api/additional-property/delete', { id: first })).status).toBe(404);
  });

  it('refuses a bad value per type with a message on data.value, writing nothing', async () => {
    const before = (await wp.api.post('/api/additional-property/list', {})).body.total;
    const bad: [number, string, string][] = [
      [T.Text, '  ', 'This field must be given'],
      [T.Email, 'no-at-sign', 'email invalid'],
      [T.Phone, '123', 'phone number invalid'],
      [T.Link, 'javascript:alert(1)', 'link must be an http or https URL'],
      [T.Date, '2023-02-29', 'date invalid'],
      [T.Barcode, 'é', 'barcode must be 1 to 80 printable ASCII characters'],
      [T.ReferenceNumber, '210000000003139471430009018', 'reference number must be a QR reference or a creditor reference (RF) with a valid check digit'],
      [T.Amount, '12 XYZ', 'amount must be a decimal number with at most 2 decimals, optionally with a currency code (1234.50 EUR)'],
      [T.Amount, '1.234', 'amount must be a decimal number with at most 2 decimals, optionally with a currency code (1234.50 EUR)'],
      [T.InternalLink, '//evil.example', 'internal link must be a path of this application starting with /'],
    ];
    for (const [type, value, message] of bad) {
      const res = await insert(type, value);
      expect(res.status, `${type} ${value}`).toBe(400);
      expect(res.body.fields).toEqual({ 'data.value': message });
    }
    expect((await insert(42, 'x')).body.fields).toEqual({ 'data.type': 'additional property type unknown' });
    expect((await insert(T.Text, 'x', '')).body.fields).toEqual({ 'data.name': 'This field must be given' });
    expect((await wp.api.post('/api/additional-property/list', {})).body.total).toBe(before);
  });

  it('401, 403 for a viewer, 404 across instances', async () => {
    expect((await new Client(server.baseUrl).post('/api/additional-property/list', {})).status).toBe(401);
    expect((await viewer.api.post('/api/additional-property/insert', { data: { company: { uuid: company }, type: 1, name: 'a', value: 'b' } })).status).toBe(403);
    const id = (await insert(T.Text, 'mine')).body.id;
    expect((await other.api.post('/api/additional-property/insert', { data: { company: { uuid: company }, type: 1, name: 'a', value: 'b' } })).status).toBe(404);
    expect((await other.api.post('/api/additional-property/delete', { id })).status).toBe(404);
    expect((await other.api.post('/api/additional-property/list', { filters: { company: { uuid: company } } })).status).toBe(404);
  });
});

describe('POST /api/company/ap-ar', () => {
  it('answers the open items with zero totals while no document module is present; 404 across instances', async () => {
    const res = await wp.api.post('/api/company/ap-ar', { uuid: company });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      company: { uuid: company, name: 'Props AG' },
      receivables: [],
      payables: [],
      totals: { receivable: '0.00', payable: '0.00', net: '0.00' },
    });
    expect((await other.api.post('/api/company/ap-ar', { uuid: company })).status).toBe(404);
    expect((await new Client(server.baseUrl).post('/api/company/ap-ar', { uuid: company })).status).toBe(401);
  });
});

describe('POST /api/instance/update (General Settings)', () => {
  it('changes name, VAT percent, VAT number and currency for owner/admin', async () => {
    const w = await createWorkplace(server);
    const res = await w.api.post('/api/instance/update', { data: { vat: '7.7', vatNumber: 'CHE-116.281.710 MWST', name: 'Renamed Workplace' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed Workplace', vatRate: '0.077', vatNumber: 'CHE-116.281.710 MWST', currency: 'CHF' });
    expect((await w.api.post('/api/instance/update', { data: { vat: '' } })).body.vatRate).toBeNull();
    expect((await w.api.post('/api/instance/update', { data: { currency: 'EUR' } })).body.currency).toBe('EUR');
  });

  it('validates with field messages, refuses a taken name, and is for owner/admin only', async () => {
    const w = await createWorkplace(server);
    expect((await w.api.post('/api/instance/update', { data: { vat: '120' } })).body.fields).toEqual({ 'data.vat': "VAT can't exceed 99%" });
    expect((await w.api.post('/api/instance/update', { data: { vat: '0.5' } })).body.fields).toEqual({ 'data.vat': "VAT can't be lower than 1%" });
    expect((await w.api.post('/api/instance/update', { data: { vatNumber: 'CHE-123.456.789' } })).body.fields).toEqual({ 'data.vatNumber': 'UID invalid' });
    expect((await w.api.post('/api/instance/update', { data: { name: ' ' } })).body.fields).toEqual({ 'data.name': 'This field must be given' });
    const detail = await w.api.get('/api/instance/detail');
    const taken = await w.api.post('/api/instance/update', { data: { name: (await other.api.get('/api/instance/detail')).body.name } });
    expect(taken.status).toBe(409);
    expect(taken.body.fields).toEqual({ 'data.name': 'Instance name already taken' });
    expect(taken.body.code).toBe('instance_name_taken');
    expect((await w.api.get('/api/instance/detail')).body).toEqual(detail.body);
    const accountant = await createWorkplace(server, { role: 'accountant', onboard: false });
    expect((await accountant.api.post('/api/instance/update', { data: { vat: '8.1' } })).status).toBe(403);
    expect((await new Client(server.baseUrl).post('/api/instance/update', { data: {} })).status).toBe(401);
  });
});

describe('company register (Zefix adapter)', () => {
  it('searches by name and reads the address by EHRA-ID with Basic credentials', async () => {
    expect((await wp.api.get('/api/company-register/status')).body).toEqual({ configured: true });
    const found = await wp.api.get('/api/company-register/search?s=bilan');
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([
      { name: 'Bilan Test AG', ehraid: 1234567, uid: 'CHE-116.281.710', legalSeat: 'Zürich', legalForm: 'Limited or Corporation', status: 'ACTIVE' },
      { name: 'Bilan Zweig GmbH', ehraid: 7654321, uid: null, legalSeat: 'Bern', legalForm: null, status: 'ACTIVE' },
    ]);
    const call = zefixCalls.find((c) => c.method === 'POST')!;
    expect(call.auth).toBe(`Basic ${Buffer.from('bilan:s3cret').toString('base64')}`);
    expect(JSON.parse(call.body)).toEqual({ name: 'bilan', activeOnly: true });

    const detail = await wp.api.get('/api/company-register/detail?s=bilan&ehraid=1234567');
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      name: 'Bilan Test AG',
      uid: 'CHE-116.281.710',
      address: { street: 'Bahnhofstrasse', houseNumber: '42', town: 'Zürich', swissZipCode: '8001' },
    });
    expect((await wp.api.get('/api/company-register/search?s=nothing')).body).toEqual({ data: [], total: 0 });
    expect((await wp.api.get('/api/company-register/detail?ehraid=99')).status).toBe(404);
    expect((await wp.api.get('/api/company-register/search?s=ab')).status).toBe(400);
  });

  it('says when the register fails, is not configured or not reachable', async () => {
    const failing = await wp.api.get('/api/company-register/search?s=boom');
    expect(failing.status).toBe(502);
    expect(failing.body.error).toMatch(/could not be reached \(HTTP 500\)/);
    const u = await createWorkplace(unconfigured);
    expect((await u.api.get('/api/company-register/status')).body).toEqual({ configured: false });
    const off = await u.api.get('/api/company-register/search?s=bilan');
    expect(off.status).toBe(503);
    expect(off.body).toMatchObject({ configured: false, error: expect.stringMatching(/not configured/) });
    const down = await startTestServer({ BILAN_ZEFIX_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const d = await createWorkplace(down, { onboard: false });
      const res = await d.api.get('/api/company-register/search?s=bilan');
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/could not be reached/);
    } finally {
      await down.close();
    }
    expect((await new Client(server.baseUrl).get('/api/company-register/search?s=bilan')).status).toBe(401);
  });
});

describe('OpenAPI document', () => {
  it('documents the company routes', async () => {
    const res = await new Client(server.baseUrl).get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const path of ['/api/company/insert', '/api/company/list', '/api/address/insert', '/api/payment-profile/insert', '/api/additional-property/insert', '/api/company-register/search', '/api/instance/update', '/api/company/ap-ar']) {
      expect(paths).toContain(path);
    }
  });
});
