/**
 * Financial statements over HTTP (issue 12 §4; OR 959a/959b), on both engines: balance sheet and
 * income statement exact to the cent on a small SME-chart ledger of two years, the prior-period
 * column, the unclosed result in equity, refusals naming the field, and the exports read back
 * independently (PDF with poppler's pdftotext, XLSX with exceljs, CSV with csv-parse).
 * The oracle (issue 12 "Proof"): the beancount example's yearly net income and year-end assets and
 * liabilities, summed here from journal.csv in integer cents, equal the statements' figures with
 * 2013 and 2014 closed through the closing API; 2015 opens with Beancount's balances at 2014-12-31
 * and 2979 holds the closed results; reopening 2014 brings its revenue and expenses back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '@bilan/domain';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { fixture, ledgerWorkplace } from './ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Posting = [account: string, side: 'D' | 'C', amount: string];

/** A workplace with its ledger account ids by number and a helper to post multi-line entries. */
async function books(wp: Workplace) {
  const ids = new Map<string, number>();
  const list = await wp.api.post('/api/accounting/account/list', {});
  for (const account of list.body.data as { id: number; number: string }[]) ids.set(account.number, account.id);
  const id = (number: string) => {
    const found = ids.get(number);
    if (!found) throw new Error(`no account ${number}`);
    return found;
  };
  return {
    id,
    async addAccount(number: string, name: string, type: number) {
      const created = await wp.api.post('/api/accounting/account/insert', { data: { number, name, currency: 'CHF', type } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.set(number, created.body.id);
    },
    async post(dateLedger: string, description: string, postings: Posting[]) {
      const response = await wp.api.post('/api/accounting/entry/insert', {
        data: { dateLedger, description, entryAccounts: postings.map(([number, side, amount]) => ({ account: { id: id(number) }, amount, direction: side === 'D' ? 1 : -1 })) },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    },
  };
}

/** Lines and totals of a statement answer by key, with their amounts as [amount, compareAmount]. */
function figures(statement: any) {
  const lines = new Map<string, any>();
  const totals = new Map<string, [string, string | null]>();
  const sections = statement.sides ? statement.sides.flatMap((side: any) => side.sections) : statement.sections;
  for (const section of sections) {
    totals.set(section.key, [section.total.amount, section.total.compareAmount]);
    for (const line of section.lines) lines.set(line.key, line);
  }
  for (const side of statement.sides ?? []) totals.set(side.key, [side.total.amount, side.total.compareAmount]);
  const line = (key: string) => {
    const found = lines.get(key);
    return found ? [found.amount, found.compareAmount] : undefined;
  };
  const accounts = (key: string) => lines.get(key)?.accounts.map((a: any) => [a.number, a.amount, a.compareAmount]);
  return { line, accounts, total: (key: string) => totals.get(key), lineKeys: [...lines.keys()] };
}

/** The text of a PDF (pdftotext -layout), independent of the renderer. */
function pdfText(file: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-statement-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), file);
    return execFileSync('pdftotext', ['-layout', join(dir, 'in.pdf'), '-']).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function download(wp: Workplace, body: unknown) {
  const response = await fetch(`${server.baseUrl}/api/accounting/statement/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${wp.token}` },
    body: JSON.stringify(body),
  });
  const file = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), file };
}

