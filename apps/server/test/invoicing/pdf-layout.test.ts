/**
 * Invoice PDF layout (issue #4 audit §2, §7, §8): every line count from 1 to 60 renders without
 * orphan pages (each page has lines or the totals block, or is the last page with the QR-bill),
 * the table continues with its header and a carried-forward subtotal, "Page n/m" on every page,
 * the QR-bill on the last page; addresses printed the Swiss way; the due date and payment terms.
 * Text is read back with pdftotext (poppler), independent of the renderer. Real server, both engines.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoiceData, invoicePdf, invoicingWorkplace, type InvoicingWorkplace } from './support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

const pdf = (uuid: string, lang = 'en'): Promise<Buffer> => invoicePdf(server, wp, uuid, lang);

/** The text of each page (pdftotext -layout, one call; pages are separated by form feeds). */
function pageTexts(file: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pdf-text-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), file);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']).toString('utf8');
    return text.split('\f').slice(0, -1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const amountOf = (text: string) => text.replace(/[\s\u202f\u00a0'’]/g, '').replace(',', '.');

describe('PDF pages for 1 to 60 lines', () => {
  it('has no orphan page, repeats the header with carried-forward subtotals, numbers pages and ends with the QR-bill', { timeout: 240_000 }, async () => {
    const created = (await wp.api.post('/api/invoice/insert', { data: { ...invoiceData(wp), items: [] } })).body;
    const pageCounts: number[] = [];
    for (let n = 1; n <= 60; n += 1) {
      const added = await wp.api.post('/api/invoice/item/insert', { data: { invoice: { uuid: created.uuid }, name: `Line ${n}`, amount: '1', price: '10' } });
      expect(added.status).toBe(200);
      const pages = pageTexts(await pdf(created.uuid));
      const m = pages.length;
      pageCounts.push(m);
      const seen: number[] = [];
      let totalsPage = -1;
      pages.forEach((text, index) => {
        const where = `${n} lines, page ${index + 1}/${m}`;
        expect(text, where).toContain(`Page ${index + 1}/${m}`);
        const lines = [...text.matchAll(/^\s*Line (\d+)\s/gm)].map((match) => Number(match[1]));
        const hasTotals = text.includes('Total due CHF');
        const hasBill = text.includes('Payment part') && text.includes('Receipt');
        // No orphans: lines, or the totals block, or the last page carrying the QR-bill.
        expect(lines.length > 0 || hasTotals || (hasBill && index === m - 1), where).toBe(true);
        // The QR-bill is on the last page only.
        expect(hasBill, where).toBe(index === m - 1);
        if (hasTotals) {
          expect(totalsPage, where).toBe(-1);
          totalsPage = index;
          // The totals never stand without a line above them.
          expect(lines.length, where).toBeGreaterThan(0);
        }
        // A page that continues the table starts with its header and the subtotal brought forward,
        // equal to the one carried forward at the end of the page before.
        if (lines.length && lines[0]! > 1) {
          expect(text, where).toMatch(/Description\s+Qty\s+Price\s+Discount\s+Total CHF/);
          const brought = /Brought forward\s+([\d'’ \u00a0\u202f.,]+)$/m.exec(text);
          expect(brought, where).not.toBeNull();
          expect(amountOf(brought![1]!), where).toBe(`${(lines[0]! - 1) * 10}.00`);
          const carried = /Carried forward\s+([\d'’ \u00a0\u202f.,]+)$/m.exec(pages[index - 1]!);
          expect(carried, where).not.toBeNull();
          expect(amountOf(carried![1]!), where).toBe(amountOf(brought![1]!));
        }
        seen.push(...lines);
      });
      // Every line exactly once, in order; the totals after the last line.
      expect(seen, `${n} lines`).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(totalsPage, `${n} lines`).toBeGreaterThanOrEqual(0);
    }
    // One page while lines, totals and QR-bill fit on it; then the QR-bill (and later lines) move on,
    // never more than two pages up to 60 lines; the count never goes down as lines are added.
    const firstTwoPages = pageCounts.indexOf(2) + 1;
    expect(firstTwoPages).toBeGreaterThan(10);
    expect(pageCounts).toEqual(Array.from({ length: 60 }, (_, i) => (i + 1 < firstTwoPages ? 1 : 2)));
  });
});

describe('PDF texts', () => {
  it('prints Swiss addresses as "8000 Zürich", foreign ones with their country, the due date and payment terms', async () => {
    const company = await wp.api.post('/api/company/insert', {
      data: { name: 'Client Paris SARL', address: { street: 'Rue de Rivoli', houseNumber: '10', zip: '75001', city: 'Paris', country: { id: 5 } } },
    });
    expect(company.status, JSON.stringify(company.body)).toBe(200);
    const address = (await wp.api.post('/api/address/list', { filters: { company: { uuid: company.body.uuid } } })).body.data[0].id;
    const swiss = (await wp.api.post('/api/invoice/insert', { data: invoiceData(wp) })).body;
    const foreign = (await wp.api.post('/api/invoice/insert', { data: { ...invoiceData(wp), company: { uuid: company.body.uuid }, address: { id: address } } })).body;

    const [swissPage] = pageTexts(await pdf(swiss.uuid));
    expect(swissPage).toMatch(/^\s*8000 Seldwyla$/m);
    expect(swissPage).toMatch(/^\s*8001 Zürich$/m);
    expect(swissPage).not.toMatch(/CH-\d{4}/);
    expect(swissPage).toMatch(/Due date\s+31\.03\.2025\s+\(Payment terms: 30 days net\)/);

    const [english] = pageTexts(await pdf(foreign.uuid, 'en'));
    expect(english).toMatch(/Rue de Rivoli 10\n\s*75001 Paris\n\s*France\n/);
    const [german] = pageTexts(await pdf(foreign.uuid, 'de'));
    expect(german).toMatch(/75001 Paris\n\s*Frankreich\n/);
    expect(german).toMatch(/Fällig am\s+31\.03\.2025\s+\(Zahlbar innert 30 Tagen netto\)/);
    // The QR-bill keeps the structured address (type S) with the country code.
    const payload = decodeQrFromPdf(await pdf(foreign.uuid, 'fr'))!.split(/\r?\n/);
    expect(payload.slice(20, 27)).toEqual(['S', 'Client Paris SARL', 'Rue de Rivoli', '10', '75001', 'Paris', 'FR']);
  });
});
