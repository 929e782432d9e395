/**
 * Analytics of a year (spec §7.1 "Analytics", issue 12 §4), the dashboard counts of a year (spec
 * §2.4) and the account balance snapshot (spec §3), over HTTP on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAddress, createCompany } from '../../src/modules/companies/companies.service.js';
import { postJournalEntry } from '../../src/modules/accounting/accounting.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from '../accounting/ledger.js';
import { invoiceData, invoicingWorkplace, memberClient, type InvoicingWorkplace } from '../invoicing/support.js';
import { QR_REF, supplier, type Supplier } from '../payables/setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const analytics = (wp: { api: InvoicingWorkplace['api'] }, kind: string, year: number) => wp.api.post(`/api/accounting/analytics/${kind}`, { year });
/** [label, amount, share, documents] of each row, in the answer's order. */
const rowsOf = (body: any) => body.rows.map((row: any) => [row.label, row.amount, row.share, row.documents]);

describe('revenue by customer and expenses by supplier', () => {
  let wp: InvoicingWorkplace;
  let customerB: string;
  let addressB: number;
  let supplierX: Supplier;
  let supplierY: Supplier;

  /** A CHF invoice of one line `net` at 8.1 % (or as `over` says), sent at `sent`. */
  async function sentInvoice(company: string, address: number, net: string, sent: string, over: Record<string, unknown> = {}) {
    const created = await wp.api.post('/api/invoice/insert', {
      data: { ...invoiceData(wp), company: { uuid: company }, address: { id: address }, dateInvoice: sent, dateDue: sent, items: [{ name: 'Service', amount: '1', price: net }], ...over },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const answer = await wp.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: sent });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  async function bookedBill(data: Record<string, unknown>) {
    const created = await wp.api.post('/api/payable/insert', { data });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const approved = await wp.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    return approved.body;
  }
  const bill = (from: Supplier, date: string, amount: string, vatAmount: string, expense = '6500') =>
    (async () =>
      bookedBill({
        company: { uuid: from.uuid },
        companyFinance: { id: from.qrProfile },
        referenceNumber: QR_REF,
        date,
        amount,
        vatAmount,
        expenseAccount: { id: await wp.account(expense) },
      }))();

  beforeAll(async () => {
    wp = await invoicingWorkplace(server);
    ({ customerB, addressB } = await server.db.withInstance(wp.instanceId, async (tx) => {
      const uuid = await createCompany(tx, wp.instanceId, { name: 'Berner Kunde GmbH' });
      const address = await createAddress(tx, wp.instanceId, uuid, { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', countryId: 1 });
      return { customerB: uuid, addressB: address };
    }));
    supplierX = await supplier(server, wp.instanceId, 'Xaver Büro AG');
    supplierY = await supplier(server, wp.instanceId, 'Ypsilon Druck AG');

    // Customer A (Simon Muster AG): 1000.00 on the year's last day, 500.00 in June, and an EUR
    // invoice of 100.00 EUR at 0.95 (95.00 CHF net); 700.00 on 1 January of the next year is not 2024.
    const a1 = await sentInvoice(wp.customer, wp.address, '1000.00', '2024-12-31');
    await sentInvoice(wp.customer, wp.address, '500.00', '2024-06-01');
    await sentInvoice(wp.customer, wp.address, '100.00', '2024-07-01', { currency: 'EUR', fxRate: '0.95' });
    await sentInvoice(wp.customer, wp.address, '700.00', '2025-01-01');
    // Paying in the next year changes no revenue.
    expect((await wp.api.post('/api/invoice/status/change', { uuid: a1.uuid, status: 3, ledgerDate: '2025-01-10' })).status).toBe(200);
    // Customer B: 2000.00 on the year's first day; 300.00 sent and denied within the year (nets out);
    // 50.00 sent in 2023 and denied in 2024: the denial subtracts in 2024, like a credit note.
    await sentInvoice(customerB, addressB, '2000.00', '2024-01-01');
    const denied = await sentInvoice(customerB, addressB, '300.00', '2024-03-01');
    expect((await wp.api.post('/api/invoice/status/change', { uuid: denied.uuid, status: 4, ledgerDate: '2024-04-01' })).status).toBe(200);
    const late = await sentInvoice(customerB, addressB, '50.00', '2023-12-31');
    expect((await wp.api.post('/api/invoice/status/change', { uuid: late.uuid, status: 4, ledgerDate: '2024-01-05' })).status).toBe(200);

    // Supplier X: 1081.00 gross with 81.00 input VAT on the year's last day (1000.00 net); 200.00 on
    // 1 January of the next year. Supplier Y: 540.50 gross, 40.50 VAT on the year's first day (500.00
    // net), and 300.00 booked and cancelled within the year. A staff expense of 64.80 (4.86 VAT).
    const lastOf2024 = await bill(supplierX, '2024-12-31', '1081.00', '81.00');
    await bill(supplierX, '2025-01-01', '200.00', '0');
    // Grouped for payment on the year's last day: the group counts for 2024, the bill stays an expense.
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: [lastOf2024.uuid] }, executionDate: '2024-12-31' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    await bill(supplierY, '2024-01-01', '540.50', '40.50', '4000');
    const cancelled = await bill(supplierY, '2024-05-01', '300.00', '0');
    expect((await wp.api.post('/api/payable/update', { uuid: cancelled.uuid, data: { status: 5, statusDate: '2024-06-01' } })).status).toBe(200);
    await bookedBill({ isExpense: true, date: '2024-08-15', amount: '64.80', vatAmount: '4.86', description: 'Zugbillett' });
    // A bill for an investment (a balance-sheet account) is not an expense.
    await bill(supplierY, '2024-09-01', '5000.00', '0', '1520');
  });

  it('revenue-by-customer: net of VAT in CHF by ledger date, denials subtracted, sorted by amount descending', async () => {
    const response = await analytics(wp, 'revenue-by-customer', 2024);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ kind: 'revenue-by-customer', year: 2024, dateFrom: '2024-01-01', dateTo: '2024-12-31', total: '3545.00' });
    // B: 2000 + 300 − 300 − 50 = 1950.00; A: 1000 + 500 + 95 = 1595.00.
    expect(rowsOf(response.body)).toEqual([
      ['Berner Kunde GmbH', '1950.00', '55.0', 3],
      ['Simon Muster AG', '1595.00', '45.0', 3],
    ]);
    expect(response.body.rows[0]).toMatchObject({ id: null, uuid: customerB, number: null, name: 'Berner Kunde GmbH', link: `/company/${customerB}/ap-ar` });

    const next = await analytics(wp, 'revenue-by-customer', 2025);
    expect(rowsOf(next.body)).toEqual([['Simon Muster AG', '700.00', '100.0', 1]]);
    const before = await analytics(wp, 'revenue-by-customer', 2023);
    expect(rowsOf(before.body)).toEqual([['Berner Kunde GmbH', '50.00', '100.0', 1]]);
    const empty = await analytics(wp, 'revenue-by-customer', 2022);
    expect(empty.body).toMatchObject({ total: '0.00', rows: [] });
  });

  it('expenses-by-supplier: net of input VAT, cancelled bookings subtracted, staff expenses as one row, investments left out', async () => {
    const response = await analytics(wp, 'expenses-by-supplier', 2024);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.total).toBe('1559.94');
    expect(rowsOf(response.body)).toEqual([
      ['Xaver Büro AG', '1000.00', '64.1', 1],
      ['Ypsilon Druck AG', '500.00', '32.1', 2],
      ['Staff expenses', '59.94', '3.8', 1],
    ]);
    expect(response.body.rows[0]).toMatchObject({ uuid: supplierX.uuid, link: `/company/${supplierX.uuid}/ap-ar` });
    expect(response.body.rows[2]).toMatchObject({ uuid: null, link: '/bill' });
    expect(rowsOf((await analytics(wp, 'expenses-by-supplier', 2025)).body)).toEqual([['Xaver Büro AG', '200.00', '100.0', 1]]);
  });

  it('counts the documents of a year for the dashboard tiles; without a year all of them', async () => {
    // Mails by the day they arrived in Switzerland: 23:30 on 31 Dec is 2024, 00:30 on 1 Jan is 2025.
    for (const receivedAt of ['2024-12-31T22:30:00Z', '2024-12-31T23:30:00Z']) {
      const mail = await wp.api.post('/api/mail/insert', { data: { from: 'rechnung@lieferant.ch', receivedAt } });
      expect(mail.status, JSON.stringify(mail.body)).toBe(200);
    }
    const all = await wp.api.get('/api/analytics/counts');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ Mail: 2, Payable: 6, TransactionGroup: 1, Invoice: 7 });
    const of2024 = await wp.api.get('/api/analytics/counts?year=2024');
    expect(of2024.body).toEqual({ Mail: 1, Payable: 5, TransactionGroup: 1, Invoice: 5 });
    const of2025 = await wp.api.get('/api/analytics/counts?year=2025');
    expect(of2025.body).toEqual({ Mail: 1, Payable: 1, TransactionGroup: 0, Invoice: 1 });
    const bad = await wp.api.get('/api/analytics/counts?year=24x');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['year']);
  });

  it('refuses an unknown kind naming `kind` with the list, and a bad year naming `year`; readers may read', async () => {
    const unknown = await analytics(wp, 'profit-by-moon', 2024);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation');
    expect(unknown.body.fields.kind).toBe('must be one of revenue-by-customer, expenses-by-supplier, revenue-by-account, expenses-by-account');
    for (const body of [{}, { year: '2024' }, { year: 1899 }, { year: 2024.5 }, { year: 2024, extra: 1 }]) {
      const bad = await wp.api.post('/api/accounting/analytics/revenue-by-customer', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(bad.body.fields).length, JSON.stringify(bad.body)).toBe(1);
    }
    const viewer = await memberClient(server, wp, 'viewer');
    const read = await viewer.post('/api/accounting/analytics/revenue-by-customer', { year: 2024 });
    expect(read.status).toBe(200);
    expect(read.body.total).toBe('3545.00');
    expect((await viewer.get('/api/analytics/counts?year=2024')).status).toBe(200);
  });

  it('with a July–June fiscal year, year 2024 is the fiscal year 2024/25 (named by its start): analyses and tile counts', async () => {
    expect((await wp.api.post('/api/accounting/settings/update', { fiscalYearStartMonth: 7 })).status).toBe(200);
    try {
      const revenue = await analytics(wp, 'revenue-by-customer', 2024);
      expect(revenue.body).toMatchObject({ year: 2024, label: '2024/25', dateFrom: '2024-07-01', dateTo: '2025-06-30', total: '1795.00' });
      // A: the EUR invoice of 1 July (95.00), 1000.00 on 31 December and 700.00 on 1 January; B's documents are all before July 2024.
      expect(rowsOf(revenue.body)).toEqual([['Simon Muster AG', '1795.00', '100.0', 3]]);
      const earlier = await analytics(wp, 'revenue-by-customer', 2023);
      // 2023/24: B's 2000.00, its 300.00 and 50.00 each sent and denied within it; A's 500.00 of June.
      expect(earlier.body).toMatchObject({ label: '2023/24', dateFrom: '2023-07-01', dateTo: '2024-06-30', total: '2500.00' });
      expect(rowsOf(earlier.body)).toEqual([
        ['Berner Kunde GmbH', '2000.00', '80.0', 3],
        ['Simon Muster AG', '500.00', '20.0', 1],
      ]);
      // Bills: 31 Dec, 1 Jan, the staff expense of 15 Aug and the investment of 1 Sep; the group of
      // 31 Dec; invoices of 1 Jul, 31 Dec and 1 Jan; both mails (31 Dec and 1 Jan in Switzerland).
      expect((await wp.api.get('/api/analytics/counts?year=2024')).body).toEqual({ Mail: 2, Payable: 4, TransactionGroup: 1, Invoice: 3 });
    } finally {
      expect((await wp.api.post('/api/accounting/settings/update', { fiscalYearStartMonth: 1 })).status).toBe(200);
    }
    expect((await analytics(wp, 'revenue-by-customer', 2024)).body).toMatchObject({ label: '2024', dateFrom: '2024-01-01', dateTo: '2024-12-31', total: '3545.00' });
  });
});