describe('statements of a small SME-chart ledger (2024 and 2025)', () => {
  let wp: Workplace;
  const call = (path: string, body: unknown) => wp.api.post(`/api/accounting/statement${path}`, body);

  beforeAll(async () => {
    wp = await createWorkplace(server, { name: `Muster Treuhand AG ${Math.random().toString(36).slice(2, 6)}` });
    const b = await books(wp);
    await b.addAccount('7777', 'Kaution (misnumbered asset)', AccountType.assets);
    // 2024: capital 20'000, a sale of 10'000 + VAT, goods, wages, rent, furniture and its depreciation, bank charges and interest, taxes.
    await b.post('2024-01-05', 'Capital paid in', [['1020', 'D', '20000.00'], ['2800', 'C', '20000.00']]);
    await b.post('2024-02-01', 'Furniture', [['1510', 'D', '2500.00'], ['1020', 'C', '2500.00']]);
    await b.post('2024-03-10', 'Invoice 1', [['1100', 'D', '10800.00'], ['3200', 'C', '10000.00'], ['2200', 'C', '800.00']]);
    await b.post('2024-04-15', 'Goods', [['4200', 'D', '3000.00'], ['2000', 'C', '3000.00']]);
    await b.post('2024-05-31', 'Wages May', [['5000', 'D', '4000.00'], ['1020', 'C', '4000.00']]);
    await b.post('2024-06-30', 'Rent', [['6000', 'D', '1200.50'], ['1020', 'C', '1200.50']]);
    await b.post('2024-07-31', 'Invoice 1 paid in part', [['1020', 'D', '5000.00'], ['1100', 'C', '5000.00']]);
    await b.post('2024-11-30', 'Interest', [['1020', 'D', '0.45'], ['6950', 'C', '0.45']]);
    await b.post('2024-12-31', 'Depreciation 2024', [['6820', 'D', '500.00'], ['1510', 'C', '500.00']]);
    await b.post('2024-12-31', 'Bank charges', [['6940', 'D', '12.35'], ['1020', 'C', '12.35']]);
    await b.post('2024-12-31', 'Taxes 2024', [['8900', 'D', '150.00'], ['2210', 'C', '150.00']]);
    // 2025: a service invoice, the supplier paid, wages, a non-operating gain, a deposit on the misnumbered asset, depreciation.
    await b.post('2025-02-14', 'Invoice 2', [['1100', 'D', '5405.00'], ['3400', 'C', '5000.00'], ['2200', 'C', '405.00']]);
    await b.post('2025-03-31', 'Supplier paid', [['2000', 'D', '3000.00'], ['1020', 'C', '3000.00']]);
    await b.post('2025-04-01', 'Deposit', [['7777', 'D', '100.00'], ['1020', 'C', '100.00']]);
    await b.post('2025-06-30', 'Wages June', [['5000', 'D', '4500.00'], ['1020', 'C', '4500.00']]);
    await b.post('2025-09-30', 'Sale of a private car', [['1020', 'D', '1000.00'], ['8100', 'C', '1000.00']]);
    await b.post('2025-12-31', 'Depreciation 2025', [['6820', 'D', '500.00'], ['1510', 'C', '500.00']]);
  });

  it('balance sheet at 2024-12-31 without a prior-period column: every line to the cent, the result not yet closed in equity', async () => {
    const response = await call('/balance-sheet', { date: '2024-12-31', compareDate: null, lang: 'de' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const sheet = response.body;
    expect(sheet).toMatchObject({ title: 'Bilanz', lang: 'de', currency: 'CHF', date: '2024-12-31', compareDate: null, balanced: true, compareBalanced: null });
    expect(sheet.sides.map((s: any) => [s.key, s.label])).toEqual([['assets', 'Aktiven'], ['liabilitiesAndEquity', 'Passiven']]);
    const f = figures(sheet);
    expect(f.line('cash')).toEqual(['17287.60', null]);
    expect(f.line('tradeReceivables')).toEqual(['5800.00', null]);
    expect(f.line('tangibleAssets')).toEqual(['2000.00', null]);
    expect(f.total('currentAssets')).toEqual(['23087.60', null]);
    expect(f.total('fixedAssets')).toEqual(['2000.00', null]);
    expect(f.total('assets')).toEqual(['25087.60', null]);
    expect(f.line('tradePayables')).toEqual(['3000.00', null]);
    expect(f.accounts('otherShortTermLiabilities')).toEqual([['2200', '800.00', null], ['2210', '150.00', null]]);
    expect(f.total('shortTermLiabilities')).toEqual(['3950.00', null]);
    expect(f.total('longTermLiabilities')).toEqual(['0.00', null]);
    expect(f.line('shareCapital')).toEqual(['20000.00', null]);
    expect(f.line('annualResult')).toEqual(['1137.60', null]);
    expect(f.accounts('annualResult')).toEqual([[null, '1137.60', null]]);
    expect(sheet.sides[1].sections[2].lines.find((l: any) => l.key === 'annualResult').accounts[0]).toEqual({
      id: null, number: null, name: 'Ergebnis, noch nicht abgeschlossen', amount: '1137.60', compareAmount: null,
    });
    expect(f.total('equity')).toEqual(['21137.60', null]);
    expect(f.total('liabilitiesAndEquity')).toEqual(['25087.60', null]);
    // Lines without accounts are left out; the labels are OR 959a's.
    expect(f.lineKeys).not.toContain('inventories');
    const cash = sheet.sides[0].sections[0].lines[0];
    expect(cash).toMatchObject({ key: 'cash', label: 'Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. a', side: 'debit' });
    expect(cash.accounts).toEqual([{ id: expect.any(Number), number: '1020', name: expect.any(String), amount: '17287.60', compareAmount: null }]);
  });

  it('balance sheet at 2025-12-31 with the prior year by default: both columns, an account emptied this year, a misnumbered asset by type', async () => {
    const response = await call('/balance-sheet', { date: '2025-12-31' });
    expect(response.status).toBe(200);
    const sheet = response.body;
    expect(sheet).toMatchObject({ lang: 'en', date: '2025-12-31', compareDate: '2024-12-31', balanced: true, compareBalanced: true });
    expect(sheet.sides[0].sections.map((s: any) => s.label)).toEqual(['Current assets', 'Non-current assets']);
    const f = figures(sheet);
    expect(f.line('cash')).toEqual(['10687.60', '17287.60']);
    expect(f.line('tradeReceivables')).toEqual(['11205.00', '5800.00']);
    expect(f.accounts('otherCurrentAssets')).toEqual([['7777', '100.00', '0.00']]);
    expect(f.total('currentAssets')).toEqual(['21992.60', '23087.60']);
    expect(f.line('tangibleAssets')).toEqual(['1500.00', '2000.00']);
    expect(f.total('assets')).toEqual(['23492.60', '25087.60']);
    expect(f.accounts('tradePayables')).toEqual([['2000', '0.00', '3000.00']]);
    expect(f.line('otherShortTermLiabilities')).toEqual(['1355.00', '950.00']);
    expect(f.line('annualResult')).toEqual(['2137.60', '1137.60']);
    expect(f.total('equity')).toEqual(['22137.60', '21137.60']);
    expect(f.total('liabilitiesAndEquity')).toEqual(['23492.60', '25087.60']);
  });

  it('income statement 2025 against 2024 by default: lines, running results and the annual result to the cent', async () => {
    const response = await call('/income', { dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const income = response.body;
    expect(income).toMatchObject({ title: 'Income statement', currency: 'CHF', dateFrom: '2025-01-01', dateTo: '2025-12-31', compareFrom: '2024-01-01', compareTo: '2024-12-31' });
    const f = figures(income);
    expect(f.accounts('netRevenue')).toEqual([['3200', '0.00', '10000.00'], ['3400', '5000.00', '0.00']]);
    expect(f.line('netRevenue')).toEqual(['5000.00', '10000.00']);
    expect(f.total('operatingIncome')).toEqual(['5000.00', '10000.00']);
    expect(f.line('materialExpense')).toEqual(['0.00', '3000.00']);
    expect(f.line('personnelExpense')).toEqual(['4500.00', '4000.00']);
    expect(f.line('otherOperatingExpenses')).toEqual(['0.00', '1200.50']);
    expect(f.total('operatingExpenses')).toEqual(['500.00', '1799.50']);
    expect(f.line('depreciation')).toEqual(['500.00', '500.00']);
    expect(f.total('depreciation')).toEqual(['0.00', '1299.50']);
    expect(f.line('financialExpense')).toEqual(['0.00', '12.35']);
    expect(f.line('financialIncome')).toEqual(['0.00', '0.45']);
    expect(f.total('financial')).toEqual(['0.00', '1287.60']);
    expect(f.line('nonOperatingIncome')).toEqual(['1000.00', '0.00']);
    expect(f.total('nonOperating')).toEqual(['1000.00', '1287.60']);
    expect(f.line('directTaxes')).toEqual(['0.00', '150.00']);
    expect(income.result).toEqual({ label: 'Annual profit or loss', amount: '1000.00', compareAmount: '1137.60' });
    expect(income.sections.map((s: any) => s.total.label)).toEqual([
      'Operating income',
      'Operating result before depreciation, financial result and taxes (EBITDA)',
      'Operating result before financial result and taxes (EBIT)',
      'Ordinary result',
      'Result before taxes',
      'Annual profit or loss',
    ]);
  });

  it('income statement of a quarter without a prior period, in French; a loss is negative', async () => {
    const response = await call('/income', { dateFrom: '2024-04-01', dateTo: '2024-06-30', compareFrom: null, compareTo: null, lang: 'fr' });
    expect(response.status).toBe(200);
    const f = figures(response.body);
    expect(response.body).toMatchObject({ title: 'Compte de résultat', compareFrom: null, compareTo: null });
    expect(f.lineKeys).toEqual(['materialExpense', 'personnelExpense', 'otherOperatingExpenses']);
    expect(f.line('materialExpense')).toEqual(['3000.00', null]);
    expect(response.body.result).toEqual({ label: "Bénéfice ou perte de l'exercice", amount: '-8200.50', compareAmount: null });
    expect(response.body.sections[1].lines.map((l: any) => l.label)).toEqual(['Charges de matériel et de marchandises', 'Charges de personnel', "Autres charges d'exploitation"]);
    // A chosen prior period.
    const chosen = await call('/income', { dateFrom: '2025-01-01', dateTo: '2025-06-30', compareFrom: '2024-01-01', compareTo: '2024-06-30' });
    expect(chosen.body.result).toMatchObject({ amount: '500.00', compareAmount: '1799.50' });
  });

  it('answers 400 naming the field for bad input, 401 without a session', async () => {
    const cases: [string, unknown, string][] = [
      ['/income', { dateFrom: '2025-12-31', dateTo: '2025-01-01' }, 'dateFrom'],
      ['/income', { dateFrom: '2025-01-01', dateTo: '2025-12-31', compareFrom: '2024-01-01' }, 'compareTo'],
      ['/income', { dateFrom: '2025-01-01', dateTo: '2025-12-31', compareTo: '2024-12-31', compareFrom: null }, 'compareFrom'],
      ['/income', { dateFrom: '2025-01-01', dateTo: '2025-12-31', compareFrom: '2024-12-31', compareTo: '2024-01-01' }, 'compareFrom'],
      ['/income', { dateFrom: '2025-01-01' }, 'dateTo'],
      ['/balance-sheet', { date: '2025-02-30' }, 'date'],
      ['/balance-sheet', { date: '2025-12-31', lang: 'rm' }, 'lang'],
      ['/balance-sheet', { date: '2025-12-31', extra: 1 }, 'extra'],
      ['/export', { kind: 'balance-sheet', format: 'pdf', lang: 'de' }, 'date'],
      ['/export', { kind: 'income', format: 'xlsx', lang: 'de', dateTo: '2025-12-31' }, 'dateFrom'],
      ['/export', { kind: 'both', format: 'doc', lang: 'de', date: '2025-12-31' }, 'format'],
      ['/export', { kind: 'cash-flow', format: 'pdf', lang: 'de', date: '2025-12-31' }, 'kind'],
    ];
    for (const [path, body, field] of cases) {
      const response = await call(path, body);
      expect({ path, body, status: response.status }).toEqual({ path, body, status: 400 });
      expect(Object.keys(response.body.fields ?? {}).some((key) => key === field || key.endsWith(`.${field}`)), JSON.stringify(response.body)).toBe(true);
    }
    // The rules the schema cannot express carry the module's code.
    expect((await call('/income', { dateFrom: '2025-12-31', dateTo: '2025-01-01' })).body).toMatchObject({ code: 'invalid_input', fields: { dateFrom: 'must be on or before dateTo 2025-01-01' } });
    expect((await new Client(server.baseUrl).post('/api/accounting/statement/balance-sheet', { date: '2025-12-31' })).status).toBe(401);
  });

  it('exports the balance sheet as PDF in German: letterhead, headings, Swiss amounts, both columns, page numbers', async () => {
    const { status, type, disposition, file } = await download(wp, { kind: 'balance-sheet', format: 'pdf', lang: 'de', date: '2025-12-31' });
    expect(status).toBe(200);
    expect(type).toBe('application/pdf');
    expect(disposition).toBe('attachment; filename="Bilanz-2025-12-31.pdf"');
    expect(file.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(file);
    for (const expected of [
      'Muster Treuhand AG',
      'Bahnhofstrasse 1',
      '8001 Zürich',
      'Bilanz per 31.12.2025',
      'Währung: CHF',
      'Aktiven',
      'Umlaufvermögen',
      'Anlagevermögen',
      'Kurzfristiges Fremdkapital',
      'Eigenkapital',
      'Jahresgewinn oder Jahresverlust',
      'Ergebnis, noch nicht abgeschlossen',
      'Seite 1/1',
    ]) expect(text).toContain(expected);
    expect(text).toMatch(/Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs\s+10'687\.60\s+17'287\.60/);
    expect(text).toMatch(/31\.12\.2025\s+31\.12\.2024/);
    expect(text).toMatch(/1020\s+\S.*\s10'687\.60\s+17'287\.60/);
    expect(text).toMatch(/Total Aktiven\s+23'492\.60\s+25'087\.60/);
    expect(text).toMatch(/Total Passiven\s+23'492\.60\s+25'087\.60/);
  });

  it('exports the income statement as PDF in French and Italian, and both statements on their own pages', async () => {
    const fr = await download(wp, { kind: 'income', format: 'pdf', lang: 'fr', dateFrom: '2024-04-01', dateTo: '2024-06-30', compareFrom: null, compareTo: null, withAccounts: false });
    expect(fr.status).toBe(200);
    expect(fr.disposition).toBe('attachment; filename="CompteDeResultat-2024-04-01_2024-06-30.pdf"');
    const frText = pdfText(fr.file);
    expect(frText).toContain('Compte de résultat 01.04.2024 – 30.06.2024');
    expect(frText).toMatch(/Charges de personnel\s+4'000\.00/);
    expect(frText).toMatch(/Bénéfice ou perte de l'exercice\s+-8'200\.50/);
    expect(frText).not.toMatch(/^\s*5000\s/m);
    const both = await download(wp, { kind: 'both', format: 'pdf', lang: 'it', dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect(both.disposition).toBe('attachment; filename="ContoAnnuale-2025-12-31.pdf"');
    const pages = pdfText(both.file).split('\f').slice(0, -1);
    expect(pages.length).toBe(2);
    expect(pages[0]).toContain('Bilancio al 31.12.2025');
    expect(pages[0]).toContain('Attivo circolante');
    expect(pages[0]).toMatch(/Totale attivi\s+23'492\.60\s+25'087\.60/);
    expect(pages[1]).toContain('Conto economico 01.01.2025 – 31.12.2025');
    expect(pages[1]).toMatch(/Ricavi netti da forniture e prestazioni\s+5'000\.00\s+10'000\.00/);
    expect(pages[1]).toMatch(/Utile o perdita d'esercizio\s+1'000\.00\s+1'137\.60/);
    expect(pages[1]).toContain('Pagina 2/2');
  });

  it('exports XLSX with number cells, a number format and bold totals, one sheet per statement', async () => {
    const { status, type, disposition, file } = await download(wp, { kind: 'both', format: 'xlsx', lang: 'de', dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect(status).toBe(200);
    expect(type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(disposition).toBe('attachment; filename="Jahresrechnung-2025-12-31.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Bilanz', 'Erfolgsrechnung']);
    const rowOf = (sheet: ExcelJS.Worksheet, label: string) => {
      let found: ExcelJS.Row | undefined;
      sheet.eachRow((row) => {
        if (row.getCell(2).value === label) found ??= row;
      });
      if (!found) throw new Error(`no row ${label}`);
      return found;
    };
    const [balance, income] = workbook.worksheets as [ExcelJS.Worksheet, ExcelJS.Worksheet];
    expect(balance.getCell('B2').value).toBe('Bilanz per 31.12.2025');
    const total = rowOf(balance, 'Total Aktiven');
    expect([total.getCell(3).value, total.getCell(4).value]).toEqual([23492.6, 25087.6]);
    expect(total.getCell(3).numFmt).toBe('#,##0.00;-#,##0.00');
    expect(total.font?.bold).toBe(true);
    const bank = rowOf(balance, balance.getRow(rowOf(balance, 'Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs').number + 1).getCell(2).value as string);
    expect([bank.getCell(1).value, bank.getCell(3).value, bank.getCell(4).value]).toEqual(['1020', 10687.6, 17287.6]);
    expect(bank.font?.bold).not.toBe(true);
    const result = rowOf(income, 'Jahresgewinn oder Jahresverlust');
    expect([result.getCell(3).value, result.getCell(4).value]).toEqual([1000, 1137.6]);
    expect(result.font?.bold).toBe(true);
    expect(rowOf(income, 'Personalaufwand').getCell(3).value).toBe(4500);
  });

  it('exports CSV in Bilan\'s dialect: header, one row per line, account and total, plain amounts', async () => {
    const { status, type, disposition, file } = await download(wp, { kind: 'balance-sheet', format: 'csv', lang: 'en', date: '2025-12-31' });
    expect(status).toBe(200);
    expect(type).toBe('text/csv; charset=utf-8');
    expect(disposition).toBe('attachment; filename="BalanceSheet-2025-12-31.csv"');
    const text = file.toString('utf8');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['statement', 'kind', 'section', 'line', 'account', 'label', 'amount', 'compare']);
    expect(rows.find((r) => r.kind === 'account' && r.account === '1020')).toMatchObject({ statement: 'balance-sheet', section: 'currentAssets', line: 'cash', amount: '10687.60', compare: '17287.60' });
    expect(rows.find((r) => r.kind === 'line' && r.line === 'cash')).toMatchObject({ label: 'Cash and current assets held at a stock exchange price', amount: '10687.60' });
    expect(rows.find((r) => r.kind === 'grandTotal' && r.section === 'assets')).toMatchObject({ label: 'Total assets', amount: '23492.60', compare: '25087.60' });
    expect(rows.find((r) => r.kind === 'account' && r.account === '')).toMatchObject({ line: 'annualResult', label: 'Result not yet closed', amount: '2137.60' });
    const income = await download(wp, { kind: 'income', format: 'csv', lang: 'de', dateFrom: '2024-01-01', dateTo: '2024-12-31', compareFrom: null, compareTo: null });
    const incomeRows = parse(income.file.toString('utf8'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(incomeRows[0]!)).not.toContain('compare');
    expect(incomeRows.at(-1)).toMatchObject({ statement: 'income', kind: 'grandTotal', label: 'Jahresgewinn oder Jahresverlust', amount: '1137.60' });
  });

  it("exports a person's CSV in their number format: fr-CH with ';' and decimal commas, headers in the statement's language, a BOM (decision 034)", async () => {
    const { status, file } = await download(wp, { kind: 'balance-sheet', format: 'csv', lang: 'fr', date: '2025-12-31', numberFormat: 'fr-CH' });
    expect(status).toBe(200);
    const text = file.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(text.slice(1), { columns: true, delimiter: ';' }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['État', 'Type', 'Groupe', 'Poste', 'Compte', 'Libellé', 'Montant', 'Période précédente']);
    expect(rows.find((r) => r.Type === 'account' && r.Compte === '1020')).toMatchObject({ Montant: '10687,60', 'Période précédente': '17287,60' });
    const german = await download(wp, { kind: 'balance-sheet', format: 'csv', lang: 'de', date: '2025-12-31', numberFormat: 'de-CH' });
    const [header, ...lines] = german.file.toString('utf8').slice(1).split('\n');
    expect(header).toBe('Bericht,Art,Gruppe,Position,Konto,Bezeichnung,Betrag,Vorperiode');
    expect(lines.find((line) => line.includes(',account,') && line.includes(',1020,'))).toMatch(/,10687\.60,17287\.60$/);
    const wrong = await download(wp, { kind: 'balance-sheet', format: 'csv', lang: 'de', date: '2025-12-31', numberFormat: 'de-DE' });
    expect(wrong.status).toBe(400);
  });
});

// ------------------------------------------------------------------------------------------------
// The oracle: the beancount example (issue 12 "Proof")
// ------------------------------------------------------------------------------------------------

const YEARS = [2013, 2014, 2015] as const;

/** Integer cents of a signed decimal string (no float, no library of ours). */
const cents = (amount: string): bigint => {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^[-+]/, '').split('.');
  const value = BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
  return negative ? -value : value;
};
const decimal = (value: bigint): string => {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/**
 * What Beancount computes for the ledger, from chart.csv and journal.csv alone: per year the net
 * income −(revenue + expense postings of the year), and at each year end the assets (debit
 * positive) and the liabilities (credit positive) summed over every posting up to that day.
 */
function beancountFigures() {
  const chart = parse(fixture('chart.csv'), { columns: true }) as { number: string; type: string }[];
  const journal = parse(fixture('journal.csv'), { columns: true }) as { date: string; account: string; amount: string }[];
  const typeOf = new Map(chart.map((row) => [row.number, row.type]));
  return Object.fromEntries(
    YEARS.map((year) => {
      let netIncome = 0n;
      let assets = 0n;
      let liabilities = 0n;
      let equityAccounts = 0n;
      let resultToDate = 0n;
      for (const posting of journal) {
        const type = typeOf.get(posting.account);
        const amount = cents(posting.amount);
        const postingYear = Number(posting.date.slice(0, 4));
        if (postingYear > year) continue;
        if (type === 'asset') assets += amount;
        if (type === 'liability') liabilities -= amount;
        if (type === 'equity') equityAccounts -= amount;
        if (type === 'revenue' || type === 'expense') {
          resultToDate -= amount;
          if (postingYear === year) netIncome -= amount;
        }
      }
      return [year, { netIncome: decimal(netIncome), assets: decimal(assets), liabilities: decimal(liabilities), equity: decimal(equityAccounts + resultToDate) }];
    }),
  ) as Record<(typeof YEARS)[number], { netIncome: string; assets: string; liabilities: string; equity: string }>;
}

/**
 * Beancount's balances (debit positive) at the end of `year`, per account number from journal.csv:
 * the balance sheet accounts (asset, liability, equity) with a non-zero balance, and the revenue and
 * expense accounts' turnover of that year alone (what `bean-report` shows for the year).
 */
function beancountBalances(year: number) {
  const chart = parse(fixture('chart.csv'), { columns: true }) as { number: string; type: string }[];
  const journal = parse(fixture('journal.csv'), { columns: true }) as { date: string; account: string; amount: string }[];
  const typeOf = new Map(chart.map((row) => [row.number, row.type]));
  const balanceSheet = new Map<string, bigint>();
  const income = new Map<string, bigint>();
  for (const posting of journal) {
    const postingYear = Number(posting.date.slice(0, 4));
    if (postingYear > year) continue;
    const type = typeOf.get(posting.account)!;
    const target = type === 'revenue' || type === 'expense' ? (postingYear === year ? income : undefined) : balanceSheet;
    target?.set(posting.account, (target.get(posting.account) ?? 0n) + cents(posting.amount));
  }
  const asDecimals = (map: Map<string, bigint>) =>
    Object.fromEntries([...map].filter(([, value]) => value !== 0n).sort(([a], [b]) => a.localeCompare(b)).map(([number, value]) => [number, decimal(value)]));
  return { balanceSheet: asDecimals(balanceSheet), income: asDecimals(income) };
}

describe('ORACLE: the beancount example, year by year, with 2013 and 2014 closed', () => {
  const expected = beancountFigures();
  const CLOSED = [2013, 2014] as const;
  let usd: Workplace;
  const checkStatus: Record<number, Record<string, string>> = {};
  const closings: Record<number, any> = {};

  beforeAll(async () => {
    usd = await ledgerWorkplace(server, { currency: 'USD', chart: false });
    expect((await usd.api.post('/api/accounting/import/chart', fixture('chart.csv'))).status).toBe(200);
    expect((await usd.api.post('/api/accounting/import/journal', fixture('journal.csv'))).status).toBe(200);
    // Close every year but the last through the closing API; the checks below must hold unchanged.
    for (const year of CLOSED) {
      const checks = await usd.api.post('/api/accounting/closing/checks', { year });
      expect(checks.status, JSON.stringify(checks.body)).toBe(200);
      const failed = checks.body.checks.filter((check: any) => check.status === 'failed');
      checkStatus[year] = Object.fromEntries(checks.body.checks.filter((check: any) => check.status !== 'passed').map((check: any) => [check.key, check.status]));
      const acknowledgements = failed.map((check: any) => ({ key: check.key, note: `oracle: ${check.key} acknowledged (${year})` }));
      const booked = await usd.api.post('/api/accounting/closing/book', { year, acknowledgements });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      closings[year] = booked.body;
    }
  }, 120_000);

  it('has a non-trivial expectation (profits, a loss-free check would prove little)', () => {
    for (const year of YEARS) expect(expected[year].netIncome).not.toBe('0.00');
    expect(new Set(YEARS.map((year) => expected[year].assets)).size).toBe(3);
  });

  it.each(YEARS)('%i: the income statement\'s result is Beancount\'s net income', async (year) => {
    const response = await usd.api.post('/api/accounting/statement/income', { dateFrom: `${year}-01-01`, dateTo: `${year}-12-31`, compareFrom: null, compareTo: null });
    expect(response.status).toBe(200);
    expect(response.body.currency).toBe('USD');
    expect(response.body.result.amount).toBe(expected[year].netIncome);
  });

  it.each(YEARS)('%i: the balance sheet\'s totals are Beancount\'s assets and liabilities at the year end', async (year) => {
    const response = await usd.api.post('/api/accounting/statement/balance-sheet', { date: `${year}-12-31` });
    expect(response.status).toBe(200);
    const f = figures(response.body);
    const liabilities = decimal(cents(f.total('shortTermLiabilities')![0]) + cents(f.total('longTermLiabilities')![0]));
    expect({ assets: f.total('assets')![0], liabilities, equity: f.total('equity')![0], balanced: response.body.balanced }).toEqual({
      assets: expected[year].assets,
      liabilities: expected[year].liabilities,
      equity: expected[year].equity,
      balanced: true,
    });
    expect(f.total('liabilitiesAndEquity')![0]).toBe(expected[year].assets);
    // The prior-year column is the previous year end's figures.
    if (year > YEARS[0]) expect(f.total('assets')![1]).toBe(expected[(year - 1) as (typeof YEARS)[number]].assets);
  });
  /** Non-zero balances (debit positive) per account number at `date`, from balance/get, with the accounts' types. */
  async function ledgerBalances(date: string) {
    const response = await usd.api.post('/api/accounting/balance/get', { date });
    expect(response.status).toBe(200);
    expect(response.body.totals.balance).toBe('0.00');
    const balanceSheet: Record<string, string> = {};
    const income: Record<string, string> = {};
    for (const account of response.body.accounts as { number: string; type: { id: number }; balance: string }[]) {
      if (account.balance === '0.00') continue;
      const isIncome = account.type.id === AccountType.revenue || account.type.id === AccountType.expenses;
      (isIncome ? income : balanceSheet)[account.number] = account.balance;
    }
    const sorted = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
    return { balanceSheet: sorted(balanceSheet), income: sorted(income) };
  }
  /** Beancount's balance sheet accounts at the end of `year` plus 2979 holding `closedResult` (a profit is a credit). */
  const withProfitLoss = (year: number, closedResult: bigint) =>
    Object.fromEntries(
      Object.entries({ ...beancountBalances(year).balanceSheet, '2979': decimal(-closedResult) }).sort(([a], [b]) => a.localeCompare(b)),
    );
  const netIncome = (year: (typeof YEARS)[number]) => cents(expected[year].netIncome);

  it('closed 2013 and 2014 through the closing API: every check passed, the results are Beancount\'s net incomes, the years locked', async () => {
    // No check failed or warned on this ledger (balanced entries, no open documents, no bank
    // statements, no suspense accounts, no duplicates, nothing on the wrong side), so nothing needed a note.
    expect(checkStatus).toEqual({ 2013: {}, 2014: {} });
    for (const year of CLOSED) {
      expect(closings[year]).toMatchObject({
        status: 'closed',
        fiscalYear: { year, label: String(year), dateFrom: `${year}-01-01`, dateTo: `${year}-12-31` },
        result: expected[year].netIncome,
        profitLossAccount: { number: '2979' },
        lockDate: `${year}-12-31`,
        acknowledgements: [],
      });
      expect(closings[year].closingEntry).not.toBeNull();
    }
    const locks = await usd.api.get('/api/accounting/lock/list');
    expect(locks.body.locks.map((lock: any) => lock.lockDate)).toEqual(['2014-12-31', '2013-12-31']);
    const list = await usd.api.get('/api/accounting/closing/list');
    const status = Object.fromEntries(list.body.years.map((y: any) => [y.year, [y.status, y.result]]));
    expect([status[2013], status[2014], status[2015]]).toEqual([
      ['closed', expected[2013].netIncome],
      ['closed', expected[2014].netIncome],
      ['open', expected[2015].netIncome],
    ]);
  });

  it.each(YEARS)('%i: the balance sheet\'s result line is 2979 with the closed years\' results plus the result not yet closed', async (year) => {
    const f = figures((await usd.api.post('/api/accounting/statement/balance-sheet', { date: `${year}-12-31`, compareDate: null })).body);
    const closed = CLOSED.filter((y) => y <= year).reduce((sum, y) => sum + netIncome(y), 0n);
    const open = YEARS.filter((y) => y <= year && !(CLOSED as readonly number[]).includes(y)).reduce((sum, y) => sum + netIncome(y), 0n);
    const lines = (f.accounts('annualResult') as [string | null, string, null][]).filter(([, amount]) => amount !== '0.00');
    expect(lines).toEqual([
      ...(closed !== 0n ? [['2979', decimal(closed), null]] : []),
      ...(open !== 0n ? [[null, decimal(open), null]] : []),
    ]);
    expect(f.line('annualResult')![0]).toBe(decimal(closed + open));
  });

  it('2015 opens with Beancount\'s balances at 2014-12-31, 2979 holding 2013 + 2014 as a credit, every income account at zero', async () => {
    const closedResult = netIncome(2013) + netIncome(2014);
    expect(closedResult).toBeGreaterThan(0n);
    const opening = withProfitLoss(2014, closedResult);
    // Balances at the year end after closing (cumulative: no opening entry).
    expect(await ledgerBalances('2014-12-31')).toEqual({ balanceSheet: opening, income: {} });
    // The same as the opening balances of 2015's trial balance …
    const tb = await usd.api.post('/api/accounting/balance/get', { dateFrom: '2015-01-01', date: '2015-12-31' });
    const openingOf2015 = Object.fromEntries(
      (tb.body.accounts as { number: string; openingBalance: string }[]).filter((a) => a.openingBalance !== '0.00').map((a) => [a.number, a.openingBalance]),
    );
    expect(openingOf2015).toEqual(opening);
    // … and as the closing preview's opening balances of 2015.
    const preview = await usd.api.post('/api/accounting/closing/preview', { year: 2014 });
    expect(preview.status).toBe(200);
    expect(preview.body.status).toBe('closed');
    expect(preview.body.opening.date).toBe('2015-01-01');
    expect(preview.body.opening.total).toBe('0.00');
    expect(Object.fromEntries(preview.body.opening.accounts.filter((a: any) => a.balance !== '0.00').map((a: any) => [a.number, a.balance]))).toEqual(opening);
    // 2979 in the statement: 2013 and 2014 closed, nothing else on it.
    const sheet = figures((await usd.api.post('/api/accounting/statement/balance-sheet', { date: '2014-12-31', compareDate: null })).body);
    expect(sheet.accounts('annualResult')).toContainEqual(['2979', decimal(closedResult), null]);
  });

  // Last: it changes the books.
  it('reopening 2014 brings its revenue and expense balances back and 2979 back to the 2013 result; the figures stay Beancount\'s', async () => {
    const reopened = await usd.api.post('/api/accounting/closing/reopen', { year: 2014 });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({ status: 'reopened', lock: null, reversalEntry: { id: expect.any(Number) } });
    expect((await usd.api.get('/api/accounting/lock/list')).body.locks.map((lock: any) => lock.lockDate)).toEqual(['2013-12-31']);
    const beancount = beancountBalances(2014);
    expect(Object.keys(beancount.income).length).toBeGreaterThan(10);
    // 2013 stays closed, so the income accounts hold 2014's turnover alone, as Beancount's year report.
    expect(await ledgerBalances('2014-12-31')).toEqual({ balanceSheet: withProfitLoss(2014, netIncome(2013)), income: beancount.income });
    const income = await usd.api.post('/api/accounting/statement/income', { dateFrom: '2014-01-01', dateTo: '2014-12-31', compareFrom: null, compareTo: null });
    expect(income.body.result.amount).toBe(expected[2014].netIncome);
    const sheet = await usd.api.post('/api/accounting/statement/balance-sheet', { date: '2014-12-31', compareDate: null });
    const f = figures(sheet.body);
    expect({ assets: f.total('assets')![0], equity: f.total('equity')![0], balanced: sheet.body.balanced }).toEqual({
      assets: expected[2014].assets,
      equity: expected[2014].equity,
      balanced: true,
    });
    expect(f.accounts('annualResult')).toEqual([
      ['2979', expected[2013].netIncome, null],
      [null, expected[2014].netIncome, null],
    ]);
  });
});
