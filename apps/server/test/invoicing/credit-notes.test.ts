/**
 * Credit notes (issue 15 §2, decision 027) over HTTP on both engines: a partial credit note per line
 * (quantity and amount) with its reversing postings (revenue and output VAT of the original rates,
 * reduction code R81 → Ziffer 235), the open amount and the debtors; a full credit note settling the
 * invoice; refusals naming the field (more than invoiced per line and in total); the PDF without a
 * payment part; the one-time token under 20 parallel calls (PostgreSQL).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoiceData, invoicingWorkplace, type InvoicingWorkplace, accountBalance, journalEntryCount, ok } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Line = { account: { number: string }; amount: string; direction: number; vat: { code: string; role: string } | null };

const balance = accountBalance;
const entryCount = (w: InvoicingWorkplace) => journalEntryCount(server, w);
async function lines(w: InvoicingWorkplace, id: number): Promise<[string, string, number, string | null][]> {
  const entry = await ok(w, '/api/accounting/entry/detail', { id });
  return (entry.entryAccounts as Line[])
    .map((l) => [l.account.number, l.amount, l.direction, l.vat ? `${l.vat.code}/${l.vat.role}` : null] as [string, string, number, string | null])
    .sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}
/**
 * A sent CHF invoice of 2 lines at 8.1 % and 1 at 2.6 %: 10 h × 100.00 + 1 × 500.00 at 8.1 %, 4 × 50.00 at 2.6 %
 * = 1500.00 + 121.50 + 200.00 + 5.20 = 1826.70, sent on 2024-04-02.
 */
async function sentInvoice(w: InvoicingWorkplace) {
  const created = await ok(w, '/api/invoice/insert', {
    data: {
      ...invoiceData(w),
      dateInvoice: '2024-04-02',
      dateDue: '2024-05-02',
      items: [
        { name: 'Consulting', amount: '10', price: '100.00' },
        { name: 'Licence', amount: '1', price: '500.00' },
        { name: 'Books', amount: '4', price: '50.00', vat: '0.026' },
      ],
    },
  });
  await ok(w, '/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2024-04-02' });
  const detail = await ok(w, '/api/invoice/detail', { id: created.uuid });
  expect(detail.totals.total).toBe('1826.70');
  return detail as { uuid: string; items: { id: number; name: string }[]; creditToken: string };
}
const credit = (w: InvoicingWorkplace, uuid: string, body: Record<string, unknown>) =>
  w.api.post('/api/invoice/credit-note/insert', { uuid, token: `t-${Math.random()}`, ...body });

