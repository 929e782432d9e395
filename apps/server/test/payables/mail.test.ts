/** /api/mail/*: mails with attachments, status pending → processed or refused. */
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

describe('mail', () => {
  it('records a mail with its attachment, lists and processes it', async () => {
    const upload = await fetch(`${server.baseUrl}/api/file/upload?name=bill.pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/pdf' },
      body: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    const file = (await upload.json()) as any;
    const mail = await wp.api.post('/api/mail/insert', { data: { from: 'billing@lieferant.ch', subject: 'Rechnung 7', files: [file.uuid] } });
    expect(mail.status).toBe(200);
    expect(mail.body).toMatchObject({ status: 1, statusName: 'pending', from: 'billing@lieferant.ch', files: [{ uuid: file.uuid, name: 'bill.pdf' }] });
    expect((await wp.api.post('/api/mail/list', { filters: { status: 1 } })).body.total).toBe(1);
    expect((await wp.api.get('/api/analytics/counts')).body.Mail).toBe(1);

    const processed = await wp.api.post('/api/mail/update', { id: mail.body.id, data: { status: 2 } });
    expect(processed.body).toMatchObject({ status: 2, statusName: 'processed' });
    expect((await wp.api.post('/api/mail/update', { id: mail.body.id, data: { status: 3 } })).status).toBe(409);
    expect((await wp.api.post('/api/mail/list', { filters: { status: 1 } })).body.total).toBe(0);

    expect((await other.api.post('/api/mail/update', { id: mail.body.id, data: { status: 3 } })).status).toBe(404);
    expect((await other.api.post('/api/mail/list', {})).body.total).toBe(0);
  });

  it('marks a pending mail processed when one of its files becomes the voucher of a bill', async () => {
    const upload = await fetch(`${server.baseUrl}/api/file/upload?name=invoice.pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/pdf' },
      body: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    const file = (await upload.json()) as any;
    const mail = await wp.api.post('/api/mail/insert', { data: { from: 'info@lieferant.ch', subject: 'Rechnung 8', files: [file.uuid] } });
    const bill = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '12.00', description: 'Taxi' } });
    const second = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: '13.00', description: 'Taxi' } });
    const attached = await wp.api.post('/api/file/update', { uuid: file.uuid, data: { payable: { id: bill.body.id } } });
    expect(attached.body).toMatchObject({ payable: { id: bill.body.id }, mail: { id: mail.body.id } });
    expect((await wp.api.post('/api/mail/list', { filters: { id: mail.body.id } })).body.data[0]).toMatchObject({ status: 2, statusName: 'processed' });
    // One voucher, one bill: attaching it to a second bill is refused until it is detached.
    const moved = await wp.api.post('/api/file/update', { uuid: file.uuid, data: { payable: { id: second.body.id } } });
    expect(moved.status).toBe(409);
    expect(moved.body.fields).toHaveProperty(['data.payable.id']);
    expect((await wp.api.post('/api/file/update', { uuid: file.uuid, data: { payable: null } })).body.payable).toBeNull();
    expect((await wp.api.post('/api/file/update', { uuid: file.uuid, data: { payable: { id: second.body.id } } })).body.payable).toEqual({ id: second.body.id });
  });

  it('answers 400 naming the field, 401 and 403', async () => {
    const bad = await wp.api.post('/api/mail/insert', { data: { from: 'a@b.ch', files: ['6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'] } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['data.files.0']);
    expect((await wp.api.post('/api/mail/insert', { data: { from: ' ' } })).body.fields).toHaveProperty(['data.from']);
    expect((await wp.api.post('/api/mail/update', { id: 1, data: { status: 1 } })).body.fields).toHaveProperty(['data.status']);
    expect((await wp.api.post('/api/mail/list', { filters: {} })).body.total).toBe(2);
    expect((await new Client(server.baseUrl).post('/api/mail/list', {})).status).toBe(401);
    expect((await viewer.api.post('/api/mail/insert', { data: { from: 'a@b.ch' } })).status).toBe(403);
  });
});
