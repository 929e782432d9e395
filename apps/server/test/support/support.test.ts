/**
 * Support requests (issue 16 §2, spec §7.2 POST /napi/support/send): written by a signed-in user or,
 * without a session, by a user blocked at sign-in; e-mailed to BILAN_SUPPORT_EMAIL over a real SMTP
 * server on 127.0.0.1; answered by a superadmin (open → answered → closed), the answer e-mailed to
 * the user and shown on their support page. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, engine, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { startSmtp, type TestSmtp } from '../messaging/smtp.js';

let smtp: TestSmtp;
let server: TestServer;
let user: Workplace;
let support: Workplace;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ BILAN_SMTP_URL: smtp.url, BILAN_JOB_POLL_SECONDS: '0', BILAN_SUPPORT_EMAIL: 'Help@Bilan.example' });
  user = await createWorkplace(server, { name: 'Hilfe AG', onboard: false });
  support = await createWorkplace(server, { name: 'Platform', onboard: false });
  await server.db.asOwner((tx) => tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1', [support.userId]));
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('a signed-in user writes a request, a superadmin answers it', () => {
  it('stores it with its screenshot, e-mails the support address, answers and closes it', async () => {
    const sent = await user.api.post('/napi/support/send', {
      subject: 'VAT return does not balance',
      message: 'The VAT return of Q1 shows a difference of 0.05.',
      file: { name: 'screen.png', contentType: 'image/png', content: PNG.toString('base64') },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ ok: true, uuid: expect.any(String) });

    expect(await server.app.jobs.drain()).toBe(1);
    const mail = smtp.received.at(-1)!;
    expect(mail.envelopeTo).toEqual(['help@bilan.example']);
    expect(mail.mail.subject).toBe('[Support] VAT return does not balance');
    expect(mail.mail.text).toContain(`Support request from ${user.email}`);
    expect(mail.mail.text).toContain('Workplace: Hilfe AG');
    expect(mail.mail.attachments.map((a) => [a.filename, a.mimeType])).toEqual([['screen.png', 'image/png']]);

    const own = await user.api.post('/napi/support/list', {});
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0]).toMatchObject({
      uuid: sent.body.uuid,
      email: user.email,
      status: 'open',
      origin: 'session',
      instance: { uuid: user.instanceId, name: 'Hilfe AG' },
      attachment: { filename: 'screen.png', contentType: 'image/png', size: PNG.length },
      replies: [],
    });

    // The queue is the superadmin's only.
    expect((await user.api.post('/napi/admin/support/list', {})).status).toBe(403);
    expect((await user.api.post('/napi/admin/support/answer', { uuid: sent.body.uuid, message: 'x' })).status).toBe(403);
    const queue = await support.api.post('/napi/admin/support/list', { status: 'open' });
    expect(queue.body.data.map((r: { uuid: string }) => r.uuid)).toContain(sent.body.uuid);
    const file = await support.api.get(`/napi/admin/support/attachment?uuid=${sent.body.uuid}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');

    const answered = await support.api.post('/napi/admin/support/answer', { uuid: sent.body.uuid, message: 'Rounding per line: set it per document in Settings.' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body).toMatchObject({ status: 'answered', replies: [{ position: 1, authorRole: 'support', message: 'Rounding per line: set it per document in Settings.' }] });
    expect(await server.app.jobs.drain()).toBe(1);
    const reply = smtp.received.at(-1)!;
    expect(reply.envelopeTo).toEqual([user.email]);
    expect(reply.mail.subject).toBe('Re: VAT return does not balance');
    expect(reply.mail.text).toContain('Rounding per line');

    // Visible on the user's page; a follow-up reopens it; then closed.
    const mine = await user.api.post('/napi/support/list', {});
    expect(mine.body.data[0]).toMatchObject({ status: 'answered', replies: [{ authorRole: 'support' }] });
    const followed = await user.api.post('/napi/support/follow-up', { uuid: sent.body.uuid, message: 'Thanks, that worked.' });
    expect(followed.body).toMatchObject({ status: 'open', replies: [{ authorRole: 'support' }, { authorRole: 'user', position: 2 }] });
    const closed = await support.api.post('/napi/admin/support/status', { uuid: sent.body.uuid, status: 'closed' });
    expect(closed.body).toMatchObject({ changed: true, request: { status: 'closed' } });
    expect((await support.api.post('/napi/admin/support/status', { uuid: sent.body.uuid, status: 'closed' })).body.changed).toBe(false);
  });

  it("refuses bad input naming the field, and another user's request", async () => {
    const cases: [unknown, string][] = [
      [{ message: 'x' }, 'subject'],
      [{ subject: ' ', message: 'x' }, 'subject'],
      [{ subject: 'x', message: 'y'.repeat(10001) }, 'message'],
      [{ subject: 'x', message: 'y', file: { name: 'a.png', contentType: 'image/png', content: 'not base64!' } }, 'file.content'],
      [{ subject: 'x', message: 'y', file: { name: 'a.png', contentType: 'image/png', content: '=' } }, 'file'],
      [{ subject: 'x', message: 'y', other: 1 }, 'other'],
    ];
    for (const [body, field] of cases) {
      const response = await user.api.post('/napi/support/send', body);
      expect(response.status, JSON.stringify(response.body)).toBe(400);
      expect(Object.keys(response.body.fields)).toContain(field);
    }
    const stranger = await createWorkplace(server, { onboard: false });
    const [request] = (await user.api.post('/napi/support/list', {})).body.data;
    expect((await stranger.api.post('/napi/support/follow-up', { uuid: request.uuid, message: 'mine?' })).status).toBe(404);
    expect((await stranger.api.post('/napi/support/list', {})).body.data).toEqual([]);
    expect((await support.api.post('/napi/admin/support/answer', { uuid: '00000000-0000-4000-8000-000000000000', message: 'x' })).status).toBe(404);
    expect((await support.api.post('/napi/admin/support/status', { uuid: request.uuid, status: 'done' })).body.fields).toHaveProperty('status');
  });
});

describe('without a session (blocked by two-factor attempts)', () => {
  it('takes the request with the e-mail, mails it, and answers the same for an unknown e-mail', async () => {
    const blocked = await createWorkplace(server, { name: 'Gesperrt GmbH', onboard: false });
    await server.db.asOwner((tx) => tx.query('UPDATE app_user SET blocked_at = now() WHERE id = $1', [blocked.userId]));
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.post('/napi/support/send', { subject: 'Blocked', message: 'Please unblock me.' })).body.fields).toHaveProperty('email');

    const sent = await anonymous.post('/napi/support/send', { email: blocked.email, instance: 'gesperrt gmbh', subject: 'Blocked', message: 'Please unblock me.' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ ok: true, uuid: null });
    const unknown = await anonymous.post('/napi/support/send', { email: 'nobody@example.ch', subject: 'Blocked', message: 'Who am I?' });
    expect(unknown.body).toEqual(sent.body);

    expect(await server.app.jobs.drain()).toBe(1);
    expect(smtp.received.at(-1)!.mail.text).toContain(`Support request from ${blocked.email} (written at sign-in, without a session)`);
    expect(smtp.received.at(-1)!.mail.text).toContain('Workplace: Gesperrt GmbH');

    const queue = (await support.api.post('/napi/admin/support/list', {})).body.data as { email: string; origin: string; instance: unknown }[];
    expect(queue.find((r) => r.email === blocked.email)).toMatchObject({ origin: 'signin', instance: { name: 'Gesperrt GmbH' } });
    expect(queue.find((r) => r.email === 'nobody@example.ch')).toMatchObject({ origin: 'signin', instance: null });
    // Not on the page of the account whose e-mail was typed: anyone can type an e-mail.
    expect((await blocked.api.post('/napi/support/list', {})).status).toBe(401);
  });

  it('is rate-limited per e-mail', async () => {
    const anonymous = new Client(server.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await anonymous.post('/napi/support/send', { email: 'hammer@example.ch', subject: 'x', message: 'y' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe.runIf(engine === 'postgres')('parallel answers', () => {
  it('20 parallel answers get 20 distinct positions and 20 e-mails', async () => {
    const sent = await user.api.post('/napi/support/send', { subject: 'Parallel', message: 'Many answers' });
    await server.app.jobs.drain();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => support.api.post('/napi/admin/support/answer', { uuid: sent.body.uuid, message: `Answer ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const [request] = (await user.api.post('/napi/support/list', {})).body.data;
    expect(request.replies.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await server.app.jobs.drain()).toBe(20);
  });
});
