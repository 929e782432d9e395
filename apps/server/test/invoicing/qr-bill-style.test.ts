/**
 * QR-bill and invoice layout by the SIX style guide (issue 15 §6), read back from the PDF with
 * poppler (pdftotext -bbox, pdffonts) and jsQR, independent of the renderer:
 * - the payment part and receipt in Liberation Sans, no other font there (IG v2.3 §3.4);
 * - the longest allowed debtor address never makes two texts of the payment part or receipt overlap:
 *   the receipt leaves out the street, the payment part keeps it (style guide, "The receipt");
 * - Swico /32/ net amounts and VAT add up to the QR amount after 5-Rappen rounding (Annex D);
 * - one number format per document language, the payment part as SIX prescribes; the VAT number
 *   as CHE-123.456.789 MWST / TVA / IVA / VAT.
 * Real server, both engines.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSwicoS1, toMoney } from '@bilan/domain';
import { swicoNetAmounts } from '../../src/modules/invoicing/invoicing.pdf.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoiceData, invoicePdf, invoicingWorkplace, type InvoicingWorkplace } from './support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

const pdf = (uuid: string, lang = 'en', w = wp): Promise<Buffer> => invoicePdf(server, w, uuid, lang);

function poppler(file: Buffer, tool: string, args: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pdf-style-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), file);
    return execFileSync(tool, [...args, join(dir, 'in.pdf'), ...(tool === 'pdffonts' ? [] : ['-'])]).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The words of the last page with their boxes (points, origin top left). */
function lastPageWords(file: Buffer): { words: Word[]; height: number } {
  const html = poppler(file, 'pdftotext', ['-bbox']);
  const pages = html.split('<page ').slice(1);
  const page = pages[pages.length - 1]!;
  const height = Number(/height="([\d.]+)"/.exec(page)![1]);
  const words = [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    x0: Number(m[1]),
    y0: Number(m[2]),
    x1: Number(m[3]),
    y1: Number(m[4]),
    text: m[5]!.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"'),
  }));
  return { words, height };
}

const MM = 72 / 25.4;
/** Boxes that share more than 1 pt each way (the lines of an address are set tight: their boxes touch). */
const overlap = (a: Word, b: Word) => a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1 && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1;

