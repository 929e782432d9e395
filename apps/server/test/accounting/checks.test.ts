/**
 * Accounting checks (spec §2.2 `/accounting/checks`, issue 12 §2) over HTTP, on both engines: for
 * each check, data that makes it pass and data that makes it warn or fail, made through the API as
 * a person would (invoices, bills, expenses, bank statements, manual entries); the few invariants the
 * database itself guards (balanced entries, month balances) are broken as the owner with the
 * triggers off. The API answers what `runChecks` answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, type ChecksReport } from '../../src/modules/accounting/accounting.service.js';
import { wireModules } from '../../src/modules/wiring/wiring.js';
import { createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { QR_REF, supplier, type Supplier } from '../payables/setup.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';
import { todayInSwitzerland } from '../../src/modules/accounting/accounting.service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Api = Workplace['api'];

async function checks(api: Api, dateFrom: string, dateTo: string): Promise<ChecksReport> {
  const response = await api.post('/api/accounting/checks', { dateFrom, dateTo });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** The check `key` of a report. */
function check(report: ChecksReport, key: string) {
  const found = report.checks.find((c) => c.key === key);
  if (!found) throw new Error(`no check ${key} in ${report.checks.map((c) => c.key).join(', ')}`);
  return found;
}

/** What runChecks answers in a transaction of its own, with the wired sources. */
const direct = (instanceId: string, dateFrom: string, dateTo: string) =>
  server.db.withInstance(instanceId, (tx) => runChecks(tx, instanceId, wireModules().checkSources, { dateFrom, dateTo }));

const statuses = (report: ChecksReport) => Object.fromEntries(report.checks.map((c) => [c.key, c.status]));

const KEYS = [
  'entries-balanced',
  'trial-balance',
  'period-balances',
  'receivables',
  'payables',
  'staff-expenses',
  'bank-statements',
  'bank-lines-unreconciled',
  'suspense-accounts',
  'vat',
  'future-entries',
  'duplicate-entries',
  'wrong-side-balances',
];

const entryLink = (id: number) => `/accounting/entry/${id}/detail`;

describe('POST /api/accounting/checks', () => {
  let wp: Workplace;
  beforeAll(async () => {
    wp = await createWorkplace(server);
  });

  it('passes every check on fresh books, in a fixed order, and answers what runChecks answers', async () => {
    const report = await checks(wp.api, '2025-01-01', '2025-12-31');
    expect(report.checks.map((c) => c.key)).toEqual(KEYS);
    expect(report).toMatchObject({ dateFrom: '2025-01-01', dateTo: '2025-12-31', status: 'passed' });
    for (const c of report.checks) {
      expect(c.status, `${c.key}: ${c.detail}`).toBe('passed');
      expect(c.items).toEqual([]);
      expect(c.name.length).toBeGreaterThan(10);
      expect(c.detail.length).toBeGreaterThan(10);
    }
    expect(report).toEqual(await direct(wp.instanceId, '2025-01-01', '2025-12-31'));
  });

  it('defaults to 1 January of the current year … today in Switzerland, and refuses a period that ends before it starts', async () => {
    const today = todayInSwitzerland();
    const defaults = await wp.api.post('/api/accounting/checks', {});
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ dateFrom: `${today.slice(0, 4)}-01-01`, dateTo: today });
    // dateFrom defaults to 1 January of dateTo's year.
    expect((await wp.api.post('/api/accounting/checks', { dateTo: '2024-05-31' })).body).toMatchObject({ dateFrom: '2024-01-01', dateTo: '2024-05-31' });
    const backwards = await wp.api.post('/api/accounting/checks', { dateFrom: '2025-02-01', dateTo: '2025-01-31' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.fields).toHaveProperty('dateFrom');
    expect(backwards.body.code).toBeDefined();
    const badDate = await wp.api.post('/api/accounting/checks', { dateFrom: '2025-02-30' });
    expect([badDate.status, Object.keys(badDate.body.fields ?? {})]).toEqual([400, ['dateFrom']]);
    const unknown = await wp.api.post('/api/accounting/checks', { from: '2025-01-01' });
    expect(unknown.status).toBe(400);
  });

  it('is a read: viewers may run it, strangers may not', async () => {
    const viewer = await ledgerWorkplace(server, { role: 'viewer' });
    expect((await viewer.api.post('/api/accounting/checks', {})).status).toBe(200);
    expect((await wp.api.withToken(undefined).post('/api/accounting/checks', {})).status).toBe(401);
  });
});

