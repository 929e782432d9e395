/**
 * Dunning (issue 15 §3, decision 030) over HTTP on both engines: levels and their days (level 1
 * after the due date, level n after level n − 1), the fee posted debit 1100 / credit 3600 and added
 * to the open amount, the letter PDF with its QR-bill for open + fee, e-mail through the outbox or
 * print, a paid and a credited invoice leaving the run, the payment of open + fee settling the
 * invoice, settings refusals naming the field, and 20 parallel identical confirmations creating one
 * reminder (PostgreSQL).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { camt054 } from '../banking/xsd.js';
import { decodeQrFromPdf, invoiceData, invoicingWorkplace, type InvoicingWorkplace, accountBalance, journalEntryCount, ok } from '../invoicing/support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const balance = accountBalance;
const entryCount = (w: InvoicingWorkplace) => journalEntryCount(server, w);

/** A sent invoice of 269.55 (invoiceData), dated 2025-03-01, due 2025-03-31. */
async function sentInvoice(w: InvoicingWorkplace): Promise<{ uuid: string; refNumber: string }> {
  const created = await ok(w, '/api/invoice/insert', { data: invoiceData(w) });
  await ok(w, '/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2025-03-01' });
  return { uuid: created.uuid, refNumber: created.refNumber };
}
const preview = async (w: InvoicingWorkplace, date: string) => (await ok(w, '/api/dunning/run/preview', { date })).data as any[];
const confirm = (w: InvoicingWorkplace, date: string, items: Record<string, unknown>[]) => w.api.post('/api/dunning/run/confirm', { date, items });