async function customer(name: string, address: Record<string, unknown>, w = wp) {
  const created = await w.api.post('/api/company/insert', { data: { name, address } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const addresses = (await w.api.post('/api/address/list', { filters: { company: { uuid: created.body.uuid } } })).body;
  return { company: { uuid: created.body.uuid as string }, address: { id: addresses.data[0].id as number } };
}

describe('the payment part and receipt', () => {
  it('are set in Liberation Sans, and the invoice body keeps DejaVu Sans', async () => {
    const invoice = (await wp.api.post('/api/invoice/insert', { data: invoiceData(wp) })).body;
    const fonts = poppler(await pdf(invoice.uuid), 'pdffonts', []);
    const names = [...fonts.matchAll(/^[A-Z]{6}\+(\S+)/gm)].map((m) => m[1]).sort();
    expect(names).toEqual(['DejaVuSans', 'DejaVuSans-Bold', 'LiberationSans', 'LiberationSans-Bold']);
    // The QR-bill alone (A6/5 slip) has no other font.
    const slip = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${wp.token}` },
      body: JSON.stringify({ lang: 'de', uuid: invoice.uuid, onlyReceipt: true }),
    });
    const slipFonts = poppler(Buffer.from(await slip.arrayBuffer()), 'pdffonts', []);
    expect([...slipFonts.matchAll(/^[A-Z]{6}\+(\S+)/gm)].map((m) => m[1]).sort()).toEqual(['LiberationSans', 'LiberationSans-Bold']);
  });

  it('keep the longest allowed addresses clear of every other text: the receipt without street, the payment part with it', async () => {
    // 69-character names, 67-character streets, 16-character house numbers, 34-character towns (SIX: 70/70/16/35), creditor and debtor.
    const long = await invoicingWorkplace(server);
    const name = 'Genossenschaft für Wohnbau und Quartierentwicklung Region Riviera Vau';
    const street = 'Avenue du Général-Guisan et Chemin des Vignerons de Lavaux Supérieu';
    const town = 'Vevey-Corseaux-Corsier-sur-Vevey V';
    expect([name.length, street.length, town.length]).toEqual([69, 67, 34]);
    expect((await long.api.post('/api/company/update', { id: long.companyUuid, data: { name: `${name.slice(0, 60)} Treuhand` } })).status).toBe(200);
    const own = (await long.api.post('/api/address/list', { filters: { company: { uuid: long.companyUuid } } })).body.data[0];
    const moved = await long.api.post('/api/address/update', { id: own.id, data: { street: 'Chemin des Grands-Champs et Route de la Corniche du Lavaux Oriental', houseNumber: '16b Bâtiment C', zip: '1095', city: 'Lutry-Savuit-Corsy-Châtelard-VD', country: { id: 1 } } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const target = await customer(name, { street, houseNumber: '1234a Bâtiment B', zip: '1800', city: town, country: { id: 1 } }, long);
    const invoice = (await long.api.post('/api/invoice/insert', { data: { ...invoiceData(long), ...target } })).body;
    expect(invoice.uuid).toBeTruthy();
    for (const lang of ['en', 'de', 'fr', 'it']) {
      const file = await pdf(invoice.uuid, lang, long);
      const { words, height } = lastPageWords(file);
      const top = height - 105 * MM;
      const part = words.filter((w) => w.y0 >= top - 1);
      for (let i = 0; i < part.length; i += 1) {
        for (let j = i + 1; j < part.length; j += 1) {
          expect(overlap(part[i]!, part[j]!), `${lang}: "${part[i]!.text}" overlaps "${part[j]!.text}"`).toBe(false);
        }
      }
      const receipt = part.filter((w) => w.x1 <= 62 * MM);
      const paymentPart = part.filter((w) => w.x0 >= 62 * MM);
      // The receipt's amount section starts 68 mm from the top; both towns stay above it.
      const amountTop = top + 68 * MM;
      for (const prefix of ['Vevey-Corseaux', 'Lutry-Savuit']) {
        const found = receipt.filter((w) => w.text.startsWith(prefix));
        expect(found.length, `${lang}: ${prefix} on the receipt`).toBeGreaterThan(0);
        for (const word of found) expect(word.y1, lang).toBeLessThanOrEqual(amountTop);
      }
      expect(receipt.some((w) => w.text === 'Lavaux' || w.text === 'Corniche'), `${lang}: no street on the receipt`).toBe(false);
      expect(paymentPart.filter((w) => w.text === 'Lavaux').length, `${lang}: both streets on the payment part`).toBe(2);
    }
    // The QR code keeps the whole structured address.
    const payload = decodeQrFromPdf(await pdf(invoice.uuid, 'en', long))!.split(/\r?\n/);
    expect(payload.slice(20, 27)).toEqual(['S', name, street, '1234a Bâtiment B', '1800', town, 'CH']);
  });

  it('keep both addresses whole on the receipt when they fit', async () => {
    const target = await customer('Muster Handel AG', { street: 'Rue du Lac', houseNumber: '12', zip: '2501', city: 'Biel', country: { id: 1 } });
    const invoice = (await wp.api.post('/api/invoice/insert', { data: { ...invoiceData(wp), ...target } })).body;
    const { words, height } = lastPageWords(await pdf(invoice.uuid));
    const receipt = words.filter((w) => w.y0 >= height - 105 * MM && w.x1 <= 62 * MM).map((w) => w.text);
    expect(receipt).toEqual(expect.arrayContaining(['Rue', 'du', 'Lac', '12', 'Bahnhofstrasse']));
  });
});

describe('Swico billing information (Annex D)', () => {
  it('puts the 5-Rappen rounding into the net amount of the largest base, so /32/ adds up to the QR amount', () => {
    // 20.10 at 8.1 % (1.63), 59.70 at 2.6 % (1.55), 50.00 at 0 %: 132.98, rounded 133.00.
    const lines = [
      { rate: '0.081', base: '20.10', vat: '1.63' },
      { rate: '0.026', base: '59.70', vat: '1.55' },
      { rate: '0', base: '50.00', vat: '0.00' },
    ];
    expect(swicoNetAmounts(lines, '0.02', '133.00')).toEqual([
      { rate: '8.1', net: '20.1' },
      { rate: '2.6', net: '59.72' },
      { rate: '0', net: '50' },
    ]);
    // A rounding that would move the largest base's VAT by a cent stands as a 0 % amount of its own.
    // 1000.19 + 81.02 + 10.00 + 0.26 = 1091.47 → 1091.45; 1000.17 × 8.1 % = 81.01377 → 81.01 ≠ 81.02.
    expect(swicoNetAmounts([{ rate: '0.081', base: '1000.19', vat: '81.02' }, { rate: '0.026', base: '10.00', vat: '0.26' }], '-0.02', '1091.45')).toEqual([
      { rate: '8.1', net: '1000.19' },
      { rate: '2.6', net: '10' },
      { rate: '0', net: '-0.02' },
    ]);
  });

  it('writes /32/ that corresponds to the amount of a mixed-rate invoice rounded to 0.05', async () => {
    const created = await wp.api.post('/api/invoice/insert', {
      data: {
        ...invoiceData(wp),
        items: [
          { name: 'Beratung', amount: '7', price: '301.33' },
          { name: 'Bücher', amount: '3', price: '49.90', vat: '0.026' },
          { name: 'Übernachtung', amount: '2', price: '140.00', vat: '0.038' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const payload = decodeQrFromPdf(await pdf(created.body.uuid))!.split(/\r?\n/);
    const amount = payload[18]!;
    const s1 = parseSwicoS1(payload[31]!)!;
    expect(s1.vat!.length).toBe(3);
    const sum = s1.vat!.reduce((acc, v) => acc.plus(toMoney(v.net!)).plus(toMoney(v.net!).times(toMoney(v.rate)).dividedBy(100).toDecimalPlaces(2)), toMoney(0));
    expect(sum.toFixed(2)).toBe(amount);
    expect(toMoney(amount).times(20).isInteger()).toBe(true);
  });
});

describe('number formats and the VAT number', () => {
  it("prints amounts as the invoice's language writes them, the payment part as SIX prescribes, and CHE-… MWST / TVA / IVA / VAT", async () => {
    expect((await wp.api.post('/api/instance/update', { data: { vatNumber: 'CHE-116.281.710 MWST' } })).status).toBe(200);
    const created = (await wp.api.post('/api/invoice/insert', { data: { ...invoiceData(wp), items: [{ name: 'Projekt', amount: '1', price: '2373.03' }] } })).body;
    // 2373.03 + 8.1 % 192.22 = 2565.25.
    const text = (lang: string) => pdf(created.uuid, lang).then((file) => poppler(file, 'pdftotext', ['-layout']));
    const expected: Record<string, [string | RegExp, string]> = { de: ["2'565.25", 'CHE-116.281.710 MWST'], it: ["2'565.25", 'CHE-116.281.710 IVA'], fr: [/2[\s\u202f\u00a0]565,25/, 'CHE-116.281.710 TVA'], en: ['2,565.25', 'CHE-116.281.710 VAT'] };
    for (const [lang, [amount, vatNumber]] of Object.entries(expected)) {
      const page = await text(lang);
      const [body, paymentPart] = [page.slice(0, page.lastIndexOf('2 565.25')), page];
      expect(body, lang).toMatch(amount);
      expect(body, lang).toContain(vatNumber);
      expect(body, lang).toContain(lang === 'fr' ? 'TVA 8,1 %' : `${lang === 'de' ? 'MWST' : lang === 'it' ? 'IVA' : 'VAT'} 8.1 %`);
      expect(body, lang).not.toMatch(/MWST-Nr\.|N° TVA|N\. IVA|VAT no\./);
      // The payment part: space as thousands separator, full stop as decimal separator.
      expect(paymentPart, lang).toContain('2 565.25');
    }
  });
});