describe('receivables and output VAT against invoices', () => {
  let wp: InvoicingWorkplace;
  const send = async (ledgerDate: string, data: Record<string, unknown> = {}) => {
    const created = await wp.api.post('/api/invoice/insert', { data: { ...invoiceData(wp), ...data } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sent = await wp.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body as { uuid: string; refNumber: string; totalBase: string };
  };
  beforeAll(async () => {
    wp = await invoicingWorkplace(server);
  });

  it('agrees while the open invoices make up 1100, before and after payment and denial', async () => {
    // 269.55 due, 20.20 VAT at 8.1 % (invoiceData).
    const paid = await send('2025-03-05');
    const denied = await send('2025-03-06');
    expect((await wp.api.post('/api/invoice/status/change', { uuid: paid.uuid, status: 3, ledgerDate: '2025-04-10' })).status).toBe(200);
    expect((await wp.api.post('/api/invoice/status/change', { uuid: denied.uuid, status: 4, ledgerDate: '2025-03-12' })).status).toBe(200);

    const march10 = await checks(wp.api, '2025-03-01', '2025-03-10');
    expect(check(march10, 'receivables')).toMatchObject({ status: 'passed', items: [] });
    expect(check(march10, 'receivables').detail).toContain('CHF 539.10');
    expect(check(march10, 'receivables').detail).toContain('2 invoices');
    // Denied on 12 March: only the paid one (paid in April) is open at the end of March.
    const march = await checks(wp.api, '2025-03-01', '2025-03-31');
    expect(check(march, 'receivables').status).toBe('passed');
    expect(check(march, 'receivables').detail).toContain('CHF 269.55');
    expect(check(march, 'receivables').detail).toContain('1 invoice open');
    // Both were sent in March (the denial's reversal debits 2200 and is not compared).
    expect(check(march, 'vat')).toMatchObject({ status: 'passed' });
    expect(check(march, 'vat').detail).toContain('CHF 40.40');
    const april = await checks(wp.api, '2025-04-01', '2025-04-30');
    expect(check(april, 'receivables').detail).toContain('balance CHF 0.00 at 30.04.2025, and no invoice is open then');
    expect(check(april, 'receivables').status).toBe('passed');
    expect(check(april, 'vat').detail).toContain('0 invoices');
  });

  it('fails on a manual posting to 1100 and lists it first, then the open invoices; VAT posted by hand is a warning', async () => {
    const open = await send('2025-05-02');
    const receivable = await wp.account('1100');
    const revenue = await wp.account('3200');
    const vatAccount = await wp.account('2200');
    const manual = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-05-20', receivable, revenue, '300.00', 'Forderung von Hand'));
    expect(manual.status).toBe(200);
    const cashSale = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-05-21', await wp.account('1000'), vatAccount, '8.10', 'Barverkauf MWST'));
    expect(cashSale.status).toBe(200);

    const may = await checks(wp.api, '2025-05-01', '2025-05-31');
    const receivables = check(may, 'receivables');
    expect(receivables.status).toBe('failed');
    expect(receivables.detail).toContain('CHF 569.55');
    expect(receivables.detail).toContain('CHF 300.00');
    // Count and sum of the postings no invoice made: all postings on 1100 less the invoice's own.
    expect(receivables.detail).toContain("Postings on 1100 that no invoice made add up to CHF 300.00 (1 posting), which is the difference");
    expect(receivables.items).toEqual([
      { label: expect.stringContaining('Forderung von Hand'), link: entryLink(manual.body.id), amount: '300.00' },
      { label: expect.stringContaining(open.refNumber), link: `/invoice/${open.uuid}/detail`, amount: '269.55' },
    ]);
    expect(may.status).toBe('failed');

    const vat = check(may, 'vat');
    expect(vat.status).toBe('warning');
    expect(vat.detail).toContain('CHF 28.30');
    expect(vat.detail).toContain('CHF 20.20');
    expect(vat.items).toEqual([{ label: expect.stringContaining('Barverkauf MWST'), link: entryLink(cashSale.body.id), amount: '8.10' }]);
    // The page and the closing wizard see the same report as the service.
    expect(may).toEqual(await direct(wp.instanceId, '2025-05-01', '2025-05-31'));

    // Before the manual entry, April's end still agrees.
    expect(check(await checks(wp.api, '2025-04-01', '2025-04-30'), 'receivables').status).toBe('passed');
    // The reversal of the manual entry brings 1100 back in line.
    expect((await wp.api.post('/api/accounting/entry/delete', { id: manual.body.id })).status).toBe(200);
    expect(check(await checks(wp.api, '2025-05-01', '2025-05-31'), 'receivables').status).toBe('passed');
  });

  it('counts an invoice in another currency at its booked amount', async () => {
    const eur = await send('2025-06-03', { currency: 'EUR', fxRate: '0.93' });
    expect(eur.totalBase).toBe('250.66');
    const june = await checks(wp.api, '2025-06-01', '2025-06-30');
    expect(check(june, 'receivables')).toMatchObject({ status: 'passed' });
    expect(check(june, 'vat').status).toBe('passed');
  });
});

describe('payables and staff expenses against bills and expenses', () => {
  let wp: Workplace;
  let seller: Supplier;
  let bank: number;
  const account = async (number: string) => {
    const [row] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE number = $1', [number]));
    return row!.id;
  };
  const bill = async (date: string, data: Record<string, unknown> = {}) => {
    const created = await wp.api.post('/api/payable/insert', {
      data: { company: { uuid: seller.uuid }, companyFinance: { id: seller.qrProfile }, date, amount: '1081.00', vatAmount: '81.00', referenceNumber: QR_REF, ...data },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const approved = await wp.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    return approved.body as { uuid: string; id: number };
  };
  beforeAll(async () => {
    wp = await createWorkplace(server);
    seller = await supplier(server, wp.instanceId);
    bank = await account('1020');
  });

  it('agrees while booked and unpaid bills make up 2000, across payment and cancellation', async () => {
    const paidLater = await bill('2025-03-03');
    const cancelled = await bill('2025-03-05');
    const paid = await wp.api.post('/api/payable/pay', { uuid: paidLater.uuid, account: { id: bank }, date: '2025-04-15' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const cancel = await wp.api.post('/api/payable/update', { uuid: cancelled.uuid, data: { status: 5, statusDate: '2025-04-02' } });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);

    const march = await checks(wp.api, '2025-03-01', '2025-03-31');
    expect(check(march, 'payables')).toMatchObject({ status: 'passed', items: [] });
    expect(check(march, 'payables').detail).toContain('CHF 2162.00');
    expect(check(march, 'payables').detail).toContain('2 bills');
    // Input VAT: two bookings of 81.00 on 1170 (material, the default expense account 4000).
    expect(check(march, 'vat')).toMatchObject({ status: 'passed' });
    expect(check(march, 'vat').detail).toContain('CHF 162.00');
    const april = await checks(wp.api, '2025-04-01', '2025-04-30');
    expect(check(april, 'payables').status).toBe('passed');
    expect(check(april, 'payables').detail).toContain('no bill is open then');
  });

  it('keeps staff expenses on 2250 apart and fails on a posting no expense made', async () => {
    const expense = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-05-12', amount: '45.90', description: 'Taxi' } });
    expect((await wp.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } })).status).toBe(200);
    const open = await bill('2025-05-13');
    const may = await checks(wp.api, '2025-05-01', '2025-05-31');
    expect(check(may, 'staff-expenses')).toMatchObject({ status: 'passed' });
    expect(check(may, 'staff-expenses').detail).toContain('CHF 45.90');
    expect(check(may, 'payables').detail).toContain('CHF 1081.00');

    const staff = await account('2250');
    const manual = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-05-30', await account('6500'), staff, '10.00', 'Spesen Mai'));
    const failing = await checks(wp.api, '2025-05-01', '2025-05-31');
    const staffCheck = check(failing, 'staff-expenses');
    expect(staffCheck.status).toBe('failed');
    expect(staffCheck.detail).toContain('CHF 10.00');
    expect(staffCheck.detail).toContain('that no expense made add up to CHF 10.00 (1 posting), which is the difference');
    expect(staffCheck.items).toEqual([
      { label: expect.stringContaining('Spesen Mai'), link: entryLink(manual.body.id), amount: '10.00' },
      { label: expect.stringContaining('Expense'), link: `/bill/${expense.body.uuid}/detail`, amount: '45.90' },
    ]);
    expect(check(failing, 'payables').status).toBe('passed');
    expect(check(failing, 'payables').items).toEqual([]);
    expect(open.uuid).toBeDefined();
  });
});

describe('a chart without a staff account', () => {
  it('checks expenses with the bills on 2000 and says so', async () => {
    const wp = await createWorkplace(server);
    const [staff] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE number = '2250'"));
    expect((await wp.api.post('/api/accounting/account/delete', { id: staff!.id })).status).toBe(200);
    const expense = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-05-12', amount: '45.90', description: 'Taxi' } });
    expect((await wp.api.post('/api/payable/update', { uuid: expense.body.uuid, data: { status: 2 } })).status).toBe(200);
    const may = await checks(wp.api, '2025-05-01', '2025-05-31');
    expect(check(may, 'payables')).toMatchObject({ status: 'passed' });
    expect(check(may, 'payables').detail).toContain('1 bill or expense open');
    expect(check(may, 'payables').detail).toContain('CHF 45.90');
    expect(check(may, 'staff-expenses')).toMatchObject({ status: 'passed', items: [] });
    expect(check(may, 'staff-expenses').detail).toContain('no separate account');
  });
});

/** A camt.053 of the onboarded bank account 1020 with one unmatched credit. */
const statement = (id: string, closing: string, date: string, credits: [string, string, string][]) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>${date}T20:00:00</CreDtTm></GrpHdr><Stmt><Id>${id}-1</Id><CreDtTm>${date}T20:00:00</CreDtTm>
<Acct><Id><IBAN>CH9300762011623852957</IBAN></Id><Ccy>CHF</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${closing}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>
${credits
  .map(
    ([amount, booked, ref]) => `<Ntry><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${booked}</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>`,
  )
  .join('\n')}
</Stmt></BkToCstmrStmt></Document>`;

describe('bank accounts against statements, and unreconciled bank lines', () => {
  it('compares 1020 at the last statement date and warns about lines older than 30 days until they are booked', async () => {
    const wp = await createWorkplace(server);
    const imported = await wp.api.request('POST', '/api/banking/integrations/transactions', statement('STMT-C1', '250.00', '2025-11-30', [['250.00', '2025-11-20', 'IN-C1']]), {
      'content-type': 'application/xml',
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const [bank] = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE number = '1020'"));

    const before = await checks(wp.api, '2025-01-01', '2025-11-15');
    expect(check(before, 'bank-statements').status).toBe('passed');
    expect(check(before, 'bank-statements').detail).toContain('No bank statement');

    const december = await checks(wp.api, '2025-12-01', '2025-12-31');
    const statements = check(december, 'bank-statements');
    expect(statements.status).toBe('failed');
    expect(statements.detail).toContain('CHF 250.00');
    expect(statements.items).toEqual([
      { label: expect.stringContaining('30.11.2025'), link: `/accounting/account/${bank!.id}/reconciliation`, amount: '250.00' },
    ]);
    const lines = check(december, 'bank-lines-unreconciled');
    expect(lines.status).toBe('warning');
    expect(lines.items).toEqual([{ label: expect.stringContaining('20.11.2025'), link: `/accounting/account/${bank!.id}/reconciliation`, amount: '250.00' }]);
    // 25 days old at 15 December: not yet overdue.
    expect(check(await checks(wp.api, '2025-12-01', '2025-12-15'), 'bank-lines-unreconciled').status).toBe('passed');

    const reconcile = await wp.api.post('/api/banking/integrations/reconcile', { account: { id: bank!.id } });
    const revenue = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE number = '3400'"));
    const booked = await wp.api.post('/api/banking/integrations/reconcile', {
      account: { id: bank!.id },
      bankTransaction: { id: reconcile.body.unmatched[0].id },
      counterAccount: { id: revenue[0]!.id },
    });
    expect(booked.status).toBe(200);
    const after = await checks(wp.api, '2025-12-01', '2025-12-31');
    expect(statuses(after)).toMatchObject({ 'bank-statements': 'passed', 'bank-lines-unreconciled': 'passed' });
    expect(check(after, 'bank-statements').detail).toContain('1020 agrees with its statement of 30.11.2025 (CHF 250.00)');
  });
});

describe('ledger-only checks', () => {
  let wp: LedgerWorkplace;
  let cash: number;
  let bank: number;
  let revenue: number;
  let office: number;
  const post = (path: string, body: unknown) => wp.api.post(`/api/accounting${path}`, body);
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    [cash, bank, revenue, office] = await Promise.all([wp.account('1000'), wp.account('1020'), wp.account('3200'), wp.account('6500')]);
  });

  it('warns about entries dated after today until they are deleted', async () => {
    const nextYear = Number(todayInSwitzerland().slice(0, 4)) + 1;
    const future = await post('/entry/insert', simpleEntry(`${nextYear}-06-30`, bank, revenue, '12.00', 'Tippfehler im Jahr'));
    expect(future.status).toBe(200);
    const report = await checks(wp.api, '2025-01-01', '2025-12-31');
    expect(check(report, 'future-entries')).toMatchObject({
      status: 'warning',
      items: [{ label: expect.stringContaining('Tippfehler im Jahr'), link: entryLink(future.body.id), amount: '12.00' }],
    });
    expect(report.status).toBe('warning');
    expect((await post('/entry/delete', { id: future.body.id })).status).toBe(200);
    expect(check(await checks(wp.api, '2025-01-01', '2025-12-31'), 'future-entries').status).toBe('passed');
  });

  it('warns about entries with the same date, amount and text in the period', async () => {
    const first = await post('/entry/insert', simpleEntry('2024-02-10', bank, revenue, '99.90', 'Miete Februar'));
    const second = await post('/entry/insert', simpleEntry('2024-02-10', bank, revenue, '99.90', ' miete februar'));
    await post('/entry/insert', simpleEntry('2024-02-10', bank, revenue, '99.90', 'Miete März'));
    await post('/entry/insert', simpleEntry('2024-02-11', bank, revenue, '99.90', 'Miete Februar'));
    const report = await checks(wp.api, '2024-02-01', '2024-02-29');
    const duplicates = check(report, 'duplicate-entries');
    expect(duplicates.status).toBe('warning');
    expect(duplicates.items.map((item) => item.link)).toEqual([entryLink(first.body.id), entryLink(second.body.id)]);
    expect(duplicates.items.every((item) => item.amount === '99.90')).toBe(true);
    // Outside the period they do not count.
    expect(check(await checks(wp.api, '2024-02-11', '2024-02-29'), 'duplicate-entries').status).toBe('passed');
  });

  it('warns about negative cash and liabilities in debit', async () => {
    const overdraft = await wp.account('2100');
    await post('/entry/insert', simpleEntry('2023-03-01', office, cash, '40.00', 'Bar bezahlt ohne Bestand'));
    const report = await checks(wp.api, '2023-01-01', '2023-03-31');
    const wrong = check(report, 'wrong-side-balances');
    expect(wrong.status).toBe('warning');
    expect(wrong.items).toEqual([{ label: expect.stringContaining('1000 Kasse'), link: `/accounting/account/${cash}/detail`, amount: '-40.00' }]);
    await post('/entry/insert', simpleEntry('2023-03-02', cash, revenue, '40.00', 'Bareinnahme'));
    await post('/entry/insert', simpleEntry('2023-03-03', overdraft, bank, '5.00', 'Bankschuld doppelt bezahlt'));
    await post('/entry/insert', simpleEntry('2023-03-03', bank, revenue, '5.00', 'Einzahlung'));
    const after = check(await checks(wp.api, '2023-01-01', '2023-03-31'), 'wrong-side-balances');
    expect(after.items).toEqual([{ label: expect.stringContaining('2100'), link: `/accounting/account/${overdraft}/detail`, amount: '5.00' }]);
    // Before those entries everything was on its side.
    expect(check(await checks(wp.api, '2023-01-01', '2023-02-28'), 'wrong-side-balances').status).toBe('passed');
  });

  it('warns while a clearing account (2030, or a 1090 added to the chart) is not zero', async () => {
    const prepayments = await wp.account('2030');
    const quiet = await checks(wp.api, '2022-01-01', '2022-12-31');
    expect(check(quiet, 'suspense-accounts')).toMatchObject({ status: 'passed' });
    expect(check(quiet, 'suspense-accounts').detail).toContain('2030');
    const created = await post('/account/insert', { data: { number: '1090', name: 'Lohndurchlaufkonto', currency: 'CHF' } });
    expect(created.status).toBe(200);
    await post('/entry/insert', simpleEntry('2022-06-01', bank, prepayments, '500.00', 'Anzahlung Kunde'));
    await post('/entry/insert', simpleEntry('2022-06-25', created.body.id, bank, '3000.00', 'Löhne Juni'));
    const june = await checks(wp.api, '2022-06-01', '2022-06-30');
    const suspense = check(june, 'suspense-accounts');
    expect(suspense.status).toBe('warning');
    expect(suspense.items).toEqual([
      { label: '1090 Lohndurchlaufkonto', link: `/accounting/account/${created.body.id}/detail`, amount: '3000.00' },
      { label: '2030 Anzahlungen von Kundinnen und Kunden', link: `/accounting/account/${prepayments}/detail`, amount: '-500.00' },
    ]);
    await post('/entry/insert', simpleEntry('2022-06-30', office, created.body.id, '3000.00', 'Lohnaufwand Juni'));
    await post('/entry/insert', simpleEntry('2022-06-30', prepayments, revenue, '500.00', 'Anzahlung verrechnet'));
    expect(check(await checks(wp.api, '2022-06-01', '2022-06-30'), 'suspense-accounts').status).toBe('passed');
  });
});

describe('ledger integrity', () => {
  it('fails on an unbalanced or one-line entry, a month table that drifted, and an unbalanced trial balance', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, revenue] = await Promise.all([wp.account('1020'), wp.account('3200')]);
    const one = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2021-04-10', bank, revenue, '10.00', 'wird verändert'));
    const two = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2021-04-11', bank, revenue, '20.00', 'verliert eine Zeile'));
    const three = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2021-04-12', bank, revenue, '5.00', 'verliert alle Zeilen'));
    const good = await checks(wp.api, '2021-04-01', '2021-04-30');
    expect(statuses(good)).toMatchObject({ 'entries-balanced': 'passed', 'trial-balance': 'passed', 'period-balances': 'passed' });
    expect(check(good, 'entries-balanced').detail).toContain('3 entries with 6 postings');

    // What the database refuses at commit, forced as the owner with the triggers off.
    await server.db.asOwner(async (tx) => {
      await tx.query("SET LOCAL session_replication_role = 'replica'");
      await tx.query('UPDATE journal_line SET amount = 12.00 WHERE instance_id = $1 AND entry_id = $2 AND direction = 1', [wp.instanceId, one.body.id]);
      await tx.query('DELETE FROM journal_line WHERE instance_id = $1 AND entry_id = $2 AND direction = -1', [wp.instanceId, two.body.id]);
      await tx.query('DELETE FROM journal_line WHERE instance_id = $1 AND entry_id = $2', [wp.instanceId, three.body.id]);
    });
    const broken = await checks(wp.api, '2021-04-01', '2021-04-30');
    const balanced = check(broken, 'entries-balanced');
    expect(balanced.status).toBe('failed');
    expect(balanced.items).toEqual([
      { label: expect.stringContaining('wird verändert'), link: entryLink(one.body.id), amount: '2.00' },
      { label: expect.stringContaining('verliert eine Zeile'), link: entryLink(two.body.id), amount: '20.00' },
      { label: expect.stringContaining('1 posting'), link: entryLink(two.body.id), amount: null },
      { label: expect.stringContaining('verliert alle Zeilen": 0 postings'), link: entryLink(three.body.id), amount: null },
    ]);
    const drift = check(broken, 'period-balances');
    expect(drift.status).toBe('failed');
    expect(drift.items.map((item) => [item.link, item.amount])).toEqual([
      [`/accounting/account/${bank}/detail`, '-3.00'],
      [`/accounting/account/${revenue}/detail`, '25.00'],
    ]);
    // The month table is what the trial balance reads: still balanced until it is broken too.
    expect(check(broken, 'trial-balance').status).toBe('passed');
    // Other months are not this period's concern.
    expect(check(await checks(wp.api, '2021-05-01', '2021-05-31'), 'entries-balanced').status).toBe('passed');
    expect(check(await checks(wp.api, '2021-05-01', '2021-05-31'), 'period-balances').status).toBe('passed');

    await server.db.asOwner(async (tx) => {
      await tx.query("SET LOCAL session_replication_role = 'replica'");
      await tx.query("UPDATE account_period_balance SET debit = debit + 7 WHERE instance_id = $1 AND account_id = $2 AND period = '2021-04-01'", [wp.instanceId, bank]);
    });
    const trial = check(await checks(wp.api, '2021-04-01', '2021-04-30'), 'trial-balance');
    expect(trial.status).toBe('failed');
    expect(trial.detail).toContain('CHF 42.00');
    expect(trial.detail).toContain('CHF 35.00');
    // balance/check keeps its own shape and sees the same.
    const legacy = await wp.api.get('/api/accounting/balance/check');
    expect(legacy.body.ok).toBe(false);
    expect(legacy.body.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['journal entries balance', false],
      ['journal entries have two postings', false],
      ['month balances match postings', false],
      ['trial balance debit equals credit', false],
    ]);
  });
});
