/**
 * Staff invitations are e-mailed (issue 15 §1), delivered over a real SMTP server on 127.0.0.1, and
 * the superadmin's job overview (issue 15 §5) lists the mail-delivery queue, its jobs and failures;
 * others are refused. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkplace, startTestServer, type TestServer } from '../helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';

let smtp: TestSmtp;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ BILAN_SMTP_URL: smtp.url, BILAN_JOB_POLL_SECONDS: '0' });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('staff invitations', () => {
  it('e-mails the invited person the sign-in link of the workplace', async () => {
    const wp = await createWorkplace(server, { name: 'Einladung AG' });
    const invited = await wp.api.post('/api/instance/member/invite', { email: 'Neu.Person@Example.ch', role: 'accountant' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const outbox = await wp.api.post('/api/outbox/list', { status: 'queued' });
    expect(outbox.body.data).toHaveLength(1);
    expect(outbox.body.data[0]).toMatchObject({ kind: 'invitation', documentRef: String(invited.body.id), to: ['neu.person@example.ch'] });

    expect(await server.app.jobs.drain()).toBe(1);
    const caught = smtp.received.at(-1)!;
    expect(caught.envelopeTo).toEqual(['neu.person@example.ch']);
    expect(caught.mail.subject).toBe('Invitation to Einladung AG on Bilan');
    const link = /http:\/\/127\.0\.0\.1:\d+\/login\/([A-Za-z0-9_-]+)/.exec(caught.mail.text ?? '');
    expect(link).not.toBeNull();
    expect(JSON.parse(Buffer.from(link![1]!, 'base64url').toString())).toEqual({ uuid: wp.instanceId, name: 'Einladung AG' });
    expect((await wp.api.post('/api/outbox/list', {})).body.data[0].status).toBe('sent');
  });
});

describe('superadmin job overview', () => {
  it('lists queues with counts, recent jobs and failures to superadmins only', async () => {
    const wp = await createWorkplace(server);
    const refused = await wp.api.get('/napi/admin/jobs');
    expect(refused.status).toBe(403);
    await wp.api.post('/api/instance/member/invite', { email: 'refuse.this@example.ch', role: 'viewer' });
    expect(await server.app.jobs.drain()).toBe(1);

    await server.db.asOwner((tx) => tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1', [wp.userId]));
    const overview = await wp.api.get('/napi/admin/jobs');
    expect(overview.status, JSON.stringify(overview.body)).toBe(200);
    const queue = overview.body.queues.find((q: { name: string }) => q.name === 'mail-delivery');
    expect(queue).toMatchObject({ retryLimit: 5, retryDelaySeconds: 60, retryBackoff: true, expireSeconds: 300 });
    expect(queue.counts.completed).toBeGreaterThanOrEqual(1);
    expect(queue.counts.retry).toBe(1);
    const [failure] = overview.body.failures;
    expect(failure).toMatchObject({ queue: 'mail-delivery', state: 'retry', retryCount: 0, error: expect.stringMatching(/^550 /) });
    expect(overview.body.recent.length).toBeGreaterThanOrEqual(2);
    const bad = await wp.api.get(`/napi/admin/jobs?queue=${'x'.repeat(101)}`);
    expect([bad.status, Object.keys(bad.body.fields)]).toEqual([400, ['queue']]);
  });
});
