/**
 * What sending, paying and denying an invoice posts (issue #4 §3, audit §3, §5, §6, §7): revenue and
 * output VAT account per Swiss rate, revenue account per line, ledger dates on or after the sent
 * date, EUR invoices in CHF books at their fxRate, due dates and ageing from them. Real server,
 * both engines.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { decodeQrFromPdf, invoiceData, invoicingWorkplace, type InvoicingWorkplace } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Line = { account: { number: string; name: string }; amount: string; direction: number; currency: string; originalAmount: string; exchangeRate: string };

async function entryLines(w: InvoicingWorkplace, id: number): Promise<Line[]> {
  const response = await w.api.post('/api/accounting/entry/detail', { id });
  expect(response.status).toBe(200);
  return response.body.entryAccounts;
}
/** [account number, amount, direction] sorted by account number then direction. */
const summary = (lines: Line[]) =>
  lines.map((l) => [l.account.number, l.amount, l.direction] as const).sort((a, b) => a[0].localeCompare(b[0]) || a[2] - b[2]);

async function balance(w: InvoicingWorkplace, number: string, date = '2099-12-31'): Promise<string> {
  const response = await w.api.post('/api/accounting/balance/get', { date });
  return response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}
async function entryCount(w: InvoicingWorkplace): Promise<number> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}
async function insert(w: InvoicingWorkplace, data: Record<string, unknown>) {
  const response = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), ...data } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}
