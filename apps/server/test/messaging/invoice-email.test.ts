/**
 * Issue 15 §1 on both engines, against a real SMTP server on 127.0.0.1: contacts of a customer;
 * 'Send' by e-mail posts the invoice and queues one message per contact, stored before delivery;
 * the job runner delivers it (recipients, subject from the template, the PDF attached whose QR code
 * decodes to the invoice's QR-bill payload); a refusal keeps the server's answer and is retried;
 * without a mail server the message stays in the outbox as not_sent. On PostgreSQL, 20 parallel
 * identical sends post once and queue one message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoiceData, invoicingWorkplace, memberClient, QR_IBAN, type InvoicingWorkplace } from '../invoicing/support.js';
import { startSmtp, type TestSmtp } from './smtp.js';

let smtp: TestSmtp;
let server: TestServer;
let offline: TestServer;
let wp: InvoicingWorkplace;

beforeAll(async () => {
  smtp = await startSmtp();
  // No polling: the test runs the job runner itself (drain), so nothing happens behind its back.
  server = await startTestServer({ BILAN_SMTP_URL: smtp.url, BILAN_MAIL_FROM: 'Muster AG <rechnung@muster.ch>', BILAN_JOB_POLL_SECONDS: '0' });
  offline = await startTestServer({ BILAN_JOB_POLL_SECONDS: '0' });
  wp = await invoicingWorkplace(server);
});
afterAll(async () => {
  await server?.close();
  await offline?.close();
  await smtp?.close();
});

async function newInvoice(w: InvoicingWorkplace = wp): Promise<string> {
  const created = await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.uuid as string;
}

async function addContact(w: InvoicingWorkplace, data: Record<string, unknown>) {
  const response = await w.api.post('/api/company/contact/insert', { company: { uuid: w.customer }, ...data });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { id: number; email: string; lang: string; paymentTermsDays: number | null };
}

describe('company contacts', () => {
  it('adds, lists, changes and removes contacts; refuses a bad e-mail naming the field', async () => {
    const anna = await addContact(wp, { name: 'Anna Buchhaltung', email: 'anna@simon-muster.ch', lang: 'fr', paymentTermsDays: 20 });
    expect(anna).toMatchObject({ company: { uuid: wp.customer }, name: 'Anna Buchhaltung', lang: 'fr', paymentTermsDays: 20 });
    const plain = await addContact(wp, { name: 'Beat', email: 'beat@simon-muster.ch' });
    expect(plain).toMatchObject({ lang: 'de', paymentTermsDays: null });

    const list = await wp.api.post('/api/company/contact/list', { company: { uuid: wp.customer } });
    expect(list.body.data.map((c: { email: string }) => c.email)).toEqual(['anna@simon-muster.ch', 'beat@simon-muster.ch']);

    const changed = await wp.api.post('/api/company/contact/update', { id: plain.id, data: { name: 'Beat Muster', email: 'beat@simon-muster.ch', lang: 'it', paymentTermsDays: 10 } });
    expect(changed.body).toMatchObject({ name: 'Beat Muster', lang: 'it', paymentTermsDays: 10 });

    const bad = await wp.api.post('/api/company/contact/insert', { company: { uuid: wp.customer }, name: 'X', email: 'not an address', lang: 'xx' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['email', 'lang']);
    const unknownCompany = await wp.api.post('/api/company/contact/insert', { company: { uuid: '00000000-0000-4000-8000-000000000000' }, name: 'X', email: 'x@y.ch' });
    expect(unknownCompany.status).toBe(404);

    expect((await wp.api.post('/api/company/contact/delete', { id: plain.id })).status).toBe(200);
    expect((await wp.api.post('/api/company/contact/delete', { id: plain.id })).status).toBe(404);
    const viewer = await memberClient(server, wp, 'viewer');
    expect((await viewer.post('/api/company/contact/insert', { company: { uuid: wp.customer }, name: 'V', email: 'v@x.ch' })).status).toBe(403);
  });
});

describe('send by e-mail', () => {
  it('posts the invoice, stores the message first, and delivers it over SMTP with the PDF whose QR code is the invoice’s', async () => {
    const contact = await addContact(wp, { name: 'Carla Kreditoren', email: 'carla@simon-muster.ch', lang: 'de' });
    const uuid = await newInvoice();
    const sent = await wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id], ledgerDate: '2025-03-01' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe(2);
    const [message] = sent.body.messages;
    expect(message).toMatchObject({ kind: 'invoice', documentRef: uuid, to: ['carla@simon-muster.ch'], status: 'queued', attempts: 0 });
    expect(message.attachments).toEqual([{ filename: expect.stringMatching(/^BILAN\d{6}\.pdf$/), contentType: 'application/pdf', size: expect.any(Number) }]);

    // Posted like a status change: the invoice is sent, with its journal entry.
    const detail = await wp.api.post('/api/invoice/detail', { id: uuid });
    expect(detail.body.status).toBe(2);
    expect(detail.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['sent']);

    // Nothing reaches the mail server until the job runs.
    const before = smtp.received.length;
    expect(await server.app.jobs.drain()).toBe(1);
    expect(smtp.received.length).toBe(before + 1);
    const caught = smtp.received.at(-1)!;
    expect(caught.envelopeTo).toEqual(['carla@simon-muster.ch']);
    expect(caught.envelopeFrom).toBe('rechnung@muster.ch');
    expect(caught.mail.subject).toMatch(new RegExp(`^Rechnung ${detail.body.refNumber} von Workplace `));
    expect(caught.mail.text).toContain('Guten Tag Carla Kreditoren');
    expect(caught.mail.text).toMatch(new RegExp(`${server.baseUrl}/public/invoice/[A-Za-z0-9_-]+`));
    const [pdf] = caught.mail.attachments;
    expect(pdf).toMatchObject({ mimeType: 'application/pdf', filename: `${detail.body.refNumber}.pdf` });
    const payload = decodeQrFromPdf(Buffer.from(pdf!.content as ArrayBuffer));
    expect(payload).not.toBeNull();
    const lines = payload!.split(/\r?\n/);
    // Swiss QR Code (SIX IG QR-bill v2.3 §4.3): header, the creditor's QR-IBAN, amount, currency, QR reference.
    expect(lines.slice(0, 4)).toEqual(['SPC', '0200', '1', QR_IBAN]);
    expect(lines).toContain(detail.body.totals.total);
    expect(lines).toContain('CHF');
    expect(lines).toContain(detail.body.paymentReference);
    // The same payload as the invoice's own PDF.
    const own = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uuid, lang: 'de' }),
    });
    expect(decodeQrFromPdf(Buffer.from(await own.arrayBuffer()))).toBe(payload);

    // On the invoice's history and in the outbox: sent, with the server's answer.
    const history = await wp.api.post('/api/invoice/messages', { uuid });
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ status: 'sent', attempts: 1, serverResponse: expect.stringMatching(/^250/) });
    expect(history.body.data[0].sentAt).not.toBeNull();
    const outbox = await wp.api.post('/api/outbox/list', {});
    expect(outbox.body.configured).toBe(true);
    expect(outbox.body.data[0].uuid).toBe(message.uuid);

    // A repeat is refused, a resend mails again without posting again.
    const again = await wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id] });
    expect([again.status, again.body.code]).toEqual([409, 'already_done']);
    const resend = await wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id], resend: true, lang: 'en' });
    expect(resend.status).toBe(200);
    expect(await server.app.jobs.drain()).toBe(1);
    expect(smtp.received.at(-1)!.mail.subject).toMatch(/^Invoice BILAN\d{6} from /);
    expect((await wp.api.post('/api/invoice/detail', { id: uuid })).body.entries).toHaveLength(1);
  });

  it('keeps the refusal of the mail server on the message, retries it, and sends it once the server accepts', async () => {
    const contact = await addContact(wp, { name: 'Refused', email: 'refuse.me@simon-muster.ch', lang: 'en' });
    const uuid = await newInvoice();
    smtp.refusing = true;
    const sent = await wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id] });
    expect(sent.status).toBe(200);
    expect(await server.app.jobs.drain()).toBe(1);
    let [message] = (await wp.api.post('/api/invoice/messages', { uuid })).body.data;
    expect(message).toMatchObject({ status: 'failed', attempts: 1 });
    expect(message.serverResponse).toMatch(/^550 .*Recipient address rejected/);
    // The runner retries after the backoff (60–120 s on the mail-delivery queue): move the queue's clock.
    expect(await server.app.jobs.drain()).toBe(0);
    smtp.refusing = false;
    await server.db.asOwner((tx) => tx.query("UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE name = 'mail-delivery' AND state = 'retry'"));
    expect(await server.app.jobs.drain()).toBe(1);
    [message] = (await wp.api.post('/api/invoice/messages', { uuid })).body.data;
    expect(message).toMatchObject({ status: 'sent', attempts: 2, serverResponse: expect.stringMatching(/^250/) });
    expect(smtp.received.at(-1)!.envelopeTo).toEqual(['refuse.me@simon-muster.ch']);
  });

  it('uses the instance’s template of the language; a template edit needs the admin role', async () => {
    const saved = await wp.api.post('/api/message-template/update', { lang: 'it', subject: 'Fattura {{refNumber}} per {{customer}}', body: 'Ciao {{contact}}, totale {{total}}. {{unknown}}' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const templates = await wp.api.get('/api/message-template/list');
    expect(templates.body.data.find((t: { lang: string }) => t.lang === 'it')).toMatchObject({ isCustom: true, subject: 'Fattura {{refNumber}} per {{customer}}' });
    expect(templates.body.data.find((t: { lang: string }) => t.lang === 'de').isCustom).toBe(false);
    const missing = await wp.api.post('/api/message-template/update', { lang: 'it', subject: 'x' });
    expect([missing.status, Object.keys(missing.body.fields)]).toEqual([400, ['body']]);
    const accountant = await memberClient(server, wp, 'accountant');
    expect((await accountant.post('/api/message-template/update', { lang: 'it', reset: true })).status).toBe(403);

    const contact = await addContact(wp, { name: 'Giulia', email: 'giulia@simon-muster.ch', lang: 'it' });
    const uuid = await newInvoice();
    const sent = await wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id] });
    expect(sent.body.messages[0].subject).toMatch(/^Fattura BILAN\d{6} per Simon Muster AG$/);
    await server.app.jobs.drain();
    expect(smtp.received.at(-1)!.mail.text).toMatch(/^Ciao Giulia, totale CHF .+\. \{\{unknown\}\}/);
    expect((await wp.api.post('/api/message-template/update', { lang: 'it', reset: true })).body.isCustom).toBe(false);
  });

  it('refuses contacts of another customer and bad input naming the field, changing nothing', async () => {
    const other = await wp.api.post('/api/company/insert', { data: { name: 'Andere GmbH' } });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const stranger = await wp.api.post('/api/company/contact/insert', { company: { uuid: other.body.uuid }, name: 'Fremd', email: 'fremd@andere.ch' });
    const uuid = await newInvoice();
    const refused = await wp.api.post('/api/invoice/email', { uuid, contactIds: [stranger.body.id] });
    expect([refused.status, Object.keys(refused.body.fields)]).toEqual([400, ['contactIds']]);
    const empty = await wp.api.post('/api/invoice/email', { uuid, contactIds: [] });
    expect([empty.status, Object.keys(empty.body.fields)]).toEqual([400, ['contactIds']]);
    const unknown = await wp.api.post('/api/invoice/email', { uuid, contactIds: [999999] });
    expect([unknown.status, Object.keys(unknown.body.fields)]).toEqual([404, ['contactIds']]);
    expect((await wp.api.post('/api/invoice/detail', { id: uuid })).body.status).toBe(1);
    expect((await wp.api.post('/api/invoice/messages', { uuid })).body.data).toEqual([]);
  });
});

describe('without a mail server', () => {
  it("keeps the message in the outbox as not sent, and the invoice is posted all the same", async () => {
    const w = await invoicingWorkplace(offline);
    const contact = await addContact(w, { name: 'Dora', email: 'dora@simon-muster.ch' });
    const uuid = await newInvoice(w);
    const sent = await w.api.post('/api/invoice/email', { uuid, contactIds: [contact.id] });
    expect(sent.status).toBe(200);
    expect(sent.body.messages[0].status).toBe('not_sent');
    expect(await offline.app.jobs.drain()).toBe(0);
    const outbox = await w.api.post('/api/outbox/list', {});
    expect(outbox.body).toMatchObject({ configured: false, total: 1 });
    expect(outbox.body.data[0]).toMatchObject({ status: 'not_sent', to: ['dora@simon-muster.ch'] });
    const retry = await w.api.post('/api/outbox/retry', { uuid: outbox.body.data[0].uuid });
    expect([retry.status, Object.keys(retry.body.fields)]).toEqual([409, ['uuid']]);
  });
});

describe.runIf(engine === 'postgres')('parallel sends on PostgreSQL', () => {
  it('20 identical sends post once and queue one message; the others answer already_done', async () => {
    const contact = await addContact(wp, { name: 'Parallel', email: 'parallel@simon-muster.ch' });
    const uuid = await newInvoice();
    const answers = await Promise.all(Array.from({ length: 20 }, () => wp.api.post('/api/invoice/email', { uuid, contactIds: [contact.id] })));
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(19).fill('already_done'));
    expect((await wp.api.post('/api/invoice/messages', { uuid })).body.data).toHaveLength(1);
    expect((await wp.api.post('/api/invoice/detail', { id: uuid })).body.entries).toHaveLength(1);
  });
});
