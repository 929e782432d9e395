/**
 * Real .eml fixtures for the inbox tests, written the way mail programs write them: RFC 5322
 * headers (RFC 2047 encoded words for non-ASCII), multipart/mixed with a text part (or a
 * multipart/related HTML part with an inline logo) and base64 attachments wrapped at 76 columns.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestServer } from '../helpers.js';
import { invoiceData, type InvoicingWorkplace } from '../invoicing/support.js';

export interface EmlAttachment {
  name: string;
  /** The declared type; mailers often send PDFs as application/octet-stream. */
  type: string;
  bytes: Buffer;
  /** Inline image shown by the HTML body (Content-ID), e.g. a logo. */
  contentId?: string;
}

export interface EmlMessage {
  from: string;
  subject: string;
  date?: string;
  messageId?: string;
  text?: string;
  html?: string;
  attachments?: EmlAttachment[];
}

const base64Lines = (bytes: Buffer) => bytes.toString('base64').replace(/.{1,76}/g, '$&\r\n');
/** RFC 2047 encoded word (UTF-8, base64) for non-ASCII header text. */
const encodedWord = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

export function buildEml(message: EmlMessage): Buffer {
  const mixed = `mixed-${Math.random().toString(36).slice(2)}`;
  const related = `related-${Math.random().toString(36).slice(2)}`;
  const headers = [
    `From: ${message.from}`,
    'To: kreditoren@kunde.ch',
    `Subject: ${encodedWord(message.subject)}`,
    `Date: ${message.date ?? 'Tue, 11 Mar 2025 09:30:00 +0100'}`,
    ...(message.messageId ? [`Message-ID: ${message.messageId}`] : []),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
  ];
  const parts: string[] = [];
  const inline = (message.attachments ?? []).filter((a) => a.contentId);
  if (message.html) {
    const html = [`Content-Type: text/html; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(message.html, 'utf8'))].join('\r\n');
    if (inline.length) {
      const relatedParts = [html, ...inline.map((a) => [`Content-Type: ${a.type}; name="${a.name}"`, 'Content-Transfer-Encoding: base64', `Content-ID: <${a.contentId}>`, 'Content-Disposition: inline', '', base64Lines(a.bytes)].join('\r\n'))];
      parts.push([`Content-Type: multipart/related; boundary="${related}"`, '', ...relatedParts.map((p) => `--${related}\r\n${p}`), `--${related}--`, ''].join('\r\n'));
    } else {
      parts.push(html);
    }
  } else {
    parts.push(['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(message.text ?? '', 'utf8'))].join('\r\n'));
  }
  for (const attachment of (message.attachments ?? []).filter((a) => !a.contentId)) {
    parts.push(
      [
        `Content-Type: ${attachment.type}; name="${attachment.name}"`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: attachment; filename="${attachment.name}"`,
        '',
        base64Lines(attachment.bytes),
      ].join('\r\n'),
    );
  }
  const body = [...parts.map((p) => `--${mixed}\r\n${p}`), `--${mixed}--`, ''].join('\r\n');
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body}`, 'utf8');
}

/**
 * A supplier's QR-bill PDF made by the invoicing code of the supplier's own workplace (issue #4):
 * invoice inserted, sent, rendered by `/api/invoice/pdf`. Answers the PDF and the invoice.
 */
export async function supplierQrBillPdf(server: TestServer, supplier: InvoicingWorkplace) {
  const inserted = await supplier.api.post('/api/invoice/insert', { data: invoiceData(supplier) });
  if (inserted.status !== 200) throw new Error(`invoice insert: ${JSON.stringify(inserted.body)}`);
  const sent = await supplier.api.post('/api/invoice/status/change', { uuid: inserted.body.uuid, status: 2 });
  if (sent.status !== 200) throw new Error(`invoice send: ${JSON.stringify(sent.body)}`);
  const response = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${supplier.token}` },
    body: JSON.stringify({ lang: 'de', uuid: inserted.body.uuid }),
  });
  if (response.status !== 200) throw new Error(`invoice pdf: ${response.status}`);
  return { pdf: Buffer.from(await response.arrayBuffer()), invoice: inserted.body as { uuid: string; paymentReference: string } };
}

/** The last page of a PDF (the payment part) as PNG, like a photo a bookkeeper would forward. */
export function pdfPageAsPng(pdf: Buffer, dpi = 110): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-eml-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', '-l', '1', join(dir, 'in.pdf'), join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