async function send(w: InvoicingWorkplace, uuid: string, ledgerDate = '2025-03-10') {
  const response = await w.api.post('/api/invoice/status/change', { uuid, status: 2, ledgerDate });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

describe('sending posts revenue and VAT per Swiss rate', () => {
  const cases = [
    { vat: '0.081', revenue: ['3200', 'Handelserlöse 8.1%'], output: ['2200', 'Geschuldete MWST (8.1%)'], tax: '8.10', total: '108.10' },
    { vat: '0.026', revenue: ['3201', 'Handelserlöse 2.6%'], output: ['2201', 'Geschuldete MWST (2.6%)'], tax: '2.60', total: '102.60' },
    { vat: '0.038', revenue: ['3202', 'Beherbergungserlöse 3.8%'], output: ['2202', 'Geschuldete MWST (3.8%)'], tax: '3.80', total: '103.80' },
    { vat: '0', revenue: ['3203', 'Erlöse steuerbefreit 0%'], output: null, tax: '0.00', total: '100.00' },
  ] as const;
  for (const c of cases) {
    it(`${c.vat}: debit 1100 ${c.total} / credit ${c.revenue[0]} 100.00${c.output ? ` / credit ${c.output[0]} ${c.tax}` : ''}`, async () => {
      const w = await invoicingWorkplace(server);
      const invoice = await insert(w, { vat: c.vat, items: [{ name: 'Service', amount: '1', price: '100' }] });
      expect(invoice.totals).toMatchObject({ net: '100.00', vat: c.tax, total: c.total, vatLines: [{ rate: c.vat, base: '100.00', vat: c.tax }] });
      const sent = await send(w, invoice.uuid);
      const lines = await entryLines(w, sent.entries[0].id);
      expect(summary(lines)).toEqual(
        [['1100', c.total, 1], [c.revenue[0], '100.00', -1], ...(c.output ? [[c.output[0], c.tax, -1]] : [])].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      );
      // Accounts the SME chart lacks are created with their chart name on first use.
      expect(lines.find((l) => l.account.number === c.revenue[0])!.account.name).toBe(c.revenue[1]);
      if (c.output) expect(lines.find((l) => l.account.number === c.output[0])!.account.name).toBe(c.output[1]);
      expect(await balance(w, '1100')).toBe(c.total);
    });
  }

  it('a mixed invoice books each line on its account and VAT per rate; denied reverses it all', async () => {
    const w = await invoicingWorkplace(server);
    const services = await w.account('3400');
    const invoice = await insert(w, {
      vat: '0.081',
      items: [
        { name: 'Consulting', amount: '2', price: '150', account: { id: services } },
        { name: 'Books', amount: '3', price: '19.90', vat: '0.026' },
        { name: 'Hotel night', amount: '1', price: '180', vat: '0.038' },
        { name: 'Export goods', amount: '1', price: '50', vat: '0' },
      ],
    });
    // VAT 300 × 8.1 % = 24.30; 59.70 × 2.6 % = 1.5522 → 1.55; 180 × 3.8 % = 6.84. Gross 622.39 → 622.40.
    expect(invoice.totals).toEqual({
      net: '589.70',
      vatRate: '0.081',
      vat: '32.69',
      vatLines: [
        { rate: '0.081', base: '300.00', vat: '24.30' },
        { rate: '0.038', base: '180.00', vat: '6.84' },
        { rate: '0.026', base: '59.70', vat: '1.55' },
        { rate: '0', base: '50.00', vat: '0.00' },
      ],
      gross: '622.39',
      rounding: '0.01',
      total: '622.40',
    });
    expect(invoice.items[0].account).toEqual({ id: services, number: '3400', name: 'Dienstleistungserlöse' });
    const sent = await send(w, invoice.uuid);
    expect(summary(await entryLines(w, sent.entries[0].id))).toEqual([
      ['1100', '622.40', 1],
      ['2200', '24.30', -1],
      ['2201', '1.55', -1],
      ['2202', '6.84', -1],
      ['3201', '59.70', -1],
      ['3202', '180.00', -1],
      ['3203', '50.00', -1],
      // The 5-Rappen rounding goes with the largest revenue.
      ['3400', '300.01', -1],
    ]);
    const denied = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4, ledgerDate: '2025-03-12' });
    expect(denied.status).toBe(200);
    for (const number of ['1100', '2200', '2201', '2202', '3201', '3202', '3203', '3400']) expect(await balance(w, number)).toBe('0.00');
  });

  it('refuses a line account that is no revenue account and a line VAT rate outside the Swiss list', async () => {
    const w = await invoicingWorkplace(server);
    const bank = await w.account('1020');
    const response = await w.api.post('/api/invoice/insert', {
      data: { ...invoiceData(w), items: [{ name: 'x', amount: '1', price: '1', account: { id: bank } }, { name: 'y', amount: '1', price: '1', vat: '0.05' }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.fields).toEqual({
      'data.items.0.account.id': 'choose one of your revenue ledger accounts (class 3)',
      'data.items.1.vat': 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0',
    });
    const created = await insert(w, {});
    const item = await w.api.post('/api/invoice/item/insert', { data: { invoice: { uuid: created.uuid }, name: 'z', amount: '1', price: '1', account: { id: bank } } });
    expect(item.body.fields).toEqual({ 'data.account.id': 'choose one of your revenue ledger accounts (class 3)' });
  });
});

describe('paid and denied are dated on or after the sent date', () => {
  it('400 on ledgerDate before the sent date, nothing written; the same day is fine', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, {});
    await send(w, invoice.uuid, '2025-03-10');
    const before = await entryCount(w);
    for (const status of [3, 4]) {
      const refused = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status, ledgerDate: '2025-03-09' });
      expect(refused.status).toBe(400);
      expect(refused.body.fields).toEqual({ ledgerDate: 'the ledger date must be on or after the date the invoice was sent (2025-03-10)' });
      expect(refused.body.code).toBe('ledger_date_before_sent');
    }
    expect(await entryCount(w)).toBe(before);
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
    const paid = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-03-10' });
    expect(paid.status).toBe(200);
  });

  it('without a ledgerDate, denied is dated today in Switzerland: at 23:30 UTC on 31 December that is 1 January', async () => {
    // Only Date is faked: the server's timers and the database's clock run as they are.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-31T23:30:00Z') });
    try {
      const w = await invoicingWorkplace(server);
      const invoice = await insert(w, { dateInvoice: '2026-12-20', dateDue: '2027-01-19' });
      await send(w, invoice.uuid, '2026-12-20');
      const denied = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4 });
      expect(denied.status, JSON.stringify(denied.body)).toBe(200);
      const entry = denied.body.entries.find((e: { kind: string }) => e.kind === 'denied');
      expect((await w.api.post('/api/accounting/entry/detail', { id: entry.id })).body.dateLedger).toBe('2027-01-01');
      // The debtors list's default date is the same day.
      expect((await w.api.post('/api/invoice/debtors', {})).body.date).toBe('2027-01-01');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('EUR invoices', () => {
  it('refuses other currencies, a missing or non-positive fxRate and a rate on a CHF invoice, with clear 400s', async () => {
    const w = await invoicingWorkplace(server);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ currency: 'USD' }, 'data.currency', 'invoices are in CHF or EUR, the currencies of the Swiss QR-bill (not USD)'],
      [{ currency: 'EUR' }, 'data.fxRate', 'give the exchange rate of the invoice: CHF per 1 EUR'],
      [{ currency: 'EUR', fxRate: '0' }, 'data.fxRate', 'the exchange rate must be a number greater than 0 (and below 1 000 000)'],
      [{ currency: 'EUR', fxRate: '-0.9' }, 'data.fxRate', 'the exchange rate must be a number greater than 0 (and below 1 000 000)'],
      [{ currency: 'EUR', fxRate: '1e3' }, 'data.fxRate', 'amount must be a decimal number with at most 10 decimals'],
      [{ currency: 'CHF', fxRate: '0.95' }, 'data.fxRate', 'an invoice in CHF, the currency of the books, has the exchange rate 1'],
    ];
    for (const [data, field, message] of cases) {
      const response = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), ...data } });
      expect(response.status, JSON.stringify(data)).toBe(400);
      expect(response.body.fields[field], JSON.stringify(data)).toBe(message);
      expect(JSON.stringify(response.body)).not.toMatch(/check constraint|violates/);
    }
    const chf = await insert(w, {});
    const toEur = await w.api.post('/api/invoice/update', { id: chf.uuid, data: { currency: 'EUR' } });
    expect(toEur.body.fields).toEqual({ 'data.fxRate': 'give the exchange rate of the invoice: CHF per 1 EUR' });
  });

  it('posts to the CHF books at its fxRate with originalAmount and exchangeRate; PDF and QR-bill in EUR; paid clears the receivable', async () => {
    const w = await invoicingWorkplace(server);
    // Net 249.33, VAT 20.20, total 269.53 EUR (no 5-Rappen rounding outside CHF).
    const invoice = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    expect(invoice).toMatchObject({ currency: 'EUR', fxRate: '0.93', baseCurrency: 'CHF', totals: { total: '269.53', rounding: '0.00' }, totalBase: '250.66' });
    expect(invoice.items.map((i: { currency: string; fxRate: string }) => [i.currency, i.fxRate])).toEqual([
      ['EUR', '0.93'],
      ['EUR', '0.93'],
    ]);
    const sent = await send(w, invoice.uuid);
    const lines = await entryLines(w, sent.entries[0].id);
    // 269.53 × 0.93 = 250.6629 → 250.66; 249.33 × 0.93 = 231.8769 → 231.88; 20.20 × 0.93 = 18.786 → 18.79:
    // credits are 0.01 above the debit, so 0.01 CHF is debited back to the revenue account.
    expect(lines.map((l) => [l.account.number, l.amount, l.direction, l.currency, l.originalAmount, l.exchangeRate])).toEqual([
      ['1100', '250.66', 1, 'EUR', '269.53', '0.93'],
      ['3200', '231.88', -1, 'EUR', '249.33', '0.93'],
      ['2200', '18.79', -1, 'EUR', '20.20', '0.93'],
      ['3200', '0.01', 1, 'CHF', '0.01', '1'],
    ]);
    expect(await balance(w, '1100')).toBe('250.66');
    const debtors = (await w.api.post('/api/invoice/debtors', { date: '2025-03-15' })).body;
    expect(debtors).toMatchObject({ currency: 'CHF', totals: { notDue: '250.66', total: '250.66' } });
    expect(debtors.data[0].documents[0]).toMatchObject({ currency: 'EUR', total: '269.53', totalBase: '250.66' });
    const apAr = (await w.api.post('/api/company/ap-ar', { uuid: w.customer })).body;
    expect(apAr.receivables[0]).toMatchObject({ amount: '250.66', currency: 'CHF' });

    const file = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` },
      body: JSON.stringify({ lang: 'en', uuid: invoice.uuid }),
    });
    expect(file.status).toBe(200);
    const payload = decodeQrFromPdf(Buffer.from(await file.arrayBuffer()))!.split(/\r?\n/);
    expect(payload.slice(18, 20)).toEqual(['269.53', 'EUR']);

    const paid = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-03-20' });
    expect(paid.status).toBe(200);
    expect((await entryLines(w, paid.body.entries[1].id)).map((l) => [l.account.number, l.amount, l.direction, l.currency, l.originalAmount])).toEqual([
      ['1020', '250.66', 1, 'EUR', '269.53'],
      ['1100', '250.66', -1, 'EUR', '269.53'],
    ]);
    expect(await balance(w, '1100')).toBe('0.00');
  });

  it('denied reverses an EUR invoice exactly, conversion line included', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, invoice.uuid);
    const denied = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4, ledgerDate: '2025-03-11' });
    expect(denied.status).toBe(200);
    for (const number of ['1100', '3200', '2200']) expect(await balance(w, number)).toBe('0.00');
  });
});

describe('realized exchange differences (docs/decisions/012)', () => {
  const lines = async (w: InvoicingWorkplace, id: number) =>
    (await entryLines(w, id)).map((l) => [l.account.number, l.amount, l.direction, l.currency, l.originalAmount, l.exchangeRate]);

  it('an EUR invoice paid with more CHF than booked: bank gets what it received, receivable zero, gain credited to 6952', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, invoice.uuid);
    // 269.53 EUR booked at 0.93 = 250.66 CHF; the bank credited 253.37 CHF (rate 0.94004…).
    const paid = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-04-02', amountBase: '253.37' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const [bank, receivable, gain] = await lines(w, paid.body.entries[1].id);
    expect(bank!.slice(0, 5)).toEqual(['1020', '253.37', 1, 'EUR', '269.53']);
    expect(receivable).toEqual(['1100', '250.66', -1, 'EUR', '269.53', '0.93']);
    expect(gain!.slice(0, 4)).toEqual(['6952', '2.71', -1, 'CHF']);
    // The 10-decimal settlement rate converts back to the bank's amount to the cent.
    expect((Number(bank![5]) * 269.53).toFixed(2)).toBe('253.37');
    expect(await balance(w, '1100')).toBe('0.00');
    expect(await balance(w, '6952')).toBe('-2.71');
    // Created on first use with the chart's name.
    const accounts = (await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' })).body.accounts;
    expect(accounts.find((a: { number: string }) => a.number === '6952').name).toBe('Kursgewinne');
  });

  it('paid with less CHF than booked: the loss is debited to 6942 Kursverluste', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, invoice.uuid);
    const paid = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 3, ledgerDate: '2025-04-02', amountBase: '248' });
    expect(paid.status).toBe(200);
    expect((await lines(w, paid.body.entries[1].id)).map((l) => l.slice(0, 3))).toEqual([
      ['1020', '248.00', 1],
      ['1100', '250.66', -1],
      ['6942', '2.66', 1],
    ]);
    expect(await balance(w, '1100')).toBe('0.00');
    expect(await balance(w, '6942')).toBe('2.66');
  });

  it('an EUR invoice paid in two parts: each part has its own exchange difference, the last clears the receivable to the cent', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, invoice.uuid);
    // 269.53 EUR booked at 0.93 = 250.66 CHF. 0.50 EUR converts to 0.47 and 269.03 EUR to 250.20: a cent more than is left.
    const first = await w.api.post('/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '0.50', date: '2025-04-02', amountBase: '0.47' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 2, openAmount: '269.03' });
    expect(await balance(w, '1100')).toBe('250.19');
    const last = await w.api.post('/api/invoice/payment/insert', { uuid: invoice.uuid, amount: '269.03', date: '2025-04-03', amountBase: '252.00' });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body).toMatchObject({ status: 3, openAmount: '0.00' });
    const [bank, receivable, gain] = await lines(w, last.body.payments[1].entryId);
    expect(bank!.slice(0, 5)).toEqual(['1020', '252.00', 1, 'EUR', '269.03']);
    expect(receivable!.slice(0, 5)).toEqual(['1100', '250.19', -1, 'EUR', '269.03']);
    expect(gain!.slice(0, 3)).toEqual(['6952', '1.81', -1]);
    expect(await balance(w, '1100')).toBe('0.00');
    // No fee or write-off in EUR: 400 naming the field, nothing booked.
    const other = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, other.uuid);
    const before = await entryCount(w);
    const fee = await w.api.post('/api/invoice/payment/insert', { uuid: other.uuid, amount: '200.00', fee: '1.00', date: '2025-04-02' });
    expect(fee.status).toBe(400);
    expect(Object.keys(fee.body.fields)).toEqual(['fee']);
    const writeOff = await w.api.post('/api/invoice/payment/insert', { uuid: other.uuid, amount: '269.00', writeOff: 'difference', date: '2025-04-02' });
    expect(writeOff.status).toBe(400);
    expect(Object.keys(writeOff.body.fields)).toEqual(['writeOff']);
    expect(await entryCount(w)).toBe(before);
  });

  it('refuses, naming amountBase and writing nothing: another amount on a CHF invoice, an implausible one, zero, and amountBase on sending', async () => {
    const w = await invoicingWorkplace(server);
    const chf = await insert(w, { items: [{ name: 'Service', amount: '1', price: '100' }] });
    const notYet = await w.api.post('/api/invoice/status/change', { uuid: chf.uuid, status: 2, ledgerDate: '2025-03-10', amountBase: '108.10' });
    expect(notYet.status).toBe(400);
    expect(notYet.body.fields).toEqual({ amountBase: 'the amount received is given only when the invoice is paid' });
    await send(w, chf.uuid);
    const eur = await insert(w, { currency: 'EUR', fxRate: '0.93' });
    await send(w, eur.uuid);
    const before = await entryCount(w);
    const cases: [string, string, string][] = [
      [chf.uuid, '108.00', 'the document is in CHF, the currency of the books: it is settled for its amount 108.10'],
      [eur.uuid, '320.00', '320.00 CHF is more than 25 % away from the booked 250.66 CHF: check the amount'],
      [eur.uuid, '0', 'must be greater than 0'],
    ];
    for (const [uuid, amountBase, message] of cases) {
      const refused = await w.api.post('/api/invoice/status/change', { uuid, status: 3, ledgerDate: '2025-04-02', amountBase });
      expect(refused.status, amountBase).toBe(400);
      expect(refused.body.fields).toEqual({ amountBase: message });
    }
    const malformed = await w.api.post('/api/invoice/status/change', { uuid: eur.uuid, status: 3, amountBase: '12.345' });
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.body.fields)).toEqual(['amountBase']);
    expect(await entryCount(w)).toBe(before);
    expect((await w.api.post('/api/invoice/detail', { id: eur.uuid })).body.status).toBe(2);
    // The booked amount itself is no difference: two lines, as without amountBase.
    const exact = await w.api.post('/api/invoice/status/change', { uuid: chf.uuid, status: 3, ledgerDate: '2025-04-02', amountBase: '108.10' });
    expect(exact.status).toBe(200);
    expect(await lines(w, exact.body.entries[1].id)).toHaveLength(2);
  });
});

describe('due dates and ageing', () => {
  it('defaults the due date to the invoice date + 30 days, refuses one before the invoice date, keeps the term on a new invoice date', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await insert(w, { dateInvoice: '2025-01-31', dateDue: undefined });
    expect(invoice).toMatchObject({ dateDue: '2025-03-02', paymentTermDays: 30 });
    const refused = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), dateInvoice: '2025-03-01', dateDue: '2025-02-28' } });
    expect(refused.body.fields).toEqual({ 'data.dateDue': 'the due date cannot be before the invoice date' });
    const term = await insert(w, { dateInvoice: '2025-03-01', dateDue: '2025-03-11' });
    const moved = await w.api.post('/api/invoice/update', { id: term.uuid, data: { dateInvoice: '2025-04-01' } });
    expect(moved.body).toMatchObject({ dateInvoice: '2025-04-01', dateDue: '2025-04-11', paymentTermDays: 10 });
    const cleared = await w.api.post('/api/invoice/update', { id: term.uuid, data: { dateDue: null } });
    expect(cleared.body).toMatchObject({ dateDue: '2025-05-01', paymentTermDays: 30 });
  });

  it('ages open invoices by days overdue from the due date: not yet due, 0–30, 31–60, 61–90, > 90', async () => {
    const w = await invoicingWorkplace(server);
    // Aged at 2025-06-30. Due dates: 07-10 (not due), 06-30 (0 days), 05-20 (41), 04-15 (76), 03-01 (121).
    const dues = ['2025-07-10', '2025-06-30', '2025-05-20', '2025-04-15', '2025-03-01'];
    for (const dateDue of dues) {
      const invoice = await insert(w, { dateInvoice: '2025-02-01', dateDue, items: [{ name: 'x', amount: '1', price: '100' }] });
      await send(w, invoice.uuid, '2025-02-01');
    }
    const pending = await insert(w, { dateDue: '2025-01-01', dateInvoice: '2025-01-01' });
    expect(pending.status).toBe(1);
    const debtors = (await w.api.post('/api/invoice/debtors', { date: '2025-06-30' })).body;
    expect(debtors.data).toHaveLength(1);
    expect(debtors.data[0].buckets).toEqual({ notDue: '108.10', d0_30: '108.10', d31_60: '108.10', d61_90: '108.10', d90plus: '108.10' });
    expect(debtors.data[0].documents.map((d: { dateDue: string; daysOverdue: number }) => [d.dateDue, d.daysOverdue])).toEqual([
      ['2025-03-01', 121],
      ['2025-04-15', 76],
      ['2025-05-20', 41],
      ['2025-06-30', 0],
      ['2025-07-10', -10],
    ]);
    expect(debtors.totals).toEqual({ notDue: '108.10', d0_30: '108.10', d31_60: '108.10', d61_90: '108.10', d90plus: '108.10', total: '540.50' });
  });
});