describe('revenue and expenses by ledger account', () => {
  let wp: LedgerWorkplace;

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    const [bank, trade, services, material, office, profit] = (await Promise.all(['1020', '3200', '3400', '4000', '6500', '2979'].map((n) => wp.account(n)))) as [number, number, number, number, number, number];
    const entries: [string, number, number, string][] = [
      ['2023-12-31', bank, trade, '999.00'],
      ['2024-01-01', bank, services, '800.00'],
      ['2024-12-31', bank, trade, '300.00'],
      ['2024-06-01', trade, bank, '100.00'], // a debit on revenue: 3200 nets 200.00
      ['2025-01-01', bank, services, '5000.00'],
      ['2024-02-01', office, bank, '120.00'],
      ['2024-12-31', material, bank, '400.00'],
      ['2025-01-01', material, bank, '1000.00'],
    ];
    for (const [date, debit, credit, amount] of entries) {
      const posted = await wp.api.post('/api/accounting/entry/insert', simpleEntry(date, debit, credit, amount));
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    }
    // A year-end closing entry (source 'closing', issue 12 §3) empties the 2024 income accounts into 2979.
    await server.db.withInstance(wp.instanceId, (tx) =>
      postJournalEntry(tx, wp.instanceId, wp.userId, {
        dateLedger: '2024-12-31',
        description: 'Closing 2024',
        source: 'closing',
        sourceRef: '2024',
        lines: [
          { accountId: trade, amount: '1199.00', direction: 1 },
          { accountId: services, amount: '800.00', direction: 1 },
          { accountId: material, amount: '400.00', direction: -1 },
          { accountId: office, amount: '120.00', direction: -1 },
          { accountId: profit, amount: '1479.00', direction: -1 },
        ],
      }),
    );
  });

  it('revenue-by-account: credit − debit of the year per revenue account, closing entries left out, sorted descending', async () => {
    const response = await analytics(wp, 'revenue-by-account', 2024);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.total).toBe('1000.00');
    expect(rowsOf(response.body)).toEqual([
      ['3400 Dienstleistungserlöse', '800.00', '80.0', null],
      ['3200 Handelserlöse 8.1%', '200.00', '20.0', null],
    ]);
    expect(response.body.rows[0]).toMatchObject({ id: await wp.account('3400'), number: '3400', name: 'Dienstleistungserlöse', uuid: null });
    expect(response.body.rows[0].link).toBe(`/accounting/account/${await wp.account('3400')}/detail`);
    expect(rowsOf((await analytics(wp, 'revenue-by-account', 2023)).body)).toEqual([['3200 Handelserlöse 8.1%', '999.00', '100.0', null]]);
  });

  it('expenses-by-account: debit − credit of the year per expense account', async () => {
    const response = await analytics(wp, 'expenses-by-account', 2024);
    expect(response.body.total).toBe('520.00');
    expect(rowsOf(response.body)).toEqual([
      ['4000 Materialeinkauf', '400.00', '76.9', null],
      ['6500 Büromaterial, Drucksachen', '120.00', '23.1', null],
    ]);
    expect(rowsOf((await analytics(wp, 'expenses-by-account', 2025)).body)).toEqual([['4000 Materialeinkauf', '1000.00', '100.0', null]]);
  });

  it('follows a July–June fiscal year: 2024 is 2024-07-01…2025-06-30, the closing entry of 31 December still left out', async () => {
    expect((await wp.api.post('/api/accounting/settings/update', { fiscalYearStartMonth: 7 })).status).toBe(200);
    try {
      const revenue = await analytics(wp, 'revenue-by-account', 2024);
      expect(revenue.body).toMatchObject({ year: 2024, label: '2024/25', dateFrom: '2024-07-01', dateTo: '2025-06-30', total: '5300.00' });
      expect(rowsOf(revenue.body)).toEqual([
        ['3400 Dienstleistungserlöse', '5000.00', '94.3', null],
        ['3200 Handelserlöse 8.1%', '300.00', '5.7', null],
      ]);
      expect(rowsOf((await analytics(wp, 'expenses-by-account', 2024)).body)).toEqual([['4000 Materialeinkauf', '1400.00', '100.0', null]]);
      // 2023/24: 999.00 on 31 Dec 2023, 800.00 on 1 Jan, the 100.00 debit of 1 June; office 120.00 in February.
      expect(rowsOf((await analytics(wp, 'revenue-by-account', 2023)).body)).toEqual([
        ['3200 Handelserlöse 8.1%', '899.00', '52.9', null],
        ['3400 Dienstleistungserlöse', '800.00', '47.1', null],
      ]);
      expect(rowsOf((await analytics(wp, 'expenses-by-account', 2023)).body)).toEqual([['6500 Büromaterial, Drucksachen', '120.00', '100.0', null]]);
    } finally {
      expect((await wp.api.post('/api/accounting/settings/update', { fiscalYearStartMonth: 1 })).status).toBe(200);
    }
  });
});

