/**
 * Helpers of the payables and inbox specs: API calls with the page's session, a supplier's QR-bill
 * PDF made by the invoicing code of another workplace, images of it as a phone or scanner would
 * make them, .eml mails carrying it, and the bank's camt.054 for a pain.001.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { signUpAndOnboard } from './support';

export const SUPPLIER_QR_IBAN = 'CH4431999123000889012';

/** JSON API calls with a fresh access token of the page's session (refresh cookie of its context). */
export async function apiFor(page: Page) {
  const refreshed = await page.request.get('/napi/auth/refresh');
  expect(refreshed.ok()).toBe(true);
  const headers = { authorization: `Bearer ${((await refreshed.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(path, { headers, data });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return response;
  };
  const get = (path: string) => page.request.get(path, { headers });
  // For calls expected to be refused: post() insists on 200.
  return { post, get, headers };
}

/**
 * A supplier workplace signs up in its own browser context and invoices `buyer` (the buyer's
 * workplace name) with a Swiss QR-bill (QR-IBAN, QR reference): two lines, one discounted, 8.1 %
 * VAT, total 269.55 CHF. Answers the PDF as the supplier would mail it.
 */
export async function supplierQrBillPdf(browser: Browser, buyer: string, supplier: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await signUpAndOnboard(page, { name: supplier, currency: 'CHF' });
    const { post, get } = await apiFor(page);
    const customer = (await (
      await post('/api/company/insert', {
        data: { name: `${buyer} AG`, address: { street: 'Bahnhofstrasse', houseNumber: '1', zip: '8001', city: 'Zürich', country: { id: 1 } } },
      })
    ).json()) as { uuid: string };
    const options = (await (await get('/api/invoice/form-options')).json()) as { paymentProfiles: { account: { id: number } }[] };
    const profile = await (await post('/api/payment-profile/insert', { data: { account: { id: options.paymentProfiles[0]!.account.id }, type: 2, iban: SUPPLIER_QR_IBAN } })).json();
    // The customer's addresses come from address/list.
    const addresses = (await (await post('/api/address/list', { filters: { company: { uuid: customer.uuid } } })).json()) as { data: { id: number }[] };
    const invoice = await (
      await post('/api/invoice/insert', {
        data: {
          company: { uuid: customer.uuid },
          address: { id: addresses.data[0]!.id },
          paymentProfile: { id: profile.id },
          vat: '0.081',
          dateInvoice: '2025-11-03',
          dateDue: '2025-12-03',
          description: 'Consulting November',
          items: [
            { name: 'Workshop', amount: '2', price: '120.00', discount: '10' },
            { name: 'Travel', amount: '1', price: '33.33' },
          ],
        },
      })
    ).json();
    await post('/api/invoice/status/change', { uuid: invoice.uuid, status: 2 });
    const pdf = await (await post('/api/invoice/pdf', { lang: 'de', uuid: invoice.uuid })).body();
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    return { pdf, reference: (invoice.paymentReference as string).replace(/\s/g, ''), amount: '269.55' };
  } finally {
    await context.close();
  }
}

/** The first page of a PDF rendered by poppler's pdftoppm, as PNG or JPEG (`jpegQuality` 0–100). */
export function renderPage(pdf: Buffer, dpi: number, format: 'png' | 'jpeg' = 'png', jpegQuality = 80): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-e2e-img-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const args = ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile'];
    if (format === 'jpeg') args.push('-jpeg', '-jpegopt', `quality=${jpegQuality}`);
    else args.push('-png');
    execFileSync('pdftoppm', [...args, join(dir, 'in.pdf'), join(dir, 'page')]);
    const [file] = readdirSync(dir).filter((name) => name.startsWith('page'));
    return readFileSync(join(dir, file!));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A photo-like PNG of a page: turned by `degrees` (nearest neighbour, on a grey table top, the
 * canvas grown to hold the corners) and scaled by `scale`, like a phone held a little askew.
 */
export function photoOf(png: Buffer, degrees: number, scale: number): Buffer {
  const source = PNG.sync.read(png);
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const width = Math.ceil((Math.abs(source.width * cos) + Math.abs(source.height * sin)) * scale) + 40;
  const height = Math.ceil((Math.abs(source.width * sin) + Math.abs(source.height * cos)) * scale) + 40;
  const target = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Back from the target pixel to the source pixel: un-scale, un-rotate about the centres.
      const dx = (x - width / 2) / scale;
      const dy = (y - height / 2) / scale;
      const sx = Math.round(dx * cos + dy * sin + source.width / 2);
      const sy = Math.round(-dx * sin + dy * cos + source.height / 2);
      const to = (y * width + x) * 4;
      if (sx >= 0 && sy >= 0 && sx < source.width && sy < source.height) {
        const from = (sy * source.width + sx) * 4;
        // A little shading, as under a desk lamp.
        const shade = 0.92 + 0.08 * (y / height);
        target.data[to] = source.data[from]! * shade;
        target.data[to + 1] = source.data[from + 1]! * shade;
        target.data[to + 2] = source.data[from + 2]! * shade;
      } else {
        target.data[to] = 120;
        target.data[to + 1] = 115;
        target.data[to + 2] = 110;
      }
      target.data[to + 3] = 255;
    }
  }
  return PNG.sync.write(target);
}

/** `png` with another QR code (a web address, no QR-bill) pasted at (x, y), `size` pixels wide. */
export async function withSecondQrCode(png: Buffer, text: string, x: number, y: number, size: number): Promise<Buffer> {
  const base = PNG.sync.read(png);
  const code = PNG.sync.read(await QRCode.toBuffer(text, { width: size, margin: 2, errorCorrectionLevel: 'M' }));
  PNG.bitblt(code, base, 0, 0, Math.min(code.width, base.width - x), Math.min(code.height, base.height - y), x, y);
  return PNG.sync.write(base);
}

export interface MailAttachment {
  name: string;
  type: string;
  bytes: Buffer;
}

/** A forwarded supplier mail as an .eml file: multipart/mixed, a text part, base64 attachments. */
export function eml(from: string, subject: string, text: string, attachments: MailAttachment[], messageId?: string): Buffer {
  const boundary = `b-${Math.random().toString(36).slice(2)}`;
  const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/.{1,76}/g, '$&\r\n');
  const word = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value).toString('base64')}?=`);
  const parts = [
    ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '', b64(Buffer.from(text))].join('\r\n'),
    ...attachments.map((a) =>
      [`Content-Type: ${a.type}; name="${a.name}"`, 'Content-Transfer-Encoding: base64', `Content-Disposition: attachment; filename="${a.name}"`, '', b64(a.bytes)].join('\r\n'),
    ),
  ];
  const head = [
    `From: ${from}`,
    'To: kreditoren@example.ch',
    `Subject: ${word(subject)}`,
    'Date: Mon, 03 Nov 2025 08:15:00 +0100',
    ...(messageId ? [`Message-ID: ${messageId}`] : []),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}`).join('\r\n')}\r\n--${boundary}--\r\n`);
}

