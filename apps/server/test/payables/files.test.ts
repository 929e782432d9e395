/** /api/file/*: inbox files stored in the database, never reachable from another instance. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace, type PayablesWorkplace } from './setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
let other: PayablesWorkplace;
let viewer: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
  other = await payablesWorkplace(server);
  viewer = await payablesWorkplace(server, { role: 'viewer' });
});
afterAll(async () => server?.close());

const pdf = Buffer.from('%PDF-1.4\n% a tiny test file \u00e4\n%%EOF\n', 'latin1');

async function upload(token: string, body: Buffer | Uint8Array | string, type: string, name = 'Rechnung März.pdf') {
  const response = await fetch(`${server.baseUrl}/api/file/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('inbox files', () => {
  it('uploads, lists, serves byte for byte, attaches to a bill, deletes', async () => {
    const created = await upload(wp.token, pdf, 'application/pdf');
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Rechnung März.pdf', mimeType: 'application/pdf', size: pdf.length, payable: null });
    const { uuid } = created.body;

    const served = await fetch(`${server.baseUrl}/api/file/${uuid}/serve`, { headers: { authorization: `Bearer ${wp.token}` } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await served.arrayBuffer()).equals(pdf)).toBe(true);

    const bill = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '45.90', description: 'Taxi' } });
    const attached = await wp.api.post('/api/file/update', { uuid, data: { payable: { id: bill.body.id }, name: 'Taxi.pdf' } });
    expect(attached.body).toMatchObject({ name: 'Taxi.pdf', payable: { id: bill.body.id } });
    expect((await wp.api.post('/api/file/list', { filters: { payable: { id: bill.body.id } } })).body.total).toBe(1);
    expect((await wp.api.post('/api/file/list', { filters: { unassigned: true } })).body.total).toBe(0);
    expect((await viewer.api.post('/api/file/list', {})).status).toBe(200);

    // Another instance sees nothing of it.
    const foreign = await fetch(`${server.baseUrl}/api/file/${uuid}/serve`, { headers: { authorization: `Bearer ${other.token}` } });
    expect(foreign.status).toBe(404);
    expect((await other.api.post('/api/file/list', {})).body.total).toBe(0);
    expect((await other.api.post('/api/file/update', { uuid, data: { name: 'x.pdf' } })).status).toBe(404);
    expect((await other.api.post('/api/file/delete', { uuid })).status).toBe(404);

    expect((await wp.api.post('/api/file/delete', { uuid })).body).toEqual({ ok: true });
    expect((await fetch(`${server.baseUrl}/api/file/${uuid}/serve`, { headers: { authorization: `Bearer ${wp.token}` } })).status).toBe(404);
  });

  it('refuses other content, empty files, missing names; 401 and 403', async () => {
    expect((await upload(wp.token, 'hello', 'text/html')).status).toBe(415);
    expect((await upload(wp.token, new Uint8Array(0), 'application/pdf')).status).toBe(400);
    const noName = await fetch(`${server.baseUrl}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'image/png' }, body: pdf });
    expect(noName.status).toBe(400);
    expect((await upload(viewer.token, pdf, 'application/pdf')).status).toBe(403);
    expect((await new Client(server.baseUrl).post('/api/file/list', {})).status).toBe(401);
    expect((await wp.api.post('/api/file/update', { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d', data: { payable: { id: 99999 } } })).status).toBe(404);
  });
});
