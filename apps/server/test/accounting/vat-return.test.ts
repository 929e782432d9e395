/**
 * The Swiss VAT return over HTTP (issue 13 §3 and Proof), on both engines: a hand-checked quarter
 * whose figures are worked out below for both bases and both methods, every XML validated against
 * the eCH-0217 XSD (with its imports, through the fixtures' XML catalog), drill-down sums equal to
 * the figures, filing (settlement entry, lock, once under parallel calls), corrections and the
 * yearly reconciliation.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { supplier } from '../payables/setup.js';
import { ledgerCounts, ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

const ECH = fileURLToPath(new URL('../fixtures/ech-0217/', import.meta.url));

/** xmllint's complaints about `xml` against eCH-0217 v1.0 (empty when valid). */
function xsdErrors(xml: string): string[] {
  const result = spawnSync('xmllint', ['--noout', '--schema', `${ECH}eCH-0217-1-0.xsd`, '-'], {
    input: xml,
    encoding: 'utf8',
    env: { ...process.env, XML_CATALOG_FILES: `${ECH}catalog.xml` },
  });
  if (result.error) throw result.error;
  return result.status === 0 ? [] : result.stderr.split('\n').filter((line) => line && !line.endsWith('validates'));
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const VAT_NUMBER = 'CHE-116.281.710 MWST';

describe('eCH-0217 validation in these tests', () => {
  it('refuses a declaration the schema does not allow (so a passing validation means something)', () => {
    const broken = `<?xml version="1.0" encoding="UTF-8"?><VATDeclaration xmlns="http://www.ech.ch/xmlns/eCH-0217/1"><generalInformation/></VATDeclaration>`;
    expect(xsdErrors(broken).length).toBeGreaterThan(0);
  });
});

describe('VAT settings', () => {
  let wp: LedgerWorkplace;
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
  });

  it('answers null before the settings, and 409 vat_settings_missing for a return', async () => {
    expect((await wp.api.get('/api/accounting/vat/settings')).body).toEqual({ settings: null });
    const compute = await wp.api.post('/api/accounting/vat/return/compute', { dateFrom: '2024-01-01', dateTo: '2024-03-31' });
    expect(compute.status).toBe(409);
    expect(compute.body.code).toBe('vat_settings_missing');
  });

  it('refuses a VAT number with a wrong check digit, a net method without rates and a settlement account off the balance sheet', async () => {
    const base = { vatNumber: VAT_NUMBER, registrationDate: '2020-01-01', method: 'effective', basis: 'agreed' };
    const badNumber = await wp.api.post('/api/accounting/vat/settings/update', { data: { ...base, vatNumber: 'CHE-116.281.711 MWST' } });
    expect(badNumber.status).toBe(400);
    expect(Object.keys(badNumber.body.fields)).toEqual(['data.vatNumber']);
    const noRates = await wp.api.post('/api/accounting/vat/settings/update', { data: { ...base, method: 'net' } });
    expect(noRates.status).toBe(400);
    expect(Object.keys(noRates.body.fields)).toEqual(['data.netTaxRates']);
    const revenue = await wp.account('3200');
    const offBalance = await wp.api.post('/api/accounting/vat/settings/update', { data: { ...base, settlementAccount: { id: revenue } } });
    expect(offBalance.status).toBe(400);
    expect(Object.keys(offBalance.body.fields)).toEqual(['data.settlementAccount.id']);
    expect((await wp.api.get('/api/accounting/vat/settings')).body).toEqual({ settings: null });
  });

  it('stores the settings with the default period of the method and the default settlement account', async () => {
    const saved = await wp.api.post('/api/accounting/vat/settings/update', {
      data: { vatNumber: 'CHE116281710 MWST', registrationDate: '2020-01-01', method: 'net', netTaxRates: [{ ratePercent: '6.2' }], basis: 'agreed' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      vatNumber: VAT_NUMBER,
      method: 'net',
      period: 'half-yearly',
      netTaxRates: [{ ratePercent: '6.2', accountFrom: null, accountTo: null }],
      settlementAccount: { id: null, number: '2209', name: 'Abrechnungskonto MWST', isDefault: true },
      updatedBy: wp.userId,
    });
    expect((await wp.api.get('/api/accounting/vat/settings')).body.settings).toEqual(saved.body);
  });

  it('lets only owner and admin change the settings', async () => {
    const viewer = await ledgerWorkplace(server, { role: 'accountant' });
    const refused = await viewer.api.post('/api/accounting/vat/settings/update', { data: { vatNumber: VAT_NUMBER, registrationDate: '2020-01-01', method: 'effective', basis: 'agreed' } });
    expect(refused.status).toBe(403);
  });
});