describe('POST /api/accounting/balance/snapshot', () => {
  let wp: LedgerWorkplace;
  let euroBank: number;

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    const created = await wp.api.post('/api/accounting/account/insert', { data: { number: '1025', name: 'Bank EUR', currency: 'EUR' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    euroBank = created.body.id;
    const [bank, revenue, office, gains] = (await Promise.all(['1020', '3200', '6500', '6952'].map((n) => wp.account(n)))) as [number, number, number, number];
    const euro = (direction: 1 | -1, originalAmount: string, exchangeRate: string, amount: string) => ({
      account: { id: euroBank },
      direction,
      amount,
      currency: 'EUR',
      originalAmount,
      exchangeRate,
    });
    const chf = (id: number, direction: 1 | -1, amount: string) => ({ account: { id }, direction, amount });
    const entries = [
      // 1000.00 EUR at 0.95 = 950.00 CHF; 500.00 EUR at 0.94373 = 471.865 → 471.87 CHF (half-up).
      { dateLedger: '2024-01-10', description: 'Customer pays in EUR', entryAccounts: [euro(1, '1000.00', '0.95', '950.00'), chf(revenue, -1, '950.00')] },
      { dateLedger: '2024-02-10', description: 'Customer pays in EUR', entryAccounts: [euro(1, '500.00', '0.94373', '471.87'), chf(revenue, -1, '471.87')] },
      // 200.00 EUR out at 0.96 = 192.00 CHF.
      { dateLedger: '2024-03-01', description: 'Office supplies in EUR', entryAccounts: [chf(office, 1, '192.00'), euro(-1, '200.00', '0.96', '192.00')] },
      // Revaluation in CHF only: the EUR holding does not change.
      { dateLedger: '2024-03-31', description: 'Revaluation EUR', entryAccounts: [chf(euroBank, 1, '10.00'), chf(gains, -1, '10.00')] },
      // An EUR amount on the CHF bank account: a trade posting there.
      { dateLedger: '2024-03-15', description: 'EUR cash deposited', entryAccounts: [{ account: { id: bank }, direction: 1, amount: '95.00', currency: 'EUR', originalAmount: '100.00', exchangeRate: '0.95' }, chf(revenue, -1, '95.00')] },
      // After the snapshot date.
      { dateLedger: '2024-04-01', description: 'Later', entryAccounts: [euro(1, '100.00', '1', '100.00'), chf(revenue, -1, '100.00')] },
    ];
    for (const data of entries) {
      const posted = await wp.api.post('/api/accounting/entry/insert', { data });
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    }
  });

  it('answers an EUR bank account in CHF and in EUR, exact to the cent, with the part booked in another currency', async () => {
    const response = await wp.api.post('/api/accounting/balance/snapshot', { date: '2024-03-31', accounts: [euroBank] });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toEqual([
      {
        account_id: euroBank,
        account_name: 'Bank EUR',
        account_number: '1025',
        account_currency_id: 2,
        date_snapshot: '2024-03-31',
        // 950.00 + 471.87 − 192.00 + 10.00
        sum_base: '1239.87',
        sum_base_trade: '10.00',
        // 1000 + 500 − 200 EUR
        sum_native: '1300.00',
        sum_native_trade: '0.00',
        sum_native_net: '1300.00',
      },
    ]);
    const march = await wp.api.post('/api/accounting/balance/snapshot', { date: '2024-02-29', accounts: [euroBank] });
    expect(march.body.data[0]).toMatchObject({ sum_base: '1421.87', sum_native: '1500.00', sum_base_trade: '0.00' });
  });

  it('answers every account with postings by number; on a CHF account an EUR posting is its trade part; 400 for an unknown account', async () => {
    const all = await wp.api.post('/api/accounting/balance/snapshot', { date: '2024-03-31' });
    expect(all.status).toBe(200);
    const row = (number: string) => all.body.data.find((r: any) => r.account_number === number);
    expect(all.body.data.map((r: any) => r.account_number)).toEqual(['1020', '1025', '3200', '6500', '6952']);
    expect(row('1020')).toMatchObject({ account_currency_id: 1, sum_base: '95.00', sum_base_trade: '95.00', sum_native: '95.00', sum_native_trade: '95.00', sum_native_net: '0.00' });
    expect(row('3200')).toMatchObject({ sum_base: '-1516.87', sum_native: '-1516.87', sum_base_trade: '0.00', sum_native_net: '-1516.87' });
    expect((await wp.api.post('/api/accounting/balance/snapshot', { date: '2023-12-31' })).body.data).toEqual([]);

    const unknown = await wp.api.post('/api/accounting/balance/snapshot', { date: '2024-03-31', accounts: [euroBank, 999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual({ 'accounts.1': 'ledger account 999999 not found' });
    const badDate = await wp.api.post('/api/accounting/balance/snapshot', { date: '2024-02-30' });
    expect(badDate.status).toBe(400);
    expect(Object.keys(badDate.body.fields)).toEqual(['date']);
  });
});