/**
 * The bank's camt.054 debit notification for the payments of a pain.001: one booked debit per
 * transaction, carrying its end-to-end id and instructed amount (SPS camt.054 as Swiss banks send).
 */
export function camt054For(pain001: string, debtorIban: string, bookingDate: string, messageId: string): { xml: string; payments: { e2e: string; amount: string }[] } {
  const payments = [...pain001.matchAll(/<EndToEndId>([^<]+)<\/EndToEndId>[\s\S]*?<InstdAmt Ccy="CHF">([^<]+)<\/InstdAmt>/g)].map((m) => ({ e2e: m[1]!, amount: m[2]! }));
  const entries = payments
    .map(
      (p, i) => `<Ntry><Amt Ccy="CHF">${p.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${bookingDate}</Dt></BookgDt>
<AcctSvcrRef>${messageId}-${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>${p.e2e}</EndToEndId></Refs><Amt Ccy="CHF">${p.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>${bookingDate}T18:00:00</CreDtTm></GrpHdr><Ntfctn><Id>${messageId}-1</Id><CreDtTm>${bookingDate}T18:00:00</CreDtTm>
<Acct><Id><IBAN>${debtorIban}</IBAN></Id></Acct>${entries}</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
  return { xml, payments };
}

/** A JSON call of the signed-in user: path and body in, parsed answer out. */
export type JsonApi = (path: string, data?: unknown) => Promise<any>;

/**
 * A customer invoice as the invoice specs set it up through the API: the own company gets a
 * payment profile on 1020 (plain IBAN), the customer is created with `address`, and the invoice
 * (`invoice` fields: items, VAT, currency, date…) goes to that customer on that profile. Answers
 * the created invoice (pending).
 */
export async function customerInvoice(
  api: JsonApi,
  customer: { name: string; address: Record<string, unknown> },
  invoice: Record<string, unknown>,
): Promise<any> {
  const bank = (await api('/api/accounting/account/list', { filters: { text: '1020' } })).data.find((a: any) => a.number === '1020').id as number;
  const own = (await api('/api/company/list')).data.find((c: any) => c.isOwn);
  const ownProfile = await api('/api/payment-profile/insert', { data: { company: { uuid: own.uuid }, account: { id: bank }, type: 1, iban: 'CH5604835012345678009' } });
  const created = await api('/api/company/insert', { data: customer });
  const addresses = await api('/api/address/list', { filters: { company: { uuid: created.uuid } } });
  return api('/api/invoice/insert', {
    data: { company: { uuid: created.uuid }, address: { id: addresses.data[0].id }, paymentProfile: { id: ownProfile.id }, ...invoice },
  });
}