/** Books an entry through the journal API; answers its id. */
async function book(wp: LedgerWorkplace, dateLedger: string, description: string, lines: { account: string; amount: string; direction: 1 | -1; vatCode?: string; vatEntry?: 'gross' | 'net' }[]) {
  const entryAccounts = await Promise.all(
    lines.map(async (line) => ({ account: { id: await wp.account(line.account) }, amount: line.amount, direction: line.direction, ...(line.vatCode ? { vatCode: line.vatCode } : {}), ...(line.vatEntry ? { vatEntry: line.vatEntry } : {}) })),
  );
  const answer = await wp.api.post('/api/accounting/entry/insert', { data: { dateLedger, description, entryAccounts } });
  if (answer.status !== 200) throw new Error(`entry ${description}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id as number;
}

const settingsOf = (method: 'effective' | 'net', basis: 'agreed' | 'received') => ({
  vatNumber: VAT_NUMBER,
  registrationDate: '2020-01-01',
  method,
  basis,
  period: 'quarterly',
  // Net tax rate method: 6.2 % for everything, 0.6 % for the reduced-rate goods on 3201.
  netTaxRates: method === 'net' ? [{ ratePercent: '6.2' }, { ratePercent: '0.6', accountFrom: '3201', accountTo: '3201' }] : [],
});

/**
 * The hand-checked quarter Q1 2024 (manual entries through the journal API with VAT codes):
 * E1 15.01. cash sale 1081.00 gross V81 on 3200  → base 1000.00, tax 81.00 (2200)
 * E2 10.02. sale 513.00 gross V26 on 3201        → base 500.00, tax 13.00 (2201)  (513 × 2.6 / 102.6)
 * E3 20.02. export 2000.00 X0 on 3200            → 200 and 220
 * E4 05.03. service from abroad 1000.00 net B81 on 6500 → 383 base 1000.00, tax 81.00 (2203), deduction 81.00 (1170) → 400
 * E5 10.03. discount granted 108.10 gross R81 on 3800 → 235 base 100.00, tax 8.10 off 303 (debit 2200)
 * E6 15.03. goods 540.50 gross M81 on 4200       → input tax 40.50 (1170) → 400   (540.5 × 8.1 / 108.1)
 * E7 20.03. rent 216.20 gross I81 on 6000        → input tax 16.20 (1171) → 405
 * E8 25.03. 5.00 on 2200 without a code (a manual correction): moves 2200, not the return
 * E9 02.04. sale 108.10 gross V81 (next quarter: not in Q1)
 */
async function bookQuarter(wp: LedgerWorkplace) {
  const ids: Record<string, number> = {};
  ids.e1 = await book(wp, '2024-01-15', 'E1 cash sale', [
    { account: '1020', amount: '1081.00', direction: 1 },
    { account: '3200', amount: '1081.00', direction: -1, vatCode: 'V81' },
  ]);
  ids.e2 = await book(wp, '2024-02-10', 'E2 books sale', [
    { account: '1020', amount: '513.00', direction: 1 },
    { account: '3201', amount: '513.00', direction: -1, vatCode: 'V26' },
  ]);
  ids.e3 = await book(wp, '2024-02-20', 'E3 export', [
    { account: '1100', amount: '2000.00', direction: 1 },
    { account: '3200', amount: '2000.00', direction: -1, vatCode: 'X0' },
  ]);
  ids.e4 = await book(wp, '2024-03-05', 'E4 service from abroad', [
    { account: '6500', amount: '1000.00', direction: 1, vatCode: 'B81' },
    { account: '1020', amount: '1000.00', direction: -1 },
  ]);
  ids.e5 = await book(wp, '2024-03-10', 'E5 discount granted', [
    { account: '3800', amount: '108.10', direction: 1, vatCode: 'R81' },
    { account: '1100', amount: '108.10', direction: -1 },
  ]);
  ids.e6 = await book(wp, '2024-03-15', 'E6 goods', [
    { account: '4200', amount: '540.50', direction: 1, vatCode: 'M81' },
    { account: '2000', amount: '540.50', direction: -1 },
  ]);
  ids.e7 = await book(wp, '2024-03-20', 'E7 rent', [
    { account: '6000', amount: '216.20', direction: 1, vatCode: 'I81' },
    { account: '1020', amount: '216.20', direction: -1 },
  ]);
  ids.e8 = await book(wp, '2024-03-25', 'E8 VAT correction without code', [
    { account: '2200', amount: '5.00', direction: 1 },
    { account: '1020', amount: '5.00', direction: -1 },
  ]);
  ids.e9 = await book(wp, '2024-04-02', 'E9 sale in Q2', [
    { account: '1020', amount: '108.10', direction: 1 },
    { account: '3200', amount: '108.10', direction: -1, vatCode: 'V81' },
  ]);
  return ids;
}

/** The tax rows of an answer as `ziffer rate base tax`, zero rows left out. */
const rows = (figures: { taxLines: { ziffer: string; ratePercent: string; base: string; tax: string }[] }) =>
  figures.taxLines.filter((l) => l.base !== '0.00' || l.tax !== '0.00').map((l) => `${l.ziffer} ${l.ratePercent} ${l.base} ${l.tax}`);

describe('the hand-checked quarter Q1 2024', () => {
  let wp: LedgerWorkplace;
  const Q1 = { dateFrom: '2024-01-01', dateTo: '2024-03-31' };
  const api = (path: string, body?: unknown) => (body === undefined ? wp.api.get(`/api/accounting/vat${path}`) : wp.api.post(`/api/accounting/vat${path}`, body));
  const configure = async (method: 'effective' | 'net', basis: 'agreed' | 'received') => {
    const saved = await api('/settings/update', { data: settingsOf(method, basis) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    await configure('effective', 'agreed');
    await bookQuarter(wp);
  });

  it('effective method, agreed consideration: every figure as worked out by hand', async () => {
    const answer = await api('/return/compute', Q1);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const f = answer.body.figures.figures;
    // I. 200 = 1000 + 500 + 2000; 220 = 2000 (export); 235 = 100 (discount); 289 = 2100; 299 = 1400.
    expect([f['200'], f['205'], f['220'], f['221'], f['225'], f['230'], f['235'], f['280'], f['289'], f['299']]).toEqual([
      '3500.00', '0.00', '2000.00', '0.00', '0.00', '0.00', '100.00', '0.00', '2100.00', '1400.00',
    ]);
    // II. 303 = 1000 − 100 at 81.00 − 8.10; 313 = 500 at 13.00; 383 = 1000 at 81.00; 299 = 900 + 500.
    expect(rows(answer.body.figures)).toEqual(['303 8.1 900.00 72.90', '313 2.6 500.00 13.00', '383 8.1 1000.00 81.00']);
    // 399 = 72.90 + 13.00 + 81.00; 400 = 81.00 + 40.50; 405 = 16.20; 479 = 137.70; 500 = 29.20.
    expect([f['399'], f['400'], f['405'], f['410'], f['415'], f['420'], f['479'], f['500'], f['510']]).toEqual([
      '166.90', '121.50', '16.20', '0.00', '0.00', '0.00', '137.70', '29.20', '0.00',
    ]);
    expect(answer.body.figures.taxLines.map((l: { ziffer: string }) => l.ziffer)).toEqual(['303', '313', '343', '383', '302', '312', '342', '382']);
    expect(answer.body).toMatchObject({ label: 'Q1 2024', typeOfSubmission: 1, status: 'open', filed: null, settlement: { payable: '29.20' } });
  });

  it('reconciles with the VAT accounts and names the uncoded posting on 2200', async () => {
    const { reconciliation } = (await api('/return/compute', Q1)).body;
    const byNumber = Object.fromEntries(reconciliation.accounts.map((a: { account: { number: string } }) => [a.account.number, a]));
    // 2200: credit 81.00, debit 8.10 (E5) and 5.00 (E8 uncoded): movement 67.90, the return 72.90.
    expect(byNumber['2200']).toMatchObject({ movement: '67.90', inReturn: '72.90', uncoded: '-5.00', notCounted: '0.00', difference: '-5.00' });
    expect(byNumber['2201']).toMatchObject({ movement: '13.00', inReturn: '13.00', difference: '0.00' });
    expect(byNumber['2203']).toMatchObject({ movement: '81.00', inReturn: '81.00', difference: '0.00' });
    expect(byNumber['1170']).toMatchObject({ movement: '-121.50', inReturn: '-121.50', difference: '0.00' });
    expect(byNumber['1171']).toMatchObject({ movement: '-16.20', inReturn: '-16.20', difference: '0.00' });
    expect(reconciliation.isBalanced).toBe(false);
    expect(reconciliation.uncodedPostings).toEqual([
      { entry: expect.objectContaining({ dateLedger: '2024-03-25', description: 'E8 VAT correction without code' }), account: expect.objectContaining({ number: '2200' }), amount: '-5.00' },
    ]);
  });

  it('reads the VAT accounts\' movements of ranges that cut months (month balances plus the days outside them)', async () => {
    const movement = async (dateFrom: string, dateTo: string) => {
      const { reconciliation } = (await api('/return/compute', { dateFrom, dateTo })).body;
      return Object.fromEntries(reconciliation.accounts.map((a: { account: { number: string }; movement: string }) => [a.account.number, a.movement]));
    };
    // 10.01.–12.03.: E1 81.00 and E5 −8.10 on 2200, E2 13.00 on 2201, E4 on 2203 and 1170 (05.03.), not E6/E7/E8.
    expect(await movement('2024-01-10', '2024-03-12')).toEqual({ '1170': '-81.00', '2200': '72.90', '2201': '13.00', '2203': '81.00' });
    // One whole month and a cut one; a single day.
    expect(await movement('2024-02-01', '2024-03-16')).toEqual({ '1170': '-121.50', '2200': '-8.10', '2201': '13.00', '2203': '81.00' });
    expect(await movement('2024-03-25', '2024-03-25')).toEqual({ '2200': '-5.00' });
  });

  it('drills down from each figure to postings that sum to it', async () => {
    const { figures } = (await api('/return/compute', Q1)).body;
    for (const ziffer of ['200', '220', '235', '289', '400', '405', '479', '399']) {
      const drill = await api('/return/postings', { ...Q1, ziffer });
      expect(drill.status, `${ziffer} ${JSON.stringify(drill.body)}`).toBe(200);
      const column = drill.body.column as 'base' | 'tax';
      const sum = drill.body.data.reduce((total: number, row: Record<string, string>) => total + Math.round(Number(row[column]) * 100), 0);
      expect((sum / 100).toFixed(2), ziffer).toBe(figures.figures[ziffer]);
      expect(drill.body.total[column], ziffer).toBe(figures.figures[ziffer]);
    }
    for (const line of figures.taxLines.filter((l: { base: string }) => l.base !== '0.00')) {
      const drill = await api('/return/postings', { ...Q1, ziffer: line.ziffer, ratePercent: line.ratePercent });
      expect(drill.body.total).toEqual({ base: line.base, tax: line.tax });
    }
    const d303 = (await api('/return/postings', { ...Q1, ziffer: '303' })).body;
    expect(d303.data.map((r: { entry: { description: string }; account: { number: string }; vatCode: string; base: string; tax: string }) => `${r.entry.description} ${r.account.number} ${r.vatCode} ${r.base} ${r.tax}`)).toEqual([
      'E1 cash sale 3200 V81 1000.00 0.00',
      'E1 cash sale 2200 V81 0.00 81.00',
      'E5 discount granted 3800 R81 -100.00 0.00',
      'E5 discount granted 2200 R81 0.00 -8.10',
    ]);
    const derived = await api('/return/postings', { ...Q1, ziffer: '500' });
    expect(derived.status).toBe(400);
    expect(Object.keys(derived.body.fields)).toEqual(['ziffer']);
  });

  it('net tax rate method: turnover including tax per approved rate, tax = turnover × rate, no input tax', async () => {
    await configure('net', 'agreed');
    const answer = await api('/return/compute', Q1);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const f = answer.body.figures.figures;
    // 200 = 1081 + 513 + 2000 (with tax); 220 = 2000; 235 = 108.10; 289 = 2108.10; 299 = 1485.90.
    expect([f['200'], f['220'], f['235'], f['289'], f['299']]).toEqual(['3594.00', '2000.00', '108.10', '2108.10', '1485.90']);
    // 322 (6.2 %): 1081.00 − 108.10 = 972.90 → 60.32; 332 (0.6 %, account 3201): 513.00 → 3.08; 383 unchanged.
    expect(rows(answer.body.figures)).toEqual(['322 6.2 972.90 60.32', '332 0.6 513.00 3.08', '383 8.1 1000.00 81.00']);
    // 399 = 60.32 + 3.08 + 81.00; no input tax (479 = 0); 500 = 144.40.
    expect([f['399'], f['400'], f['479'], f['500'], f['510']]).toEqual(['144.40', '0.00', '0.00', '144.40', '0.00']);
    const drill = (await api('/return/postings', { ...Q1, ziffer: '322' })).body;
    expect(drill.total).toEqual({ base: '972.90', tax: '60.32' });
    await configure('effective', 'agreed');
  });

  it('writes eCH-0217 XML that validates, for both methods and all three types of submission', async () => {
    for (const method of ['effective', 'net'] as const) {
      await configure(method, 'agreed');
      const xml = await api('/return/xml', { ...Q1 });
      expect(xml.status).toBe(200);
      expect(xml.headers.get('content-type')).toContain('application/xml');
      expect(xsdErrors(xml.body as string), method).toEqual([]);
      expect(xml.body).toContain('<typeOfSubmission>1</typeOfSubmission>');
      expect(xml.body).toContain(method === 'effective' ? '<effectiveReportingMethod>' : '<netTaxRateMethod>');
    }
    await configure('effective', 'agreed');
  });
});

/**
 * A quarter of documents (Q1 2024), worked out by hand for both bases:
 * D1 invoice dated 20.12.2023 (a 2023 supply), 1000.00 at 7.7 % = 77.00, booked 05.01.2024, paid 10.02.2024
 * D2 invoice 01.02.2024, 500.00 at 8.1 % = 40.50, paid 15.04.2024 (Q2)
 * D3 invoice 01.03.2024, export 800.00 at 0 % (X0), unpaid
 * D4 bill 15.02.2024, material 1081.00 gross at 8.1 % on 4400 (M81 81.00), paid 20.03.2024
 * D5 staff expense 05.03.2024, 64.80 gross at 8.1 % on 6500 (I81 4.86), refunded 10.04.2024 (Q2)
 * D6 invoice 20.01.2024, 200.00 at 8.1 % = 16.20, denied 10.03.2024 (its reversal nets it out)
 * E1 cash sale 15.01.2024, 1081.00 gross V81 on 3200 (a manual entry counts when booked, in both bases)
 */
describe('a quarter of invoices, bills and expenses, agreed and received consideration', () => {
  let w: InvoicingWorkplace;
  const Q1 = { dateFrom: '2024-01-01', dateTo: '2024-03-31' };
  const Q2 = { dateFrom: '2024-04-01', dateTo: '2024-06-30' };
  const api = (path: string, body?: unknown) => (body === undefined ? w.api.get(`/api/accounting/vat${path}`) : w.api.post(`/api/accounting/vat${path}`, body));
  const configure = async (method: 'effective' | 'net', basis: 'agreed' | 'received') => {
    const saved = await api('/settings/update', { data: settingsOf(method, basis) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  };
  const ok = async (path: string, body: unknown) => {
    const answer = await w.api.post(path, body);
    expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };
  const invoice = async (dateInvoice: string, vat: string, price: string, sent: string) => {
    const created = await ok('/api/invoice/insert', { data: { ...invoiceData(w), vat, dateInvoice, dateDue: dateInvoice, items: [{ name: `Work ${dateInvoice}`, amount: '1', price }] } });
    await ok('/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: sent });
    return created.uuid as string;
  };

  beforeAll(async () => {
    w = await invoicingWorkplace(server);
    await configure('effective', 'agreed');
    const d1 = await invoice('2023-12-20', '0.081', '1000.00', '2024-01-05');
    await ok('/api/invoice/status/change', { uuid: d1, status: 3, ledgerDate: '2024-02-10' });
    const d2 = await invoice('2024-02-01', '0.081', '500.00', '2024-02-01');
    await ok('/api/invoice/status/change', { uuid: d2, status: 3, ledgerDate: '2024-04-15' });
    await invoice('2024-03-01', '0', '800.00', '2024-03-01');
    const seller = await supplier(server, w.instanceId);
    const bank = await w.account('1020');
    const bill = await ok('/api/payable/insert', { data: { company: { uuid: seller.uuid }, companyFinance: { id: seller.ibanProfile }, date: '2024-02-15', amount: '1081.00', vatRate: '0.081', expenseAccount: { id: await w.account('4400') } } });
    await ok('/api/payable/update', { uuid: bill.uuid, data: { status: 2 } });
    await ok('/api/payable/pay', { uuid: bill.uuid, account: { id: bank }, date: '2024-03-20' });
    const expense = await ok('/api/payable/insert', { data: { isExpense: true, date: '2024-03-05', amount: '64.80', vatRate: '0.081', description: 'Train ticket', expenseAccount: { id: await w.account('6500') } } });
    await ok('/api/payable/update', { uuid: expense.uuid, data: { status: 2 } });
    await ok('/api/payable/pay', { uuid: expense.uuid, account: { id: bank }, date: '2024-04-10' });
    const d6 = await invoice('2024-01-20', '0.081', '200.00', '2024-01-20');
    await ok('/api/invoice/status/change', { uuid: d6, status: 4, ledgerDate: '2024-03-10' });
    await ok('/api/accounting/entry/insert', {
      data: { dateLedger: '2024-01-15', description: 'E1 cash sale', entryAccounts: [{ account: { id: bank }, amount: '1081.00', direction: 1 }, { account: { id: await w.account('3200') }, amount: '1081.00', direction: -1, vatCode: 'V81' }] },
    });
  });

  it('agreed consideration: by ledger date, the 2023 supply in 302', async () => {
    await configure('effective', 'agreed');
    const { figures } = (await api('/return/compute', Q1)).body;
    const f = figures.figures;
    // 200 = 1000 (D1) + 500 (D2) + 800 (D3) + 1000 (E1); 220 = 800; 299 = 2500; D6 and its reversal cancel.
    expect([f['200'], f['220'], f['289'], f['299']]).toEqual(['3300.00', '800.00', '800.00', '2500.00']);
    // 303 = D2 + E1; 302 = D1 at 7.7 %; 399 = 121.50 + 77.00; 400 = D4; 405 = D5; 500 = 198.50 − 85.86.
    expect(rows(figures)).toEqual(['303 8.1 1500.00 121.50', '302 7.7 1000.00 77.00']);
    expect([f['399'], f['400'], f['405'], f['479'], f['500']]).toEqual(['198.50', '81.00', '4.86', '85.86', '112.64']);
    const drill = (await api('/return/postings', { ...Q1, ziffer: '302' })).body;
    expect(drill.total).toEqual({ base: '1000.00', tax: '77.00' });
    expect(drill.data.map((r: { countedOn: string; account: { number: string } }) => `${r.countedOn} ${r.account.number}`)).toEqual(['2024-01-05 3200', '2024-01-05 2200']);
    const xml = await api('/return/xml', Q1);
    expect(xsdErrors(xml.body as string)).toEqual([]);
  });

  it('received consideration: documents count on their payment date, manual entries when booked', async () => {
    await configure('effective', 'received');
    const q1 = (await api('/return/compute', Q1)).body;
    const f = q1.figures.figures;
    // Paid in Q1: D1 (10.02.) and D4 (20.03.); E1 as booked. D2, D3 and D5 wait for their payment; D6 was never paid.
    expect([f['200'], f['220'], f['299']]).toEqual(['2000.00', '0.00', '2000.00']);
    expect(rows(q1.figures)).toEqual(['303 8.1 1000.00 81.00', '302 7.7 1000.00 77.00']);
    expect([f['399'], f['400'], f['405'], f['479'], f['500']]).toEqual(['158.00', '81.00', '0.00', '81.00', '77.00']);
    // The drill-down shows D1's postings on the payment's date, with the payment.
    const drill = (await api('/return/postings', { ...Q1, ziffer: '302' })).body;
    expect(drill.total).toEqual({ base: '1000.00', tax: '77.00' });
    expect(drill.data.map((r: { countedOn: string; payment: { share: string } | null }) => `${r.countedOn} ${r.payment?.share}`)).toEqual(['2024-02-10 1.000000', '2024-02-10 1.000000']);
    // 2200 (V81 at 8.1 and 7.7 %) moved by 77.00 + 40.50 + 81.00 (D6 ±16.20): D2's 40.50, booked but unpaid in Q1, is not counted.
    const vat81 = q1.reconciliation.accounts.find((a: { account: { number: string } }) => a.account.number === '2200');
    expect(vat81).toMatchObject({ movement: '198.50', inReturn: '158.00', notCounted: '40.50', uncoded: '0.00', difference: '40.50' });
    // Q2: D2 paid 15.04. and D5 refunded 10.04.
    const q2 = (await api('/return/compute', Q2)).body;
    expect(rows(q2.figures)).toEqual(['303 8.1 500.00 40.50']);
    expect([q2.figures.figures['200'], q2.figures.figures['405'], q2.figures.figures['500']]).toEqual(['500.00', '4.86', '35.64']);
    expect(xsdErrors((await api('/return/xml', Q1)).body as string)).toEqual([]);
    expect((await api('/return/xml', Q1)).body).toContain('<formOfReporting>2</formOfReporting>');
  });

  it('net tax rate method on the same books: turnover including tax, both bases, the 2023 supply at the rate approved then', async () => {
    await configure('net', 'agreed');
    const agreed = (await api('/return/compute', Q1)).body.figures;
    // 200 = 1077.00 + 540.50 + 800.00 + 1081.00; 299 = 200 − 220 = 2698.50. D1 (a 2023 supply, 7.7 %)
    // has no rate approved for 2023 in these settings: 321 at today's 6.2 % = 66.774 → 66.77;
    // 322 = 2698.50 − 1077.00 = 1621.50 × 6.2 % = 100.533 → 100.53.
    expect([agreed.figures['200'], agreed.figures['220'], agreed.figures['299'], agreed.figures['400'], agreed.figures['500']]).toEqual(['3498.50', '800.00', '2698.50', '0.00', '167.30']);
    expect(rows(agreed)).toEqual(['322 6.2 1621.50 100.53', '321 6.2 1077.00 66.77']);
    // The rate approved up to 2023 was 6.1 %: 321 = 1077.00 × 6.1 % = 65.697 → 65.70.
    const rates = [{ ratePercent: '6.2', previousRatePercent: '6.1' }, { ratePercent: '0.6', accountFrom: '3201', accountTo: '3201' }];
    expect((await api('/settings/update', { data: { ...settingsOf('net', 'agreed'), netTaxRates: rates } })).status).toBe(200);
    const approvedThen = (await api('/return/compute', Q1)).body.figures;
    expect(rows(approvedThen)).toEqual(['322 6.2 1621.50 100.53', '321 6.1 1077.00 65.70']);
    expect(approvedThen.figures['500']).toBe('166.23');
    const xml = (await api('/return/xml', Q1)).body as string;
    expect(xsdErrors(xml)).toEqual([]);
    expect(xml).toMatch(/<taxRate>6\.1<\/taxRate>\s*<turnover>1077\.00<\/turnover>/);
    expect((await api('/settings/update', { data: { ...settingsOf('net', 'received'), netTaxRates: rates } })).status).toBe(200);
    const received = (await api('/return/compute', Q1)).body.figures;
    // Paid in Q1: D1 1077.00 (321 at 6.1 % = 65.70) and E1 1081.00 (322 at 6.2 % = 67.022 → 67.02).
    expect(rows(received)).toEqual(['322 6.2 1081.00 67.02', '321 6.1 1077.00 65.70']);
    expect(received.figures['500']).toBe('132.72');
    for (const type of [1] as const) expect(xsdErrors((await api('/return/xml', { ...Q1, type })).body as string)).toEqual([]);
    await configure('effective', 'agreed');
  });
});

describe('input tax corrections, advances and defaults', () => {
  let w: InvoicingWorkplace;
  const Q1 = { dateFrom: '2024-01-01', dateTo: '2024-03-31' };
  const Q2 = { dateFrom: '2024-04-01', dateTo: '2024-06-30' };
  const api = (path: string, body?: unknown) => w.api.post(`/api/accounting/vat${path}`, body);
  const ok = async (path: string, body: unknown) => {
    const answer = await w.api.post(path, body);
    expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    w = await invoicingWorkplace(server);
    await ok('/api/accounting/vat/settings/update', { data: settingsOf('effective', 'agreed') });
  });

  it('puts K410 into 410 and K415/K420 corrections (credits of 1170) into 415/420, which 479 subtracts', async () => {
    const bank = await w.account('1020');
    const cost = await w.account('4400');
    const entry = (description: string, lines: unknown[]) => ok('/api/accounting/entry/insert', { data: { dateLedger: '2024-05-10', description, entryAccounts: lines } });
    // A purchase with input tax 81.00 (M81), then own use of part of it: 324.30 gross back off 4400 (K415: 24.30 off 1170).
    await entry('Material', [{ account: { id: cost }, amount: '1081.00', direction: 1, vatCode: 'M81' }, { account: { id: bank }, amount: '1081.00', direction: -1 }]);
    await entry('Own use of material, paid in by the owner', [{ account: { id: bank }, amount: '324.30', direction: 1 }, { account: { id: cost }, amount: '324.30', direction: -1, vatCode: 'K415' }]);
    // A subsidy that cuts input tax: 10.81 gross (K420: 0.81), and a subsequent deduction of 16.20 (K410).
    await entry('Subsidy share of input tax', [{ account: { id: bank }, amount: '10.81', direction: 1 }, { account: { id: cost }, amount: '10.81', direction: -1, vatCode: 'K420' }]);
    await entry('Einlageentsteuerung', [{ account: { id: cost }, amount: '216.20', direction: 1, vatCode: 'K410' }, { account: { id: bank }, amount: '216.20', direction: -1 }]);
    const { figures, reconciliation } = (await api('/return/compute', Q2)).body;
    const f = figures.figures;
    // 479 = 81.00 + 16.20 − 24.30 − 0.81 = 72.09; nothing due: 510 = 72.09.
    expect([f['400'], f['410'], f['415'], f['420'], f['479'], f['510']]).toEqual(['81.00', '16.20', '24.30', '0.81', '72.09', '72.09']);
    // 1170 moved by −72.09 (credit minus debit), all of it in the return.
    expect(reconciliation.accounts.find((a: { account: { number: string } }) => a.account.number === '1170')).toMatchObject({ movement: '-72.09', inReturn: '-72.09', difference: '0.00' });
    const drill = (await api('/return/postings', { ...Q2, ziffer: '415' })).body;
    expect(drill.total).toEqual({ base: '0.00', tax: '24.30' });
    const xml = (await api('/return/xml', Q2)).body as string;
    expect(xsdErrors(xml)).toEqual([]);
    expect(xml).toContain('<inputTaxCorrections>24.30</inputTaxCorrections>');
    expect(xml).toContain('<inputTaxReductions>0.81</inputTaxReductions>');
    expect(xml).toContain('<subsequentInputTaxDeduction>16.20</subsequentInputTaxDeduction>');
  });

  it('sends an invoice on its invoice date unless a ledger date is given', async () => {
    const created = await ok('/api/invoice/insert', { data: { ...invoiceData(w), vat: '0.081', dateInvoice: '2024-03-29', dateDue: '2024-04-28', items: [{ name: 'Work', amount: '1', price: '100.00' }] } });
    const sent = await ok('/api/invoice/status/change', { uuid: created.uuid, status: 2 });
    expect(sent.ledgerDate).toBe('2024-03-29');
    const { figures } = (await api('/return/compute', Q1)).body;
    expect(rows(figures)).toEqual(['303 8.1 100.00 8.10']);
  });

  it('received consideration: a bill paid before it is booked counts on the payment date; its booking quarter takes nothing', async () => {
    await ok('/api/accounting/vat/settings/update', { data: settingsOf('effective', 'received') });
    const seller = await supplier(server, w.instanceId);
    const bill = await ok('/api/payable/insert', {
      data: { company: { uuid: seller.uuid }, companyFinance: { id: seller.ibanProfile }, date: '2024-07-05', amount: '540.50', vatRate: '0.081', expenseAccount: { id: await w.account('4400') } },
    });
    await ok('/api/payable/update', { uuid: bill.uuid, data: { status: 2 } });
    // Paid in advance on 28.06. (Q2), the supplier's invoice dated 05.07. (Q3).
    await ok('/api/payable/pay', { uuid: bill.uuid, account: { id: await w.account('1020') }, date: '2024-06-28' });
    const q2 = (await api('/return/compute', Q2)).body.figures.figures;
    const q3 = (await api('/return/compute', { dateFrom: '2024-07-01', dateTo: '2024-09-30' })).body.figures.figures;
    // Q2 also holds the manual entries of the test above (400 81.00, as booked): the advance adds 40.50.
    expect(q2['400']).toBe('121.50');
    expect(q3['400']).toBe('0.00');
    await ok('/api/accounting/vat/settings/update', { data: settingsOf('effective', 'agreed') });
  });
});

/** The postings of an entry as `number D|C amount`. */
async function entryLines(wp: LedgerWorkplace, id: number) {
  const entry = await wp.api.post('/api/accounting/entry/detail', { id });
  expect(entry.status).toBe(200);
  return {
    entry: entry.body,
    lines: (entry.body.entryAccounts as { account: { number: string }; direction: number; amount: string }[]).map((l) => `${l.account.number} ${l.direction === 1 ? 'D' : 'C'} ${l.amount}`),
  };
}

describe('filing a return', () => {
  let wp: LedgerWorkplace;
  const Q1 = { dateFrom: '2024-01-01', dateTo: '2024-03-31' };
  const api = (path: string, body?: unknown) => (body === undefined ? wp.api.get(`/api/accounting/vat${path}`) : wp.api.post(`/api/accounting/vat${path}`, body));

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    expect((await api('/settings/update', { data: settingsOf('effective', 'agreed') })).status).toBe(200);
    await bookQuarter(wp);
  });

  it('files once under parallel calls: stores the figures, books the settlement to 2209 and locks the period end', async () => {
    const before = await api('/return/compute', Q1);
    const answers = await Promise.all([api('/return/file', Q1), api('/return/file', Q1), api('/return/file', Q1)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.code).toBe('already_done');
    const filed = answers.find((a) => a.status === 200)!.body;
    expect(filed.status).toBe('filed');
    expect(filed.figures).toEqual(before.body.figures);
    expect(filed.filed).toMatchObject({ typeOfSubmission: 1, dateFrom: '2024-01-01', dateTo: '2024-03-31', payable: '29.20', lockDate: '2024-03-31', filedBy: { id: wp.userId } });

    // Settlement: each VAT account emptied of what the return counts, the balance (500) to 2209.
    const { entry, lines } = await entryLines(wp, filed.filed.settlementEntry.id);
    expect(entry).toMatchObject({ dateLedger: '2024-03-31', source: 'vat', document: { type: 'vat return', link: '/accounting/vat?dateFrom=2024-01-01&dateTo=2024-03-31' } });
    expect(lines.sort()).toEqual(['1170 C 121.50', '1171 C 16.20', '2200 D 72.90', '2201 D 13.00', '2203 D 81.00', '2209 C 29.20'].sort());

    const locks = (await wp.api.get('/api/accounting/lock/list')).body.locks;
    expect(locks.map((l: { lockDate: string }) => l.lockDate)).toEqual(['2024-03-31']);
    // A posting into the filed quarter is refused; the next quarter stays open.
    const counts = await ledgerCounts(server, wp.instanceId);
    await expect(book(wp, '2024-03-15', 'late', [{ account: '1020', amount: '10.00', direction: 1 }, { account: '3200', amount: '10.00', direction: -1, vatCode: 'V81' }])).rejects.toThrow(/409/);
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(counts);

    // The period list shows the quarter filed; the return answers the same as filed, its reconciliation without the settlement.
    const periods = (await api('/period/list?year=2024')).body;
    expect(periods.periods.map((p: { label: string; status: string }) => `${p.label} ${p.status}`)).toEqual(['Q1 2024 filed', 'Q2 2024 open', 'Q3 2024 open', 'Q4 2024 open']);
    expect(periods.yearly).toMatchObject({ dateFrom: '2024-01-01', dateTo: '2024-12-31', status: 'open' });
    const after = (await api('/return/compute', Q1)).body;
    expect(after.status).toBe('filed');
    expect(after.reconciliation.accounts.find((a: { account: { number: string } }) => a.account.number === '2201')).toMatchObject({ movement: '13.00', difference: '0.00' });

    // A repeat later: already_done, nothing booked.
    const again = await api('/return/file', Q1);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_done');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(counts);

    const audit = await server.db.withInstance(wp.instanceId, (tx) => tx.query<{ n: string }>(`SELECT count(*)::text AS n FROM audit_event WHERE instance_id = $1 AND event = 'vat_return.filed'`, [wp.instanceId]));
    expect(audit[0]!.n).toBe('1');
  });

  it('exports the filed return as XML and as a PDF in four languages', async () => {
    const [period] = (await api('/period/list?year=2024')).body.periods;
    const id = period.returns[0].id;
    const xml = await api('/return/filed/xml', { id });
    expect(xsdErrors(xml.body as string)).toEqual([]);
    expect(xml.body).toContain('<uidOrganisationId xmlns="http://www.ech.ch/xmlns/eCH-0097/3">116281710</uidOrganisationId>');
    expect(xml.body).toContain('<payableTax>29.20</payableTax>');
    expect(xml.headers.get('content-disposition')).toBe('attachment; filename="vat-return-2024-01-01-2024-03-31-1.xml"');
    for (const lang of ['de', 'fr', 'it', 'en']) {
      const response = await fetch(`${server.baseUrl}/api/accounting/vat/return/filed/pdf`, {
        method: 'POST',
        headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, lang }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(bytes);
      expect(text, lang).toContain({ de: 'MWST-Abrechnung', fr: 'Décompte TVA', it: 'Rendiconto IVA', en: 'VAT return' }[lang]);
      // The figures in the language's number format (fr-CH: decimal comma), 500 = 29.20, 383 = 1'000.00.
      expect(text).toContain(lang === 'fr' ? '29,20' : '29.20');
      expect(text).toMatch(lang === 'fr' ? /1[\s\u202f]000,00/ : /1'?000\.00/); // CLDR: it-CH groups from 5 digits
      expect(text).toContain('CHE-116.281.710 MWST');
    }
    expect((await api('/return/filed/pdf', { id, lang: 'xx' })).status).toBe(400);
    expect((await api('/return/filed/xml', { id: 999 })).status).toBe(404);
    expect((await api('/return/xml', {})).status).toBe(400);
    const detail = await api('/return/detail', { id });
    expect(detail.body).toMatchObject({ id, label: 'Q1 2024', vatNumber: VAT_NUMBER, payable: '29.20', figures: { method: 'effective' } });
  });

  it('refuses a range that is not a period, a period not ended, and an overlapping return', async () => {
    const notPeriod = await api('/return/file', { dateFrom: '2024-04-01', dateTo: '2024-05-31' });
    expect(notPeriod.status).toBe(400);
    expect(Object.keys(notPeriod.body.fields)).toEqual(['dateFrom']);
    const future = await api('/return/file', { dateFrom: '2099-01-01', dateTo: '2099-03-31' });
    expect(future.status).toBe(400);
    expect(Object.keys(future.body.fields)).toEqual(['dateTo']);
    const correctionOfOpen = await api('/return/compute', { dateFrom: '2024-04-01', dateTo: '2024-06-30', type: 2 });
    expect(correctionOfOpen.status).toBe(409);
    expect(correctionOfOpen.body.code).toBe('vat_return_not_filed');
    const accountant = await ledgerWorkplace(server, { role: 'accountant' });
    expect((await accountant.api.post('/api/accounting/vat/return/file', Q1)).status).toBe(403);
  });

  it('files a correction for the difference after the books of a filed period changed, and a yearly reconciliation', async () => {
    // Reopen Q1, book a forgotten sale, and correct: the difference only.
    const [lock] = (await wp.api.get('/api/accounting/lock/list')).body.locks;
    expect((await wp.api.post('/api/accounting/lock/delete', { uuid: lock.uuid })).status).toBe(200);
    await book(wp, '2024-03-28', 'E10 forgotten sale', [
      { account: '1020', amount: '216.20', direction: 1 },
      { account: '3200', amount: '216.20', direction: -1, vatCode: 'V81' },
    ]);
    const preview = await api('/return/compute', { ...Q1, type: 2 });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    // 216.20 gross at 8.1 % = 200.00 + 16.20.
    expect(preview.body.figures.figures).toMatchObject({ '200': '200.00', '299': '200.00', '399': '16.20', '479': '0.00', '500': '16.20' });
    expect(rows(preview.body.figures)).toEqual(['303 8.1 200.00 16.20']);
    expect(preview.body.filed.figures['500']).toBe('29.20');
    expect(preview.body.books.figures['500']).toBe('45.40');
    const xml = await api('/return/xml', { ...Q1, type: 2 });
    expect(xsdErrors(xml.body as string)).toEqual([]);
    expect(xml.body).toContain('<typeOfSubmission>2</typeOfSubmission>');

    const corrected = await api('/return/file', { ...Q1, type: 2 });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    const { lines } = await entryLines(wp, corrected.body.filed.settlementEntry.id);
    expect(lines.sort()).toEqual(['2200 D 16.20', '2209 C 16.20']);
    expect((await wp.api.get('/api/accounting/lock/list')).body.locks.map((l: { lockDate: string }) => l.lockDate)).toEqual(['2024-03-31']);
    const nothing = await api('/return/file', { ...Q1, type: 2 });
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('already_done');

    // The year: Q1 as filed (original + correction) and Q2's sale E9, which no return holds yet.
    const year = { dateFrom: '2024-01-01', dateTo: '2024-12-31', type: 3 };
    const reconciliation = await api('/return/compute', year);
    expect(reconciliation.status, JSON.stringify(reconciliation.body)).toBe(200);
    expect(rows(reconciliation.body.figures)).toEqual(['303 8.1 100.00 8.10']);
    expect(reconciliation.body.filed.figures['500']).toBe('45.40');
    const yearlyXml = await api('/return/xml', year);
    expect(xsdErrors(yearlyXml.body as string)).toEqual([]);
    expect(yearlyXml.body).toContain('<typeOfSubmission>3</typeOfSubmission>');
    const notAYear = await api('/return/compute', { dateFrom: '2024-01-01', dateTo: '2024-06-30', type: 3 });
    expect(notAYear.status).toBe(400);
    const filedYear = await api('/return/file', year);
    expect(filedYear.status, JSON.stringify(filedYear.body)).toBe(200);
    expect((await api('/return/file', year)).body.code).toBe('already_done');
    const periods = (await api('/period/list?year=2024')).body;
    expect(periods.yearly.status).toBe('filed');
    expect(periods.periods[0].returns.map((r: { typeOfSubmission: number }) => r.typeOfSubmission)).toEqual([1, 2]);
  });
});

/** The text of a PDF's content streams, as far as pdftotext reads it (poppler-utils). */
function pdfText(bytes: Buffer): string {
  const result = spawnSync('pdftotext', ['-', '-'], { input: bytes, encoding: 'utf8' });
  if (result.error) throw result.error;
  return result.stdout;
}

describe('the month sums of coded postings (vat_period_balance)', () => {
  it('follow every insert, update and delete of coded postings, and the application cannot write them', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, revenue, office] = await Promise.all(['1020', '3200', '6500'].map((n) => wp.account(n)));
    const entry = (dateLedger: string, amount: string, vatCode: string, account = revenue, direction: 1 | -1 = -1) => ({
      data: { dateLedger, description: 'sums', entryAccounts: [{ account: { id: bank }, amount, direction: -direction }, { account: { id: account }, amount, direction, vatCode }] },
    });
    const ids: number[] = [];
    for (const [date, amount, code] of [['2024-01-31', '108.10', 'V81'], ['2024-02-01', '51.30', 'V26'], ['2024-02-29', '1000.00', 'X0']] as const) {
      const answer = await wp.api.post('/api/accounting/entry/insert', entry(date, amount, code));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      ids.push(answer.body.id);
    }
    const purchase = await wp.api.post('/api/accounting/entry/insert', entry('2024-02-15', '216.20', 'M81', office, 1));
    expect(purchase.status).toBe(200);
    // Moved to another month and another code, then one deleted.
    expect((await wp.api.post('/api/accounting/entry/update', { id: ids[0], ...entry('2024-03-05', '216.20', 'V38') })).status).toBe(200);
    expect((await wp.api.post('/api/accounting/entry/delete', { id: ids[1] })).status).toBe(200);

    const [sums, postings] = await server.db.withInstance(wp.instanceId, async (tx) => [
      await tx.query<{ key: string }>(
        `SELECT period || ' ' || vat_code || ' ' || vat_role || ' ' || vat_percent || ' ' || account_id || ' ' || base || ' ' || amount AS key
           FROM vat_period_balance WHERE lines <> 0 ORDER BY 1`,
      ),
      await tx.query<{ key: string }>(
        `SELECT date_trunc('month', date_ledger)::date || ' ' || vat_code || ' ' || vat_role || ' ' || vat_percent || ' ' || account_id || ' ' || sum(vat_base)::numeric(22, 2) || ' ' || sum(vat_amount)::numeric(22, 2) AS key
           FROM journal_line WHERE vat_code IS NOT NULL GROUP BY date_trunc('month', date_ledger), vat_code, vat_role, vat_percent, account_id ORDER BY 1`,
      ),
    ]);
    expect(postings.length).toBe(5);
    expect(sums).toEqual(postings);
    // The return of Q1 reads them: 343 from the moved entry, 220 from the export, 400 from the purchase.
    await wp.api.post('/api/accounting/vat/settings/update', { data: settingsOf('effective', 'agreed') });
    const q1 = (await wp.api.post('/api/accounting/vat/return/compute', { dateFrom: '2024-01-01', dateTo: '2024-03-31' })).body.figures;
    expect(rows(q1)).toEqual(['343 3.8 208.29 7.91']);
    expect([q1.figures['200'], q1.figures['220'], q1.figures['400']]).toEqual(['1208.29', '1000.00', '16.20']);

    const write = (sql: string) => server.db.withInstance(wp.instanceId, (tx) => tx.query(sql, [wp.instanceId])).then(() => 'written', (error: { code?: string }) => error.code);
    expect(await write('UPDATE vat_period_balance SET base = base + 1 WHERE instance_id = $1')).toBe('42501');
    expect(await write('DELETE FROM vat_period_balance WHERE instance_id = $1')).toBe('42501');
  });
});

describe('filing on the net tax rate method', () => {
  it('credits the settlement account with the tax due, books the difference to the legal-rate tax on 3809, and writes valid XML for all three types', async () => {
    const wp = await ledgerWorkplace(server);
    const api = (path: string, body: unknown) => wp.api.post(`/api/accounting/vat${path}`, body);
    const Q1 = { dateFrom: '2024-01-01', dateTo: '2024-03-31' };
    expect((await api('/settings/update', { data: settingsOf('net', 'agreed') })).status).toBe(200);
    const sale = (date: string, amount: string) =>
      book(wp, date, 'sale', [
        { account: '1020', amount, direction: 1 },
        { account: '3200', amount, direction: -1, vatCode: 'V81' },
      ]);
    await sale('2024-02-10', '1081.00');
    const filed = await api('/return/file', Q1);
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    // 1081.00 × 6.2 % = 67.02 owed; 81.00 booked on 2200 at the legal rate: 13.98 to 3809.
    expect(filed.body.figures.figures['500']).toBe('67.02');
    expect((await entryLines(wp, filed.body.filed.settlementEntry.id)).lines.sort()).toEqual(['2200 D 81.00', '2209 C 67.02', '3809 C 13.98']);
    expect(xsdErrors((await api('/return/filed/xml', { id: filed.body.filed.id })).body as string)).toEqual([]);

    const [lock] = (await wp.api.get('/api/accounting/lock/list')).body.locks;
    await wp.api.post('/api/accounting/lock/delete', { uuid: lock.uuid });
    await sale('2024-03-30', '540.50');
    const correction = await api('/return/xml', { ...Q1, type: 2 });
    expect(xsdErrors(correction.body as string)).toEqual([]);
    expect(correction.body).toContain('<netTaxRateMethod>');
    expect(correction.body).toContain('<turnover>540.50</turnover>');
    const corrected = await api('/return/file', { ...Q1, type: 2 });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    // 540.50 × 6.2 % = 33.511 → 33.51 owed; 40.50 booked: 6.99 to 3809.
    expect((await entryLines(wp, corrected.body.filed.settlementEntry.id)).lines.sort()).toEqual(['2200 D 40.50', '2209 C 33.51', '3809 C 6.99']);
    const yearly = await api('/return/xml', { dateFrom: '2024-01-01', dateTo: '2024-12-31', type: 3 });
    expect(yearly.status).toBe(200);
    expect(xsdErrors(yearly.body as string)).toEqual([]);
    expect(yearly.body).toContain('<typeOfSubmission>3</typeOfSubmission>');
  });

  it('clears the input tax bills still post (not deductible under the net tax rate method) with the settlement', async () => {
    const wp = await ledgerWorkplace(server);
    expect((await wp.api.post('/api/accounting/vat/settings/update', { data: settingsOf('net', 'agreed') })).status).toBe(200);
    await book(wp, '2024-02-10', 'sale', [
      { account: '1020', amount: '1081.00', direction: 1 },
      { account: '3200', amount: '1081.00', direction: -1, vatCode: 'V81' },
    ]);
    // 108.10 gross with M81: 100.00 on 6500 and 8.10 input tax on 1170.
    await book(wp, '2024-02-12', 'purchase', [
      { account: '6500', amount: '108.10', direction: 1, vatCode: 'M81' },
      { account: '1020', amount: '108.10', direction: -1 },
    ]);
    const filed = await wp.api.post('/api/accounting/vat/return/file', { dateFrom: '2024-01-01', dateTo: '2024-03-31' });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    expect(filed.body.figures.figures['500']).toBe('67.02');
    // Booked at the legal rates: 81.00 due less 8.10 input tax = 72.90; owed 67.02; 5.88 to 3809.
    expect((await entryLines(wp, filed.body.filed.settlementEntry.id)).lines.sort()).toEqual(['1170 C 8.10', '2200 D 81.00', '2209 C 67.02', '3809 C 5.88']);
  });
});
