/**
 * Mail sync (issue 16 §1) against a real IMAP server (dovecot on 127.0.0.1, see dovecot.ts): a
 * mailbox is connected from the profile, polled by the job runner, and each message becomes a
 * pending Mail of the inbox exactly once — the supplier's QR-bill PDF and an image as inbox files,
 * a message without attachment as a mail, a malformed one refused — and moved to the chosen folders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImapFlow } from 'imapflow';
import { createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { invoicingWorkplace } from '../invoicing/support.js';
import { buildEml, pdfPageAsPng, supplierQrBillPdf } from '../payables/eml.js';
import { startDovecot, type TestImap } from './dovecot.js';

let imap: TestImap;
let server: TestServer;
let wp: Workplace;
let pdf: Buffer;

beforeAll(async () => {
  imap = await startDovecot();
  server = await startTestServer({ BILAN_JOB_POLL_SECONDS: '0' });
  wp = await createWorkplace(server);
  pdf = (await supplierQrBillPdf(server, await invoicingWorkplace(server))).pdf;
  imap.createFolder('Processed');
  imap.createFolder('Refused');
  imap.deliver(
    buildEml({
      from: 'Lieferant AG <rechnungen@lieferant.ch>',
      subject: 'Rechnung 2026-11',
      messageId: '<qr-1@lieferant.ch>',
      text: 'Im Anhang die Rechnung.',
      attachments: [{ name: 'Rechnung.pdf', type: 'application/pdf', bytes: pdf }],
    }),
  );
  imap.deliver(
    buildEml({
      from: 'Scanner <scan@kunde.ch>',
      subject: 'Foto Quittung',
      messageId: '<img-1@kunde.ch>',
      text: 'Foto',
      attachments: [{ name: 'quittung.png', type: 'image/png', bytes: pdfPageAsPng(pdf, 60) }],
    }),
  );
  imap.deliver(buildEml({ from: 'info@lieferant.ch', subject: 'Nur Text', messageId: '<text-1@lieferant.ch>', text: 'Keine Beilage.' }));
  imap.deliver(Buffer.from('this is not a mail at all\r\n'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await imap?.close();
});

const connectBody = () => ({ email: 'kreditoren@kunde.ch', host: imap.host, port: imap.port, tls: false, username: imap.user, password: imap.password, folder: 'INBOX' });

describe('mail sync over IMAP', () => {
  it('refuses wrong credentials and folders naming the field, and stores nothing', async () => {
    const wrong = await wp.api.post('/api/profile/mail-sync/connect', { ...connectBody(), password: 'wrong' });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    expect(wrong.body.fields).toHaveProperty('password');
    const folder = await wp.api.post('/api/profile/mail-sync/connect', { ...connectBody(), processedFolder: 'Nope' });
    expect(folder.status).toBe(400);
    expect(folder.body.fields).toHaveProperty('processedFolder');
    const port = await wp.api.post('/api/profile/mail-sync/connect', { ...connectBody(), port: 70000 });
    expect(port.body.fields).toHaveProperty('port');
    expect((await wp.api.get('/api/profile/mail-sync')).body).toEqual({ data: [] });
  });

  it('takes each message once into the inbox, refuses the malformed one, moves them, and lists the mailbox', async () => {
    const connected = await wp.api.post('/api/profile/mail-sync/connect', { ...connectBody(), processedFolder: 'Processed', refusedFolder: 'Refused' });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(connected.body).not.toHaveProperty('password');
    const [stored] = await server.db.asOwner((tx) => tx.query<{ password_encrypted: Buffer }>('SELECT password_encrypted FROM mail_account WHERE instance_id = $1', [wp.instanceId]));
    expect(Buffer.from(stored!.password_encrypted).toString('latin1')).not.toContain(imap.password);

    // The first poll is queued at once; the next one waits BILAN_MAIL_SYNC_MINUTES.
    expect(await server.app.jobs.drain()).toBe(1);
    const mails = (await wp.api.post('/api/mail/list', { filters: { status: 1 } })).body.data as { subject: string; files: { name: string; mimeType: string }[] }[];
    const bySubject = new Map(mails.map((mail) => [mail.subject, mail]));
    expect([...bySubject.keys()].sort()).toEqual(['Foto Quittung', 'Nur Text', 'Rechnung 2026-11']);
    expect(bySubject.get('Rechnung 2026-11')!.files).toMatchObject([{ name: 'Rechnung.pdf', mimeType: 'application/pdf' }]);
    expect(bySubject.get('Foto Quittung')!.files).toMatchObject([{ name: 'quittung.png', mimeType: 'image/png' }]);
    expect(bySubject.get('Nur Text')!.files).toEqual([]);

    const listed = (await wp.api.get('/api/profile/mail-sync')).body.data;
    expect(listed).toMatchObject([{ email: 'kreditoren@kunde.ch', provider: 'imap', lastSyncedAt: expect.any(String), lastError: null, processedFolder: 'Processed' }]);

    // Moved on the server: three taken to Processed, the malformed one to Refused.
    const client = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user: imap.user, pass: imap.password }, logger: false });
    await client.connect();
    const count = async (folder: string) => {
      const status = await client.status(folder, { messages: true });
      return status ? status.messages : -1;
    };
    expect({ inbox: await count('INBOX'), processed: await count('Processed'), refused: await count('Refused') }).toEqual({ inbox: 0, processed: 3, refused: 1 });
    await client.logout();

    // Another poll and a poll after a "crash" that lost the last UID take nothing again.
    const id = listed[0].id as number;
    expect((await wp.api.post('/api/profile/mail-sync/sync', { id })).body).toEqual({ taken: 0, refused: 0, error: null });
    imap.deliver(buildEml({ from: 'info@lieferant.ch', subject: 'Später', messageId: '<later-1@lieferant.ch>', text: 'Neu.' }));
    expect((await wp.api.post('/api/profile/mail-sync/sync', { id })).body).toEqual({ taken: 1, refused: 0, error: null });
    const taken = await server.db.asOwner((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_sync_message WHERE instance_id = $1', [wp.instanceId]));
    expect(taken[0]!.n).toBe(5);
  });

  it('keeps the server error as last error, and disconnect removes the credentials', async () => {
    const [account] = (await wp.api.get('/api/profile/mail-sync')).body.data;
    await server.db.asOwner((tx) => tx.query("UPDATE mail_account SET folder = 'Gone' WHERE instance_id = $1", [wp.instanceId]));
    const failed = await wp.api.post('/api/profile/mail-sync/sync', { id: account.id });
    expect(failed.body.error).toEqual(expect.any(String));
    expect((await wp.api.get('/api/profile/mail-sync')).body.data[0].lastError).toBe(failed.body.error);

    const other = await createWorkplace(server, { onboard: false });
    expect((await other.api.post('/api/profile/mail-sync/disconnect', { id: account.id })).status).toBe(404);
    expect((await wp.api.post('/api/profile/mail-sync/disconnect', { id: account.id })).body).toEqual({ ok: true });
    expect((await wp.api.get('/api/profile/mail-sync')).body).toEqual({ data: [] });
    const [row] = await server.db.asOwner((tx) => tx.query<{ password_encrypted: Buffer | null }>('SELECT password_encrypted FROM mail_account WHERE instance_id = $1', [wp.instanceId]));
    expect(row!.password_encrypted).toBeNull();
  });
});