async function pdfOf(w: InvoicingWorkplace, uuid: string): Promise<Buffer> {
  const response = await fetch(`${server.baseUrl}/api/invoice/credit-note/pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` },
    body: JSON.stringify({ uuid, lang: 'de' }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return Buffer.from(await response.arrayBuffer());
}
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-cn-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('credit notes', () => {
  let w: InvoicingWorkplace;
  beforeAll(async () => {
    w = await invoicingWorkplace(server);
  });

  it('a partial credit note per line reverses revenue and VAT of the original rates and lowers the open amount', async () => {
    const invoice = await sentInvoice(w);
    const [consulting, , books] = invoice.items;
    // 3 h of consulting (300.00 at 8.1 %) and 100.00 of the books (2.6 %).
    const answer = await credit(w, invoice.uuid, {
      date: '2024-04-20',
      reason: 'Hours not worked',
      lines: [
        { itemId: consulting!.id, quantity: '3' },
        { itemId: books!.id, amount: '100.00' },
      ],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const note = answer.body;
    expect(note.number).toMatch(/^GS-\d{6}$/);
    expect(note).toMatchObject({ date: '2024-04-20', reason: 'Hours not worked', currency: 'CHF', invoice: { uuid: invoice.uuid } });
    // 300.00 + 24.30 + 100.00 + 2.60 = 426.90.
    expect(note.totals).toMatchObject({ net: '400.00', vat: '26.90', total: '426.90' });
    expect(note.lines).toEqual([
      expect.objectContaining({ itemId: consulting!.id, quantity: '3', amount: '300.00' }),
      expect.objectContaining({ itemId: books!.id, quantity: null, amount: '100.00' }),
    ]);
    // Debit revenue and output VAT per rate, coded with the reduction codes (Ziffer 235); credit the receivable.
    expect(await lines(w, note.entryId)).toEqual([
      ['1100', '426.90', -1, null],
      ['2200', '24.30', 1, 'R81/tax'],
      ['2201', '2.60', 1, 'R26/tax'],
      ['3200', '300.00', 1, 'R81/base'],
      ['3201', '100.00', 1, 'R26/base'],
    ]);
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(detail).toMatchObject({ status: 2, openAmount: '1399.80', creditNotes: [{ uuid: note.uuid, number: note.number, total: '426.90' }] });
    expect(detail.creditToken).toBe('credit-2');
    // The journal links the credit note's entry back to its invoice.
    expect((await ok(w, '/api/invoice/by-entry', { id: note.entryId })).uuid).toBe(invoice.uuid);
    expect(await balance(w, '1100')).toBe('1399.80');
    // Debtors and ageing count what is open, with the credit note listed.
    const debtors = await ok(w, '/api/invoice/debtors', { date: '2024-06-01' });
    const document = debtors.data.flatMap((d: { documents: { uuid: string }[] }) => d.documents).find((d: { uuid: string }) => d.uuid === invoice.uuid);
    expect(document).toMatchObject({ openAmount: '1399.80', creditNotes: [{ number: note.number, total: '426.90' }] });
    // The VAT return (agreed): 235 holds the reduction, 302/303 their rates net of it.
    await ok(w, '/api/accounting/vat/settings/update', {
      data: { vatNumber: 'CHE-116.281.710 MWST', registrationDate: '2020-01-01', method: 'effective', basis: 'agreed', period: 'quarterly', netTaxRates: [] },
    });
    const figures = (await ok(w, '/api/accounting/vat/return/compute', { dateFrom: '2024-04-01', dateTo: '2024-06-30' })).figures;
    expect(figures.figures['235']).toBe('400.00');

    // The PDF: number, invoice, credited total, and no QR-bill.
    const pdf = await pdfOf(w, note.uuid);
    const text = pdfText(pdf);
    expect(text).toContain(`Gutschrift ${note.number}`);
    expect(text).toContain(detail.refNumber);
    expect(text).toContain('426.90');
    expect(decodeQrFromPdf(pdf)).toBeNull();

    // A second credit note of the rest of the consulting line: 7 h left, 8 is more than invoiced.
    const tooMuch = await credit(w, invoice.uuid, { lines: [{ itemId: consulting!.id, quantity: '8' }], date: '2024-04-21' });
    expect(tooMuch.status).toBe(400);
    expect(Object.keys(tooMuch.body.fields)).toContain('lines.0.quantity');
    const notLeft = await credit(w, invoice.uuid, { lines: [{ itemId: books!.id, amount: '100.01' }], date: '2024-04-21' });
    expect(notLeft.status).toBe(400);
    expect(Object.keys(notLeft.body.fields)).toContain('lines.0.amount');
  });

  it('refuses bad input with 400 naming the field, and books nothing', async () => {
    const invoice = await sentInvoice(w);
    const [consulting] = invoice.items;
    const before = await entryCount(w);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'lines'],
      [{ lines: [] }, 'lines'],
      [{ lines: [{ itemId: 999999, quantity: '1' }] }, 'lines.0.itemId'],
      [{ lines: [{ itemId: consulting!.id }] }, 'lines.0.quantity'],
      [{ lines: [{ itemId: consulting!.id, quantity: '1', amount: '1.00' }] }, 'lines.0.quantity'],
      [{ lines: [{ itemId: consulting!.id, quantity: '-1' }] }, 'lines.0.quantity'],
      [{ lines: [{ itemId: consulting!.id, quantity: '11' }] }, 'lines.0.quantity'],
      [{ lines: [{ itemId: consulting!.id, amount: 'abc' }] }, 'lines.0.amount'],
      [{ lines: [{ itemId: consulting!.id, amount: '1000.01' }] }, 'lines.0.amount'],
      [{ lines: [{ itemId: consulting!.id, quantity: '1' }, { itemId: consulting!.id, quantity: '1' }] }, 'lines.1.itemId'],
      [{ lines: [{ itemId: consulting!.id, quantity: '1' }], date: '2024-04-01' }, 'date'],
      [{ lines: [{ itemId: consulting!.id, quantity: '1' }], date: '2024-02-30' }, 'date'],
      [{ full: true, lines: [{ itemId: consulting!.id, quantity: '1' }] }, 'lines'],
    ];
    for (const [body, field] of cases) {
      const answer = await credit(w, invoice.uuid, body);
      expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    // More than the open amount in total: 1000.00 of 1826.70 paid, the full rest (1826.70) is refused on `full`.
    await ok(w, '/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '1000.00', date: '2024-04-10' });
    const beforeFull = await entryCount(w);
    const full = await credit(w, invoice.uuid, { full: true, date: '2024-04-15' });
    expect(full.status).toBe(400);
    expect(Object.keys(full.body.fields)).toContain('full');
    expect(await entryCount(w)).toBe(beforeFull);
    expect(beforeFull).toBe(before + 1);
    // A pending invoice is not credited; an unknown invoice is 404.
    const pending = await ok(w, '/api/invoice/insert', { data: invoiceData(w) });
    expect((await credit(w, pending.uuid, { full: true })).status).toBe(409);
    expect((await credit(w, '00000000-0000-4000-8000-000000000000', { full: true })).status).toBe(404);
  });
});

describe('a full credit note', () => {
  it('settles the invoice: paid, out of the debtors, 1100 back to 0, and it cannot be denied or credited again', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const note = await ok(w, '/api/invoice/credit-note/insert', { uuid: invoice.uuid, full: true, date: '2024-04-15', token: invoice.creditToken });
    expect(note.totals.total).toBe('1826.70');
    expect(note.lines.map((l: { quantity: string }) => l.quantity)).toEqual(['10', '1', '4']);
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(detail).toMatchObject({ status: 3, statusName: 'paid', openAmount: '0.00' });
    expect(await balance(w, '1100')).toBe('0.00');
    expect(await balance(w, '2200')).toBe('0.00');
    expect(await balance(w, '3200')).toBe('0.00');
    const debtors = await ok(w, '/api/invoice/debtors', {});
    expect(debtors.data.flatMap((d: { documents: { uuid: string }[] }) => d.documents).map((d: { uuid: string }) => d.uuid)).not.toContain(invoice.uuid);
    expect((await credit(w, invoice.uuid, { full: true })).status).toBe(409);
    expect((await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4 })).status).toBe(409);
    const list = await ok(w, '/api/invoice/credit-note/list', { uuid: invoice.uuid });
    expect(list.data.map((n: { uuid: string }) => n.uuid)).toEqual([note.uuid]);
  });

  it('after a partial credit note the rest paid settles the invoice', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await ok(w, '/api/invoice/credit-note/insert', { uuid: invoice.uuid, lines: [{ itemId: invoice.items[1]!.id, amount: '500.00' }], date: '2024-04-05', token: 'a' });
    // 1826.70 − 540.50 = 1286.20; paying more is refused, paying it settles.
    expect((await w.api.post('/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '1286.25', date: '2024-04-10' })).status).toBe(400);
    const paid = await ok(w, '/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '1286.20', date: '2024-04-10' });
    expect(paid).toMatchObject({ status: 3, openAmount: '0.00' });
    expect(await balance(w, '1100')).toBe('0.00');
  });
});

describe.runIf(engine === 'postgres')('one-time token under parallel calls', () => {
  it('20 parallel calls with the detail token create one credit note', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const before = await entryCount(w);
    const body = { uuid: invoice.uuid, lines: [{ itemId: invoice.items[0]!.id, quantity: '1' }], date: '2024-04-20', token: invoice.creditToken };
    const answers = await Promise.all(Array.from({ length: 20 }, () => w.api.post('/api/invoice/credit-note/insert', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.uuid)).size).toBe(1);
    expect(await entryCount(w)).toBe(before + 1);
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(detail.creditNotes).toHaveLength(1);
    expect(detail.openAmount).toBe('1718.60');
  });
});