async function reminderPdf(w: InvoicingWorkplace, uuid: string): Promise<Buffer> {
  const response = await fetch(`${server.baseUrl}/api/dunning/reminder/pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` },
    body: JSON.stringify({ uuid }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  return Buffer.from(await response.arrayBuffer());
}
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-dun-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** The amount field of a Swiss QR code payload (SPC, line 19). */
const qrAmount = (payload: string) => payload.split(/\r?\n/)[18];

describe(`dunning (${engine})`, () => {
  it('lists an overdue invoice at level 1 after 10 days, level 2 20 days after level 1, and posts the fee', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    // Not overdue on its due date; overdue but level 1 not due before 10 days.
    expect(await preview(w, '2025-03-31')).toEqual([]);
    const early = await preview(w, '2025-04-05');
    expect(early).toHaveLength(1);
    expect(early[0]).toMatchObject({ daysOverdue: 5, currentLevel: 0, nextLevel: 1, nextLevelDate: '2025-04-10', isDue: false, fee: '0.00', amountDue: '269.55' });
    const notDue = await confirm(w, '2025-04-05', [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }]);
    expect(notDue.status).toBe(409);
    expect(notDue.body.fields).toHaveProperty('items.0.level');

    const due = await preview(w, '2025-04-10');
    expect(due[0]).toMatchObject({ isDue: true, nextLevel: 1, fee: '0.00', amountDue: '269.55', nextLevelTitle: 'Zahlungserinnerung' });
    const before = await entryCount(w);
    const first = await ok(w, '/api/dunning/run/confirm', { date: '2025-04-10', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }] });
    expect(first.data[0]).toMatchObject({ level: 1, fee: '0.00', amountDue: '269.55', delivery: 'print', repeated: false, date: '2025-04-10' });
    expect(await entryCount(w)).toBe(before); // no fee, no posting

    // Level 2 is due 20 days after level 1, with its fee of 20.00; a skipped level is refused.
    expect((await preview(w, '2025-04-29'))[0]).toMatchObject({ currentLevel: 1, nextLevel: 2, nextLevelDate: '2025-04-30', isDue: false, fee: '20.00' });
    const skip = await confirm(w, '2025-05-01', [{ invoiceUuid: invoice.uuid, level: 3, delivery: 'print' }]);
    expect(skip.status).toBe(409);
    expect(skip.body.fields['items.0.level']).toMatch(/next level is 2/);
    const second = await ok(w, '/api/dunning/run/confirm', { date: '2025-04-30', items: [{ invoiceUuid: invoice.uuid, level: 2, delivery: 'print' }] });
    expect(second.data[0]).toMatchObject({ level: 2, fee: '20.00', openBefore: '269.55', amountDue: '289.55' });
    expect(await entryCount(w)).toBe(before + 1);
    expect(await balance(w, '1100')).toBe('289.55');
    expect(await balance(w, '3600')).toBe('-20.00');
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    expect(detail.openAmount).toBe('289.55');
    // The books still agree: the accounting check sees the fee in the open invoices.
    const entries = await ok(w, '/api/accounting/entry/list', { page: 1, pageSize: 50 });
    expect(JSON.stringify(entries)).toContain('1. Mahnung: fee');

    // The letter: QR amount = open + fee, the reminder text, the statement.
    const pdf = await reminderPdf(w, second.data[0].uuid);
    const payload = decodeQrFromPdf(pdf);
    expect(payload).not.toBeNull();
    expect(qrAmount(payload!)).toBe('289.55');
    expect(payload).toContain('//S1/10/');
    expect(payload).not.toContain('/32/');
    const text = pdfText(pdf);
    expect(text).toContain('1. Mahnung');
    expect(text).toContain('Mahngebühr');
    expect(text).toMatch(/Zu bezahlen CHF\s+289\.55/);

    // History on the invoice.
    const history = await ok(w, '/api/dunning/reminder/list', { invoiceUuid: invoice.uuid });
    expect(history.data.map((r: { level: number; fee: string }) => [r.level, r.fee])).toEqual([
      [1, '0.00'],
      [2, '20.00'],
    ]);

    // Paying the QR amount (open + fee) settles the invoice; it leaves the run; 1100 is cleared.
    await ok(w, '/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '289.55', date: '2025-05-05' });
    expect((await ok(w, '/api/invoice/detail', { id: invoice.uuid })).status).toBe(3);
    expect(await balance(w, '1100')).toBe('0.00');
    expect(await preview(w, '2025-06-30')).toEqual([]);
    const paid = await confirm(w, '2025-06-30', [{ invoiceUuid: invoice.uuid, level: 3, delivery: 'print' }]);
    expect(paid.status).toBe(409);
    expect(paid.body.fields).toHaveProperty('items.0.invoiceUuid');
  });

  it("the bank's credit of the reminder's QR amount (open + fee) with the invoice's reference pays the invoice", async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await ok(w, '/api/dunning/run/confirm', { date: '2025-04-10', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }] });
    await ok(w, '/api/dunning/run/confirm', { date: '2025-04-30', items: [{ invoiceUuid: invoice.uuid, level: 2, delivery: 'print' }] });
    const { paymentReference } = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    const notice = camt054('NTF-DUN-1', 'CH9300762011623852957', [{ direction: 'CRDT', amount: '289.55', bankRef: 'DUN-P1', date: '2025-05-08', reference: paymentReference }]);
    const imported = await w.api.request('POST', '/api/banking/integrations/transactions', notice, { 'content-type': 'application/xml' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ matched: 1, booked: 1 });
    expect(imported.body.transactions[0].invoice).toEqual({ uuid: invoice.uuid });
    expect((await ok(w, '/api/invoice/detail', { id: invoice.uuid })).status).toBe(3);
    expect(await balance(w, '1100')).toBe('0.00');
  });

  it('e-mails the letter to the customer contacts through the outbox, and a credited invoice leaves the run', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const noContact = await confirm(w, '2025-04-15', [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'email' }]);
    expect(noContact.status).toBe(400);
    expect(noContact.body.fields).toHaveProperty('items.0.contactIds');
    await ok(w, '/api/company/contact/insert', { company: { uuid: w.customer }, name: 'Anna Buchhaltung', email: 'anna@example.ch', lang: 'fr' });
    const [candidate] = await preview(w, '2025-04-15');
    expect(candidate.contacts).toHaveLength(1);
    const sent = await ok(w, '/api/dunning/run/confirm', { date: '2025-04-15', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'email' }] });
    expect(sent.data[0]).toMatchObject({ delivery: 'email', lang: 'fr', title: 'Rappel de paiement' });
    expect(sent.data[0].messageUuids).toHaveLength(1);
    const outbox = await ok(w, '/api/outbox/list', { page: 1, pageSize: 50 });
    const message = outbox.data.find((m: { uuid: string }) => m.uuid === sent.data[0].messageUuids[0]);
    expect(message).toMatchObject({ to: ['anna@example.ch'], documentRef: invoice.uuid });
    expect(message.subject).toContain('Rappel de paiement');
    expect(message.attachments[0].contentType).toBe('application/pdf');

    // A full credit note: nothing of the invoice is open any more, it leaves the run.
    const detail = await ok(w, '/api/invoice/detail', { id: invoice.uuid });
    await ok(w, '/api/invoice/credit-note/insert', { uuid: invoice.uuid, full: true, date: '2025-04-20', token: detail.creditToken });
    expect(await preview(w, '2025-06-30')).toEqual([]);
  });

  it('a part payment lowers the open amount of the run and the QR amount', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await ok(w, '/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '100.00', date: '2025-04-02' });
    const [candidate] = await preview(w, '2025-04-12');
    expect(candidate).toMatchObject({ openAmount: '169.55', principalOpen: '169.55', amountDue: '169.55' });
    const answer = await ok(w, '/api/dunning/run/confirm', { date: '2025-04-12', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }] });
    expect(qrAmount(decodeQrFromPdf(await reminderPdf(w, answer.data[0].uuid))!)).toBe('169.55');
  });

  it('keeps custom levels, fee account and interest; refuses bad settings naming the field', async () => {
    const w = await invoicingWorkplace(server);
    const got = await w.api.get('/api/dunning/settings');
    expect(got.status).toBe(200);
    expect(got.body.levels.map((l: { level: number; days: number; fee: string }) => [l.level, l.days, l.fee])).toEqual([
      [1, 10, '0.00'],
      [2, 20, '20.00'],
      [3, 20, '30.00'],
    ]);
    expect(got.body.feeAccount.number).toBe('3600');
    expect(got.body.interestRate).toBeNull();

    const levels = got.body.levels.map((l: { days: number; fee: string; texts: unknown }) => ({ days: l.days, fee: l.fee, texts: l.texts }));
    const bad = await w.api.post('/api/dunning/settings/update', { levels: [{ ...levels[0], fee: '-5' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('levels.0.fee');
    const badRate = await w.api.post('/api/dunning/settings/update', { levels, interestRate: '5' });
    expect(badRate.status).toBe(400);
    expect(badRate.body.fields).toHaveProperty('interestRate');
    const badAccount = await w.api.post('/api/dunning/settings/update', { levels, feeAccountId: await w.account('1100') });
    expect(badAccount.status).toBe(400);
    expect(badAccount.body.fields).toHaveProperty('feeAccountId');

    // One level, 5 days, fee 10.00 on 6950, 5 % interest.
    const finance = await w.account('6950');
    const saved = await ok(w, '/api/dunning/settings/update', { levels: [{ ...levels[1], days: 5, fee: '10.00' }], feeAccountId: finance, interestRate: '0.05' });
    expect(saved.levels).toHaveLength(1);
    expect(saved.feeAccount.number).toBe('6950');
    expect(saved.interestRate).toBe('0.05');
    const invoice = await sentInvoice(w);
    // 269.55 × 5 % × 36 / 365 = 1.329… → 1.33 (2025-03-31 → 2025-05-06).
    const [candidate] = await preview(w, '2025-05-06');
    expect(candidate).toMatchObject({ nextLevel: 1, isDue: true, fee: '10.00', interest: '1.33', amountDue: '280.88' });
    await ok(w, '/api/dunning/run/confirm', { date: '2025-05-06', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }] });
    expect(await balance(w, '1100')).toBe('280.88');
    expect(await balance(w, '6950')).toBe('-11.33');
    // The last level was sent: listed without a next level.
    expect((await preview(w, '2025-07-01'))[0]).toMatchObject({ currentLevel: 1, nextLevel: null, isDue: false });
  });

  it.runIf(engine === 'postgres')('20 parallel identical confirmations create one reminder and post the fee once', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await ok(w, '/api/dunning/run/confirm', { date: '2025-04-10', items: [{ invoiceUuid: invoice.uuid, level: 1, delivery: 'print' }] });
    const before = await entryCount(w);
    const body = { date: '2025-04-30', items: [{ invoiceUuid: invoice.uuid, level: 2, delivery: 'print' }] };
    const answers = await Promise.all(Array.from({ length: 20 }, () => w.api.post('/api/dunning/run/confirm', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.data[0].uuid)).size).toBe(1);
    expect(answers.filter((a) => !a.body.data[0].repeated)).toHaveLength(1);
    expect(await entryCount(w)).toBe(before + 1);
    expect(await balance(w, '1100')).toBe('289.55');
    expect((await ok(w, '/api/dunning/reminder/list', { invoiceUuid: invoice.uuid })).data).toHaveLength(2);
  });
});
