/**
 * Issue #5 §2: an uploaded .eml becomes a pending mail whose PDF and image attachments are inbox
 * files; saving a bill from an attachment marks the mail processed, refusing it marks it refused.
 * The fixtures are real MIME messages (eml.ts) carrying a QR-bill made by the invoicing code of
 * another workplace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQrBillPayload } from '@bilan/domain';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { buildEml, pdfPageAsPng, supplierQrBillPdf } from './eml.js';
import { payablesWorkplace, type PayablesWorkplace } from './setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
let other: PayablesWorkplace;
let viewer: PayablesWorkplace;
let supplier: InvoicingWorkplace;
let qrBillPdf: Buffer;
let reference: string;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
  other = await payablesWorkplace(server);
  viewer = await payablesWorkplace(server, { role: 'viewer' });
  supplier = await invoicingWorkplace(server);
  const made = await supplierQrBillPdf(server, supplier);
  qrBillPdf = made.pdf;
  reference = made.invoice.paymentReference;
}, 60_000);
afterAll(async () => server?.close());

async function upload(token: string, body: Buffer, type = 'message/rfc822', name = 'Rechnung.eml') {
  const response = await fetch(`${server.baseUrl}/api/file/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function serve(token: string, uuid: string) {
  const response = await fetch(`${server.baseUrl}/api/file/${uuid}/serve`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

const counts = async (instanceId: string) => {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ mails: string; files: string; payables: string; companies: string; profiles: string }>(
      `SELECT (SELECT count(*) FROM mail) AS mails, (SELECT count(*) FROM inbox_file) AS files, (SELECT count(*) FROM payable) AS payables,
              (SELECT count(*) FROM company) AS companies, (SELECT count(*) FROM payment_profile) AS profiles`,
    ),
  );
  return row!;
};

describe('.eml upload', () => {
  it('reads a multipart mail with a QR-bill PDF into a pending mail; a bill saved from it processes the mail', async () => {
    const eml = buildEml({
      from: '"Buchhaltung Lieferant AG" <rechnungen@lieferant.ch>',
      subject: 'Rechnung März – Beratung',
      date: 'Tue, 11 Mar 2025 09:30:00 +0100',
      messageId: '<r-2025-03-11@lieferant.ch>',
      text: 'Grüezi\r\n\r\nIm Anhang finden Sie unsere Rechnung.\r\n',
      attachments: [
        // Declared as octet-stream, as many mailers do: the bytes say PDF.
        { name: 'Rechnung-2025-03.pdf', type: 'application/octet-stream', bytes: qrBillPdf },
        { name: 'AGB.txt', type: 'text/plain', bytes: Buffer.from('Allgemeine Geschäftsbedingungen') },
      ],
    });
    const before = await counts(wp.instanceId);
    const created = await upload(wp.token, eml);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { mail, skipped } = created.body;
    expect(mail).toMatchObject({
      status: 1,
      statusName: 'pending',
      from: 'Buchhaltung Lieferant AG <rechnungen@lieferant.ch>',
      subject: 'Rechnung März – Beratung',
      receivedAt: '2025-03-11T08:30:00.000Z',
      messageId: '<r-2025-03-11@lieferant.ch>',
    });
    expect(mail.text).toContain('Im Anhang finden Sie unsere Rechnung.');
    expect(mail.files).toHaveLength(1);
    expect(mail.files[0]).toMatchObject({ name: 'Rechnung-2025-03.pdf', mimeType: 'application/pdf', size: qrBillPdf.length, payable: null, mail: { id: mail.id } });
    expect(skipped).toEqual([{ name: 'AGB.txt', mimeType: 'text/plain' }]);
    expect(await counts(wp.instanceId)).toMatchObject({ mails: String(Number(before.mails) + 1), files: String(Number(before.files) + 1) });

    // The attachment is the supplier's PDF byte for byte, and its QR code is the QR-bill.
    const served = await serve(wp.token, mail.files[0].uuid);
    expect(served.type).toBe('application/pdf');
    expect(served.bytes.equals(qrBillPdf)).toBe(true);
    const payload = decodeQrFromPdf(served.bytes);
    const parsed = parseQrBillPayload(payload ?? '');
    expect(parsed.ok && parsed.bill.reference).toBe(reference);

    // Listed as a pending mail, with its attachment; the attachment is also a file of that mail.
    const pending = await wp.api.post('/api/mail/list', { filters: { status: 1 } });
    expect(pending.body.data.map((m: any) => m.id)).toContain(mail.id);
    expect((await wp.api.post('/api/mail/list', { filters: { id: mail.id } })).body.data[0].files[0].uuid).toBe(mail.files[0].uuid);
    expect((await wp.api.post('/api/file/list', { filters: { mail: { id: mail.id } } })).body.data.map((f: any) => f.uuid)).toEqual([mail.files[0].uuid]);
    expect((await wp.api.post('/api/file/list', { filters: { mail: null } })).body.data.map((f: any) => f.uuid)).not.toContain(mail.files[0].uuid);

    // The same mail uploaded again is recognised by its Message-ID: 409, nothing written.
    const again = await upload(wp.token, eml);
    expect(again.status).toBe(409);
    expect(again.body.fields).toHaveProperty('file');
    expect(await counts(wp.instanceId)).toMatchObject({ mails: String(Number(before.mails) + 1), files: String(Number(before.files) + 1) });

    // Confirming the QR-bill drafted from the attachment: one call; the mail is now processed.
    const parsedBill = parsed.ok ? parsed.bill : null;
    const bill = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-03-11', amount: parsedBill!.amount, referenceNumber: parsedBill!.reference },
      supplier: { name: parsedBill!.creditor.name, iban: parsedBill!.iban },
      file: { uuid: mail.files[0].uuid },
    });
    expect(bill.status, JSON.stringify(bill.body)).toBe(200);
    // The QR-IBAN is already a profile of one supplier of this workplace: matched by IBAN, not created.
    expect(bill.body).toMatchObject({ amount: '269.55', referenceNumber: reference, company: { uuid: wp.supplier.uuid }, supplier: { matchedBy: 'iban', profileCreated: false } });
    const processed = (await wp.api.post('/api/mail/list', { filters: { id: mail.id } })).body.data[0];
    expect(processed).toMatchObject({ status: 2, statusName: 'processed', files: [{ payable: { id: bill.body.id } }] });
    expect((await wp.api.post('/api/mail/update', { id: mail.id, data: { status: 3 } })).status).toBe(409);

    // Another workplace sees neither the mail nor its attachment.
    expect((await other.api.post('/api/mail/list', {})).body.total).toBe(0);
    expect((await serve(other.token, mail.files[0].uuid)).status).toBe(404);
    expect((await other.api.post('/api/mail/update', { id: mail.id, data: { status: 3 } })).status).toBe(404);
  });

  it('keeps a photographed QR-bill (PNG) of an HTML mail, skips its inline logo, and can be refused', async () => {
    const png = pdfPageAsPng(qrBillPdf);
    const logo = pdfPageAsPng(qrBillPdf, 10);
    const eml = buildEml({
      from: 'kasse@velo-shop.ch',
      subject: 'Quittung',
      html: '<html><head><style>p{color:red}</style></head><body><p>Danke f&uuml;r Ihren Einkauf &amp; bis bald.</p><img src="cid:logo@shop"><p>Velo Shop</p></body></html>',
      attachments: [
        { name: 'logo.png', type: 'image/png', bytes: logo, contentId: 'logo@shop' },
        { name: 'Quittung.png', type: 'image/png', bytes: png },
      ],
    });
    const created = await upload(wp.token, eml, 'message/rfc822; charset=utf-8', 'Quittung.eml');
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { mail, skipped } = created.body;
    expect(mail).toMatchObject({ from: 'kasse@velo-shop.ch', subject: 'Quittung', messageId: null, status: 1 });
    expect(mail.text).toContain('& bis bald.');
    expect(mail.text).toContain('Velo Shop');
    expect(mail.text).not.toContain('color');
    expect(mail.files.map((f: any) => [f.name, f.mimeType, f.size])).toEqual([['Quittung.png', 'image/png', png.length]]);
    expect(skipped).toEqual([{ name: 'logo.png', mimeType: 'image/png' }]);
    const served = await serve(wp.token, mail.files[0].uuid);
    expect(served.type).toBe('image/png');
    expect(served.bytes.equals(png)).toBe(true);

    const refused = await wp.api.post('/api/mail/update', { id: mail.id, data: { status: 3 } });
    expect(refused.body).toMatchObject({ status: 3, statusName: 'refused' });
    expect((await wp.api.post('/api/mail/list', { filters: { status: 3 } })).body.data.map((m: any) => m.id)).toEqual([mail.id]);
    expect((await wp.api.post('/api/mail/update', { id: mail.id, data: { status: 2 } })).status).toBe(409);
  });

  it('refuses what is no mail, a viewer and no session; nothing is written', async () => {
    const before = await counts(wp.instanceId);
    const notMail = await upload(wp.token, Buffer.from('%PDF-1.4\n%%EOF\n'), 'message/rfc822', 'scan.eml');
    expect(notMail.status).toBe(400);
    expect(notMail.body.fields.file).toMatch(/no From address/);
    const empty = await upload(wp.token, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    const eml = buildEml({ from: 'a@b.ch', subject: 'x', text: 'y' });
    expect((await upload(viewer.token, eml)).status).toBe(403);
    const anonymous = await fetch(`${server.baseUrl}/api/file/upload?name=a.eml`, { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: eml });
    expect(anonymous.status).toBe(401);
    expect(await counts(wp.instanceId)).toEqual(before);
    expect((await new Client(server.baseUrl).post('/api/mail/list', {})).status).toBe(401);
  });
});
