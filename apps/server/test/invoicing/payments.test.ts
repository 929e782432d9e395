/**
 * Payments of sales invoices (issue 14 §3, decision 021) over HTTP on both engines: part payments,
 * two part payments → paid, cash discount within and above the tolerance with its VAT reduction
 * (R81 → Ziffer 235), small difference, fee deducted by the payer, reversal reopening the invoice,
 * the one-time token under 20 parallel calls (PostgreSQL), bad input naming the field, and the VAT
 * return on both bases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace, accountBalance, journalEntryCount, ok } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Line = { account: { number: string }; amount: string; direction: number; vat: { code: string; role: string; base: string; amount: string } | null };

const balance = accountBalance;
const entryCount = (w: InvoicingWorkplace) => journalEntryCount(server, w);
async function lines(w: InvoicingWorkplace, id: number): Promise<[string, string, number, string | null][]> {
  const entry = await ok(w, '/api/accounting/entry/detail', { id });
  return (entry.entryAccounts as Line[])
    .map((l) => [l.account.number, l.amount, l.direction, l.vat ? `${l.vat.code}/${l.vat.role}` : null] as [string, string, number, string | null])
    .sort((a, b) => a[0].localeCompare(b[0]));
}
/** A sent CHF invoice of 1000.00 net + 8.1 % = 1081.00, sent on 2024-04-02. */
async function sentInvoice(w: InvoicingWorkplace, price = '1000.00') {
  const created = await ok(w, '/api/invoice/insert', {
    data: { ...invoiceData(w), dateInvoice: '2024-04-02', dateDue: '2024-05-02', items: [{ name: 'Work', amount: '1', price }] },
  });
  await ok(w, '/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: '2024-04-02' });
  return created.uuid as string;
}
const pay = (w: InvoicingWorkplace, uuid: string, body: Record<string, unknown>) => w.api.post('/api/invoice/payment/insert', { uuid, ...body });

describe('part payments', () => {
  let w: InvoicingWorkplace;
  beforeAll(async () => {
    w = await invoicingWorkplace(server);
  });

  it('a part payment leaves the invoice sent with its open amount; the second pays it', async () => {
    const uuid = await sentInvoice(w);
    const first = await pay(w, uuid, { amount: '400.00', date: '2024-04-10' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 2, openAmount: '681.00' });
    expect(first.body.payments).toHaveLength(1);
    expect(first.body.payments[0]).toMatchObject({ amount: '400.00', fee: '0.00', writeOff: '0.00', date: '2024-04-10', bankAccount: { number: '1020' }, reversed: null });
    expect(await lines(w, first.body.payments[0].entryId)).toEqual([
      ['1020', '400.00', 1, null],
      ['1100', '400.00', -1, null],
    ]);
    expect(await balance(w, '1100')).toBe('681.00');
    const second = await pay(w, uuid, { amount: '681.00', date: '2024-04-20' });
    expect(second.body).toMatchObject({ status: 3, statusName: 'paid', openAmount: '0.00', ledgerDate: '2024-04-20' });
    expect(second.body.payments.map((p: { amount: string }) => p.amount)).toEqual(['400.00', '681.00']);
    expect(await balance(w, '1100')).toBe('0.00');
    // Paid: a third payment is a conflict and books nothing.
    const before = await entryCount(w);
    const third = await pay(w, uuid, { amount: '1.00' });
    expect(third.status).toBe(409);
    expect(third.body.code).toBe('already_done');
    expect(await entryCount(w)).toBe(before);
  });

  it('status/change to paid pays the open rest; the debtors list shows open amounts', async () => {
    const uuid = await sentInvoice(w, '200.00');
    await ok(w, '/api/invoice/payment/insert', { uuid, amount: '16.20', date: '2024-04-05' });
    const debtors = await ok(w, '/api/invoice/debtors', {});
    const row = (debtors.data ?? debtors).find((d: { company: { uuid: string } }) => d.company.uuid === w.customer);
    expect(row).toBeDefined();
    // Ageing counts what is open: 216.20 less the 16.20 paid.
    expect(row.total).toBe('200.00');
    expect(row.documents[0]).toMatchObject({ total: '216.20', openAmount: '200.00', openAmountBase: '200.00' });
    const paid = await ok(w, '/api/invoice/status/change', { uuid, status: 3, ledgerDate: '2024-04-06' });
    expect(paid.status).toBe(3);
    const detail = await ok(w, '/api/invoice/detail', { id: uuid });
    expect(detail.payments.map((p: { amount: string }) => p.amount)).toEqual(['16.20', '200.00']);
    expect(detail.openAmount).toBe('0.00');
    expect(typeof detail.payToken).toBe('string');
  });

  it('refuses bad input with 400 naming the field, and books nothing', async () => {
    const uuid = await sentInvoice(w);
    const before = await entryCount(w);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '1081.01' }, 'amount'],
      [{ amount: '-5.00' }, 'amount'],
      [{ amount: 'abc' }, 'amount'],
      [{ amount: '0.00' }, 'amount'],
      [{ amount: '100.00', fee: '-1' }, 'fee'],
      [{ amount: '100.00', date: '2024-04-01' }, 'date'],
      [{ amount: '100.00', date: '2024-02-30' }, 'date'],
      [{ amount: '100.00', bankAccount: { id: await w.account('3200') } }, 'bankAccount.id'],
      [{ amount: '100.00', bankAccount: { id: 999999 } }, 'bankAccount.id'],
      [{ amount: '1000.00', writeOff: 'discount' }, 'amount'],
      [{ amount: '1000.00', writeOff: 'gift' }, 'writeOff'],
    ];
    for (const [body, field] of cases) {
      const answer = await pay(w, uuid, body);
      expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    expect(await entryCount(w)).toBe(before);
    // A pending invoice cannot be paid.
    const pending = await ok(w, '/api/invoice/insert', { data: invoiceData(w) });
    expect((await pay(w, pending.uuid, { amount: '1.00' })).status).toBe(409);
    // An unknown payment cannot be reversed.
    expect((await w.api.post('/api/invoice/payment/reverse', { uuid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});

describe('differences: cash discount, small difference, fees', () => {
  let w: InvoicingWorkplace;
  beforeAll(async () => {
    w = await invoicingWorkplace(server);
  });

  it('a 2 % cash discount within the tolerance books 3800 and the VAT reduction (R81) in its own entry', async () => {
    const uuid = await sentInvoice(w);
    // 1081.00 less 2 % = 21.62 → 1059.38 received.
    const paid = await pay(w, uuid, { amount: '1059.38', date: '2024-04-12', writeOff: 'discount' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ status: 3, openAmount: '0.00' });
    const payment = paid.body.payments[0];
    expect(payment).toMatchObject({ amount: '1059.38', writeOff: '21.62', writeOffKind: 'discount' });
    expect(await lines(w, payment.entryId)).toEqual([
      ['1020', '1059.38', 1, null],
      ['1100', '1059.38', -1, null],
    ]);
    // 21.62 × 8.1 / 108.1 = 1.62 tax, 20.00 net.
    expect(await lines(w, payment.writeOffEntryId)).toEqual([
      ['1100', '21.62', -1, null],
      ['2200', '1.62', 1, 'R81/tax'],
      ['3800', '20.00', 1, 'R81/base'],
    ]);
    expect(await balance(w, '1100')).toBe('0.00');
  });

  it('refuses a discount above the tolerance, takes it after the tolerance is raised', async () => {
    const uuid = await sentInvoice(w);
    // 3 % = 32.43 > 2 % of 1081.00 (21.62) and > 5.00.
    const refused = await pay(w, uuid, { amount: '1048.57', date: '2024-04-12', writeOff: 'discount' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.amount).toMatch(/tolerance/);
    expect((await w.api.get('/api/accounting/settings/payment-tolerance')).body).toEqual({ percent: '2.00', amount: '5.00' });
    const bad = await w.api.post('/api/accounting/settings/payment-tolerance', { percent: '11', amount: '5.00' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.percent).toBeDefined();
    expect(await ok(w, '/api/accounting/settings/payment-tolerance', { percent: '3.00', amount: '5.00' })).toEqual({ percent: '3.00', amount: '5.00' });
    const paid = await pay(w, uuid, { amount: '1048.57', date: '2024-04-12', writeOff: 'discount' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.payments[0].writeOff).toBe('32.43');
    await ok(w, '/api/accounting/settings/payment-tolerance', { percent: '2.00', amount: '5.00' });
  });

  it('a small difference goes to 6943 without VAT; a fee deducted by the payer to 6940', async () => {
    const uuid = await sentInvoice(w);
    const paid = await pay(w, uuid, { amount: '1075.00', fee: '3.00', date: '2024-04-15', writeOff: 'difference' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const payment = paid.body.payments[0];
    expect(payment).toMatchObject({ amount: '1075.00', fee: '3.00', writeOff: '3.00', writeOffKind: 'difference' });
    expect(await lines(w, payment.entryId)).toEqual([
      ['1020', '1075.00', 1, null],
      ['1100', '1078.00', -1, null],
      ['6940', '3.00', 1, null],
    ]);
    expect(await lines(w, payment.writeOffEntryId)).toEqual([
      ['1100', '3.00', -1, null],
      ['6943', '3.00', 1, null],
    ]);
    expect(paid.body.status).toBe(3);
  });
});

describe('reversal', () => {
  it('reverses one payment with storno entries, reopens the invoice, and reverses once', async () => {
    const w = await invoicingWorkplace(server);
    const uuid = await sentInvoice(w);
    await ok(w, '/api/invoice/payment/insert', { uuid, amount: '81.00', date: '2024-04-05' });
    const paid = await ok(w, '/api/invoice/payment/insert', { uuid, amount: '980.00', date: '2024-04-09', writeOff: 'discount' });
    expect(paid.status).toBe(3);
    const last = paid.payments[1];
    const early = await w.api.post('/api/invoice/payment/reverse', { uuid: last.uuid, date: '2024-04-08' });
    expect(early.status).toBe(400);
    expect(early.body.fields.date).toBeDefined();
    const reversed = await ok(w, '/api/invoice/payment/reverse', { uuid: last.uuid, date: '2024-04-30' });
    expect(reversed).toMatchObject({ status: 2, openAmount: '1000.00' });
    const mark = reversed.payments[1].reversed;
    expect(mark).toMatchObject({ date: '2024-04-30' });
    expect(await lines(w, mark.entryId)).toEqual([
      ['1020', '980.00', -1, null],
      ['1100', '980.00', 1, null],
    ]);
    expect(await lines(w, mark.writeOffEntryId)).toEqual([
      ['1100', '20.00', 1, null],
      ['2200', '1.50', -1, 'R81/tax'],
      ['3800', '18.50', -1, 'R81/base'],
    ]);
    expect(await balance(w, '1100')).toBe('1000.00');
    expect(await balance(w, '3800')).toBe('0.00');
    const again = await w.api.post('/api/invoice/payment/reverse', { uuid: last.uuid });
    expect(again.status).toBe(409);
    // The storno entries belong to the invoice: the journal names it.
    expect((await ok(w, '/api/invoice/by-entry', { id: mark.entryId })).uuid).toBe(uuid);
    // A partly paid invoice cannot be denied until its payments are reversed.
    expect((await w.api.post('/api/invoice/status/change', { uuid, status: 4, ledgerDate: '2024-05-01' })).status).toBe(409);
  });
});

describe.runIf(engine === 'postgres')('one-time token under parallel calls', () => {
  it('20 parallel calls with the detail token book one payment and answer the same invoice', async () => {
    const w = await invoicingWorkplace(server);
    const uuid = await sentInvoice(w);
    const { payToken } = await ok(w, '/api/invoice/detail', { id: uuid });
    const before = await entryCount(w);
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(w, uuid, { amount: '500.00', date: '2024-04-10', token: payToken })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const answer of answers) expect(answer.body).toMatchObject({ openAmount: '581.00', payments: [{ amount: '500.00' }] });
    expect(await entryCount(w)).toBe(before + 1);
    // 20 parallel calls without a token paying the rest: one pays, the others are refused.
    const rest = await Promise.all(Array.from({ length: 20 }, () => pay(w, uuid, { amount: '581.00', date: '2024-04-11' })));
    expect(rest.filter((a) => a.status === 200)).toHaveLength(1);
    expect(rest.filter((a) => a.status !== 200).every((a) => a.status === 409 || a.status === 400)).toBe(true);
    expect(await entryCount(w)).toBe(before + 2);
    expect(await balance(w, '1100')).toBe('0.00');
  });
});

describe('the VAT return counts payments and cash discounts', () => {
  const VAT_NUMBER = 'CHE-116.281.710 MWST';
  const Q2 = { dateFrom: '2024-04-01', dateTo: '2024-06-30' };
  const Q3 = { dateFrom: '2024-07-01', dateTo: '2024-09-30' };
  const settings = (basis: 'agreed' | 'received') => ({ vatNumber: VAT_NUMBER, registrationDate: '2020-01-01', method: 'effective', basis, period: 'quarterly', netTaxRates: [] });
  const figures = async (w: InvoicingWorkplace, period: typeof Q2) => (await ok(w, '/api/accounting/vat/return/compute', period)).figures;
  const rows = (f: { taxLines: { ziffer: string; ratePercent: string; base: string; tax: string }[] }) =>
    f.taxLines.filter((l) => l.base !== '0.00' || l.tax !== '0.00').map((l) => `${l.ziffer} ${l.ratePercent} ${l.base} ${l.tax}`);

  it('agreed: turnover when sent, the discount as 235 reduction; received: only money received, part by part', async () => {
    const w = await invoicingWorkplace(server);
    const uuid = await sentInvoice(w);
    // Q2: 540.50 received (half); Q3: 519.88 received and 21.62 cash discount.
    await ok(w, '/api/invoice/payment/insert', { uuid, amount: '540.50', date: '2024-06-20' });
    await ok(w, '/api/invoice/payment/insert', { uuid, amount: '518.88', date: '2024-07-03', writeOff: 'discount' });

    await ok(w, '/api/accounting/vat/settings/update', { data: settings('agreed') });
    const agreedQ2 = await figures(w, Q2);
    expect(agreedQ2.figures['200']).toBe('1000.00');
    expect(rows(agreedQ2)).toEqual(['303 8.1 1000.00 81.00']);
    const agreedQ3 = await figures(w, Q3);
    // The discount 21.62 = 20.00 net + 1.62 tax: 235 = 20.00 and off 303.
    expect(agreedQ3.figures['235']).toBe('20.00');
    expect(rows(agreedQ3)).toEqual(['303 8.1 -20.00 -1.62']);

    await ok(w, '/api/accounting/vat/settings/update', { data: settings('received') });
    const receivedQ2 = await figures(w, Q2);
    // Half the 1081.00 received: half of 1000.00 / 81.00.
    expect(rows(receivedQ2)).toEqual(['303 8.1 500.00 40.50']);
    // The discount's share of what was received (10.20 of 510.20 turnover) shows in 235, as on the agreed basis.
    expect([receivedQ2.figures['200'], receivedQ2.figures['235']]).toEqual(['510.20', '10.20']);
    const receivedQ3 = await figures(w, Q3);
    // 518.88 received = the rest of 1059.38 (1081.00 less the discount): 480.00 + 38.88 tax in 303 net of the reduction.
    const q3Rows = rows(receivedQ3);
    const net = q3Rows.reduce((sum, r) => sum + Number(r.split(' ')[2]), 0);
    const tax = q3Rows.reduce((sum, r) => sum + Number(r.split(' ')[3]), 0);
    expect(net.toFixed(2)).toBe('480.00');
    expect(tax.toFixed(2)).toBe('38.88');
    // Over both quarters the received basis taxes exactly what the agreed basis does: 980.00 / 79.38.
    expect((500 + net).toFixed(2)).toBe('980.00');
    expect((40.5 + tax).toFixed(2)).toBe('79.38');
  });
});

describe('the list with amounts', () => {
  it("answers each invoice's payments, credit notes and open amount as its detail does, in one page", async () => {
    const w = await invoicingWorkplace(server);
    const partly = await sentInvoice(w);
    const first = await ok(w, '/api/invoice/payment/insert', { uuid: partly, amount: '300.00', date: '2024-04-10', fee: '2.00' });
    const second = await ok(w, '/api/invoice/payment/insert', { uuid: partly, amount: '100.00', date: '2024-04-12' });
    await ok(w, '/api/invoice/payment/reverse', { uuid: second.payments[1].uuid, date: '2024-04-20' });
    const credited = await sentInvoice(w, '500.00');
    const detail = await ok(w, '/api/invoice/detail', { id: credited });
    await ok(w, '/api/invoice/credit-note/insert', { uuid: credited, lines: [{ itemId: detail.items[0].id, amount: '100.00' }], date: '2024-04-15', token: detail.creditToken });
    const untouched = await sentInvoice(w, '200.00');
    expect(first.payments).toHaveLength(1);

    const page = await ok(w, '/api/invoice/list-w-amounts', {});
    expect(page.data).toHaveLength(3);
    const listed = new Map(page.data.map((invoice: { uuid: string }) => [invoice.uuid, invoice]));
    for (const uuid of [partly, credited, untouched]) {
      const { payToken: _pay, creditToken: _credit, ...expected } = await ok(w, '/api/invoice/detail', { id: uuid });
      expect(listed.get(uuid)).toEqual(expected);
    }
    // 1081.00 less 302.00 paid with the fee; the reversed 100.00 counts no more.
    expect(listed.get(partly)).toMatchObject({ openAmount: '779.00', creditNotes: [] });
    expect((listed.get(partly) as { payments: { reversed: unknown; bankAccount: { number: string } }[] }).payments.map((p) => [p.bankAccount.number, p.reversed !== null])).toEqual([
      ['1020', false],
      ['1020', true],
    ]);
    // 540.50 less the credit note of 100.00 net + 8.1 % VAT.
    expect(listed.get(credited)).toMatchObject({ openAmount: '432.40', payments: [] });
    expect((listed.get(credited) as { creditNotes: unknown[] }).creditNotes).toHaveLength(1);
    expect(listed.get(untouched)).toMatchObject({ openAmount: '216.20', payments: [], creditNotes: [] });
  });
});
