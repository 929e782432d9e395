/**
 * Quotes (issue 15 §4, decision 031) over HTTP on both engines: lifecycle draft → sent → accepted and
 * 'Create invoice' (a pending invoice with the quote's customer, lines, VAT and currency, linked
 * from the quote); refusals naming the field (400) and wrong status moves (409); Create invoice once
 * under 10 parallel calls; no journal entries at any step; the PDF titled 'Offerte' without payment part.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

async function ok(path: string, body: unknown) {
  const answer = await wp.api.post(path, body);
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}
async function entryCount(): Promise<number> {
  const [row] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}
function quoteData(overrides: Record<string, unknown> = {}) {
  const { dateInvoice: _d, dateDue: _due, ...head } = invoiceData(wp);
  return { ...head, dateQuote: '2025-03-01', validUntil: '2025-03-31', items: [...head.items, { name: 'Books', amount: '4', price: '50.00', vat: '0.026' }], ...overrides };
}
const status = (uuid: string, to: string) => wp.api.post('/api/quote/status/change', { uuid, status: to });

describe('quotes', () => {
  it('goes draft → sent → accepted and becomes a pending invoice with the same customer, lines, VAT and currency, posting nothing', async () => {
    const entries = await entryCount();
    const quote = await ok('/api/quote/insert', { data: quoteData() });
    expect(quote).toMatchObject({ status: 'draft', number: expect.stringMatching(/^AN-\d{5}$/), dateQuote: '2025-03-01', validUntil: '2025-03-31', invoice: null });
    expect(quote.items).toHaveLength(3);
    // 216.00 + 33.33 at 8.1 % and 200.00 at 2.6 %: 249.33 + 20.20 + 200.00 + 5.20 = 474.73 → 474.75.
    expect(quote.totals).toMatchObject({ net: '449.33', total: '474.75' });

    const changed = await ok('/api/quote/update', { uuid: quote.uuid, data: { description: 'Offer March' } });
    expect(changed.description).toBe('Offer March');
    expect((await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'sent' })).status).toBe('sent');
    // A sent quote is not edited, never returns to draft, and is not turned into an invoice.
    expect((await wp.api.post('/api/quote/update', { uuid: quote.uuid, data: { description: 'x' } })).body.code).toBe('quote_not_draft');
    const back = await status(quote.uuid, 'draft');
    expect([back.status, back.body.code]).toEqual([409, 'status_not_allowed']);
    expect((await wp.api.post('/api/quote/invoice', { uuid: quote.uuid })).body.code).toBe('quote_not_accepted');
    expect((await status(quote.uuid, 'sent')).body.code).toBe('already_done');

    expect((await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'accepted' })).status).toBe('accepted');
    expect((await status(quote.uuid, 'declined')).body.code).toBe('status_not_allowed');

    const made = await ok('/api/quote/invoice', { uuid: quote.uuid, dateInvoice: '2025-04-01' });
    expect(made.quote.invoice).toEqual(made.invoice);
    const invoice = await ok('/api/invoice/detail', { id: made.invoice.uuid });
    expect(invoice).toMatchObject({ status: 1, company: { uuid: wp.customer }, address: { id: wp.address }, paymentProfile: { id: wp.qrProfile }, vat: '0.081', currency: 'CHF', dateInvoice: '2025-04-01', description: 'Offer March' });
    expect(invoice.items.map((i: { name: string; amount: string; price: string; discount: string | null; vat: string | null }) => [i.name, i.amount, i.price, i.discount, i.vat])).toEqual([
      ['Workshop', '2', '120', '10', null],
      ['Travel Zürich–Genève', '1', '33.33', null, null],
      ['Books', '4', '50', null, '0.026'],
    ]);
    expect(invoice.totals.total).toBe(quote.totals.total);
    expect(await entryCount()).toBe(entries);

    const detail = await ok('/api/quote/detail', { id: quote.uuid });
    expect(detail.invoice).toEqual(made.invoice);
    const accepted = await ok('/api/quote/list', { status: 'accepted' });
    expect(accepted.data.map((q: { uuid: string }) => q.uuid)).toContain(quote.uuid);
    expect((await ok('/api/quote/list', { status: 'draft' })).data.map((q: { uuid: string }) => q.uuid)).not.toContain(quote.uuid);
  });

  it('declined is final; a draft is deleted, a sent quote is not; a quote without lines is not sent', async () => {
    const quote = await ok('/api/quote/insert', { data: quoteData() });
    await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'sent' });
    expect((await wp.api.post('/api/quote/delete', { uuid: quote.uuid })).body.code).toBe('quote_not_draft');
    await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'declined' });
    for (const to of ['accepted', 'sent', 'draft']) expect((await status(quote.uuid, to)).body.code).toBe('status_not_allowed');

    const empty = await ok('/api/quote/insert', { data: quoteData({ items: [] }) });
    const refused = await status(empty.uuid, 'sent');
    expect([refused.status, Object.keys(refused.body.fields)]).toEqual([400, ['items']]);
    await ok('/api/quote/delete', { uuid: empty.uuid });
    expect((await wp.api.post('/api/quote/detail', { id: empty.uuid })).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field and stores nothing', async () => {
    const before = (await ok('/api/quote/list', {})).data.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ validUntil: '2025-02-01' }, 'data.validUntil'],
      [{ vat: '0.5' }, 'data.vat'],
      [{ company: { uuid: '00000000-0000-4000-8000-000000000000' } }, 'data.company.uuid'],
      [{ items: [{ name: 'X', amount: '1', price: 'abc' }] }, 'data.items.0.price'],
      [{ dateQuote: '2025-13-01' }, 'data.dateQuote'],
      [{ currency: 'EUR' }, 'data.fxRate'],
    ];
    for (const [override, field] of cases) {
      const answer = await wp.api.post('/api/quote/insert', { data: quoteData(override) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    expect((await wp.api.post('/api/quote/status/change', { uuid: 'nope', status: 'sent' })).body.fields).toHaveProperty('uuid');
    expect((await wp.api.post('/api/quote/list', { status: 'open' })).body.fields).toHaveProperty('status');
    expect((await ok('/api/quote/list', {})).data.length).toBe(before);
  });

  it('pages the list newest first, by page number and by cursor alike', async () => {
    for (const day of ['2025-06-03', '2025-06-01', '2025-06-02']) await ok('/api/quote/insert', { data: quoteData({ dateQuote: day, validUntil: '2025-07-31' }) });
    const all = await ok('/api/quote/list', { pageSize: 500 });
    const byCursor: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok('/api/quote/list', { pageSize: 2, ...(cursor ? { cursor } : {}) });
      byCursor.push(...page.data.map((q: { uuid: string }) => q.uuid));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(byCursor).toEqual(all.data.map((q: { uuid: string }) => q.uuid));
    expect(all.data.slice(0, 3).map((q: { dateQuote: string }) => q.dateQuote)).toEqual(['2025-06-03', '2025-06-02', '2025-06-01']);
    expect((await ok('/api/quote/list', { page: 2, pageSize: 2 })).data.map((q: { uuid: string }) => q.uuid)).toEqual(byCursor.slice(2, 4));
  });

  it('creates the invoice once under 10 parallel calls', async () => {
    const quote = await ok('/api/quote/insert', { data: quoteData() });
    await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'sent' });
    await ok('/api/quote/status/change', { uuid: quote.uuid, status: 'accepted' });
    const invoicesBefore = (await ok('/api/invoice/list-w-amounts', {})).total;
    const answers = await Promise.all(Array.from({ length: 10 }, () => wp.api.post('/api/quote/invoice', { uuid: quote.uuid })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'already_done')).toBe(true);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    expect((await ok('/api/invoice/list-w-amounts', {})).total).toBe(invoicesBefore + 1);
  });

  it('prints a PDF titled by language with the validity date and no payment part', async () => {
    const quote = await ok('/api/quote/insert', { data: quoteData() });
    const response = await fetch(`${server.baseUrl}/api/quote/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${wp.token}` },
      body: JSON.stringify({ uuid: quote.uuid, lang: 'de' }),
    });
    expect(response.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'bilan-quote-'));
    try {
      const pdf = Buffer.from(await response.arrayBuffer());
      writeFileSync(join(dir, 'q.pdf'), pdf);
      // BILAN_QUOTE_PDF=<path> keeps the file to look at (pdftoppm).
      if (process.env.BILAN_QUOTE_PDF) writeFileSync(process.env.BILAN_QUOTE_PDF, pdf);
      const text = execFileSync('pdftotext', ['-layout', join(dir, 'q.pdf'), '-']).toString();
      expect(text).toContain(`Offerte ${quote.number}`);
      expect(text).toContain('Gültig bis');
      expect(text).toContain('31.03.2025');
      expect(text).not.toContain('Empfangsschein');
      expect(text).not.toContain('Zahlteil');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
