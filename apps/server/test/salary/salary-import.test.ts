/**
 * /api/salary/* (issue 16 §3): a 5-person company's payroll journal of 2026 (fixtures/salary,
 * semicolon CSV with German headers as Swiss payroll software exports it) previewed, posted as
 * one balanced entry per month, net salaries as claims paid in a payment run whose pain.001 marks
 * them SALA and validates against the SPS XSD; refusals name line and column and write nothing.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '@bilan/domain';
import { createWorkplace, engine, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { xsdErrors } from '../banking/xsd.js';

const payroll = readFileSync(new URL('../fixtures/salary/payroll-2026.csv', import.meta.url), 'utf8');
const rows = payroll
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(';'))
  .map(([period, employee, iban, code, text, amount]) => ({ period: period!, employee: employee!, iban: iban!, code: code!, text: text!, amount: amount! }));
/** Sum of the fixture's amounts of the wage types `codes`, computed here independently of the import. */
const sumOf = (codes: string[], filter: (row: (typeof rows)[number]) => boolean = () => true) =>
  rows.filter((row) => codes.includes(row.code) && filter(row)).reduce((sum, row) => sum.plus(row.amount), new Money(0));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const body = (content: string, over: Record<string, unknown> = {}) => ({ file: { name: 'payroll-2026.csv', content }, ...over });

async function counts(wp: Workplace) {
  const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
    tx.query<{ entries: string; payables: string; imports: string }>(
      `SELECT (SELECT count(*) FROM journal_entry) AS entries, (SELECT count(*) FROM payable) AS payables, (SELECT count(*) FROM salary_import) AS imports`,
    ),
  );
  return row!;
}

async function balances(wp: Workplace): Promise<Map<string, string>> {
  const trial = await wp.api.post('/api/accounting/balance/get', { date: '2026-12-31' });
  expect(trial.status).toBe(200);
  return new Map(trial.body.accounts.map((a: { number: string; balance: string }) => [a.number, a.balance]));
}

describe('salary import of a 5-person company, 12 months', () => {
  it('previews twelve monthly entries with the Swiss default mapping, writing nothing', async () => {
    const wp = await createWorkplace(server);
    const mapping = await wp.api.get('/api/salary/wage-type/list');
    expect(mapping.body.isDefault).toBe(true);
    expect(mapping.body.data.find((t: { code: string }) => t.code === '8000')).toMatchObject({ debitAccount: '1091', creditAccount: '2250', isNetPay: true });

    const preview = await wp.api.post('/api/salary/import/preview', body(payroll, { netClaims: true }));
    expect(preview.status, JSON.stringify(preview.body).slice(0, 500)).toBe(200);
    expect(preview.body).toMatchObject({ rows: rows.length, periodFrom: '2026-01', periodTo: '2026-12', employees: 5, clearingAccount: '1091' });
    expect(preview.body.entries.map((e: { key: string; date: string }) => [e.key, e.date]).slice(0, 2)).toEqual([
      ['2026-01', '2026-01-31'],
      ['2026-02', '2026-02-28'],
    ]);
    expect(preview.body.entries).toHaveLength(12);
    // Net pay becomes 60 claims (5 people × 12 months), so no 8000 line is in the entries.
    expect(preview.body.claims).toHaveLength(60);
    expect(preview.body.claims[0]).toMatchObject({ employee: 'Anna Muster', iban: 'CH9300762011623852957', period: '2026-01', amount: '6306.80' });
    const january = preview.body.entries[0];
    expect(january.lines.some((l: { description: string }) => l.description.includes('Nettolohn'))).toBe(false);
    const debit = january.lines.reduce((s: Money, l: { debit: string | null }) => s.plus(l.debit ?? 0), new Money(0));
    const credit = january.lines.reduce((s: Money, l: { credit: string | null }) => s.plus(l.credit ?? 0), new Money(0));
    expect(debit.toFixed(2)).toBe(credit.toFixed(2));
    expect(january.lines.find((l: { account: { number: string } }) => l.account.number === '1091').account).toEqual({ number: '1091', name: 'Lohndurchlaufkonto', isNew: true });
    expect(await counts(wp)).toEqual({ entries: '0', payables: '0', imports: '0' });
  });

  it('posts one balanced entry per month and the net salaries as claims; the clearing account ends at zero', async () => {
    const wp = await createWorkplace(server);
    const posted = await wp.api.post('/api/salary/import', body(payroll, { netClaims: true }));
    expect(posted.status, JSON.stringify(posted.body).slice(0, 500)).toBe(200);
    expect(posted.body.entries).toHaveLength(12);
    expect(posted.body.claims).toHaveLength(60);
    // 12 salary entries + 60 claim bookings (debit 1091 / credit 2250).
    expect(await counts(wp)).toEqual({ entries: '72', payables: '60', imports: '1' });

    const gross = sumOf(['1000', '1200']);
    const net = sumOf(['8000']);
    const ahv = sumOf(['5010', '5020', '5040', '5045', '6000', '6010', '6020', '6040', '6045']).minus(sumOf(['3000']));
    const bvg = sumOf(['5050', '6030']);
    const b = await balances(wp);
    expect(b.get('5000')).toBe(gross.toFixed(2));
    expect(b.get('5700')).toBe(sumOf(['6000', '6010', '6020']).toFixed(2));
    expect(b.get('5720')).toBe(sumOf(['6030']).toFixed(2));
    expect(b.get('5730')).toBe(sumOf(['6040']).toFixed(2));
    expect(b.get('5740')).toBe(sumOf(['6045']).toFixed(2));
    expect(b.get('1091')).toBe('0.00');
    expect(b.get('2250')).toBe(net.negated().toFixed(2));
    expect(b.get('2270')).toBe(ahv.negated().toFixed(2));
    expect(b.get('2271')).toBe(bvg.negated().toFixed(2));
    expect((await wp.api.post('/api/accounting/balance/check', {})).body.ok).toBe(true);

    const entry = await wp.api.post('/api/accounting/entry/detail', { id: posted.body.entries[11].id });
    expect(entry.body).toMatchObject({ source: 'salary', description: 'Salaries 2026-12', dateLedger: '2026-12-31' });

    // The claims are approved staff expenses owed to each employee, with the employee's IBAN.
    const claim = await wp.api.post('/api/payable/detail', { uuid: posted.body.claims[0].uuid });
    expect(claim.body).toMatchObject({ isExpense: true, status: 2, amount: '6306.80', company: { name: 'Anna Muster' }, companyFinance: { iban: 'CH9300762011623852957' } });

    const imports = await wp.api.get('/api/salary/import/list');
    expect(imports.body.data).toHaveLength(1);
    expect(imports.body.data[0]).toMatchObject({ fileName: 'payroll-2026.csv', groupBy: 'period', netClaims: true, periodFrom: '2026-01', periodTo: '2026-12' });

    // The January salaries in a payment run: the pain.001 puts them in a SALA block and is valid.
    const januaryClaims = posted.body.claims.filter((c: { period: string }) => c.period === '2026-01').map((c: { uuid: string }) => c.uuid);
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: januaryClaims }, executionDate: '2026-01-26' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body.total).toBe(sumOf(['8000'], (r) => r.period === '01.2026').toFixed(2));
    const file = await wp.api.post('/api/transaction-group/pain001', { id: group.body.id });
    expect(file.status).toBe(200);
    expect(await xsdErrors(file.body)).toEqual([]);
    const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['PmtInf', 'CdtTrfTxInf'].includes(name) });
    const doc = parser.parse(file.body).Document.CstmrCdtTrfInitn;
    expect(doc.PmtInf).toHaveLength(1);
    expect(doc.PmtInf[0].PmtTpInf).toEqual({ CtgyPurp: { Cd: 'SALA' } });
    expect(doc.PmtInf[0].CdtTrfTxInf.map((t: { Cdtr: { Nm: string } }) => t.Cdtr.Nm)).toEqual(['Anna Muster', 'Beat Keller', 'Claudia Rossi', 'Daniel Favre', 'Elena Meier']);
    expect(doc.PmtInf[0].CdtTrfTxInf[0].RmtInf).toEqual({ Ustrd: 'Salary 2026-01' });

    // Paying the run clears the staff account of January.
    expect((await wp.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 })).status).toBe(200);
    const paid = await wp.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 2, date: '2026-01-26' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const after = await balances(wp);
    expect(after.get('2250')).toBe(net.minus(sumOf(['8000'], (r) => r.period === '01.2026')).negated().toFixed(2));

    // The same file with the same choices again books nothing.
    const again = await wp.api.post('/api/salary/import', body(payroll, { netClaims: true }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_done');
  });

  it('posts per employee without claims: the net pay stays owed on 2250', async () => {
    const wp = await createWorkplace(server);
    const posted = await wp.api.post('/api/salary/import', body(payroll, { groupBy: 'employee' }));
    expect(posted.status, JSON.stringify(posted.body).slice(0, 300)).toBe(200);
    expect(posted.body.entries).toHaveLength(60);
    expect(posted.body.claims).toEqual([]);
    expect(posted.body.entries[0].key).toBe('2026-01 Anna Muster');
    const b = await balances(wp);
    expect(b.get('1091')).toBe('0.00');
    expect(b.get('2250')).toBe(sumOf(['8000']).negated().toFixed(2));
    expect(await counts(wp)).toEqual({ entries: '60', payables: '0', imports: '1' });
  });

  it(`books once under 20 parallel identical imports (${engine})`, async () => {
    const wp = await createWorkplace(server);
    const small = ['Periode;Mitarbeiter;Lohnart;Betrag', '03.2026;Anna Muster;1000;7200.00', '03.2026;Anna Muster;5010;381.60', '03.2026;Anna Muster;8000;6818.40'].join('\n');
    const answers = await Promise.all(Array.from({ length: 20 }, () => wp.api.post('/api/salary/import', body(small))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body.code)).toEqual(Array(19).fill('already_done'));
    expect(await counts(wp)).toEqual({ entries: '1', payables: '0', imports: '1' });
  });

  it('reads the same journal from an XLSX workbook', async () => {
    const wp = await createWorkplace(server);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Lohnjournal');
    sheet.addRow(['Periode', 'Mitarbeiter', 'IBAN', 'Lohnart', 'Bezeichnung', 'Betrag']);
    for (const row of rows.filter((r) => r.period === '01.2026')) sheet.addRow([row.period, row.employee, row.iban, Number(row.code), row.text, Number(row.amount)]);
    const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const preview = await wp.api.post('/api/salary/import/preview', { file: { name: 'lohnjournal.xlsx', encoding: 'base64', content }, netClaims: true });
    expect(preview.status, JSON.stringify(preview.body).slice(0, 300)).toBe(200);
    expect(preview.body.entries).toHaveLength(1);
    expect(preview.body.claims.map((c: { amount: string }) => c.amount)).toEqual(rows.filter((r) => r.period === '01.2026' && r.code === '8000').map((r) => r.amount));
  });
});

describe('salary import refusals (nothing posted)', () => {
  it('names each bad row: unknown wage type, unbalanced one-sided rows, bad period and amount, unknown account, missing IBAN', async () => {
    const wp = await createWorkplace(server);
    const file = [
      'Periode;Mitarbeiter;Lohnart;Konto;Betrag',
      '01.2026;Anna Muster;1000;;7200.00', // line 2: fine
      '01.2026;Anna Muster;9999;;50.00', // line 3: unknown wage type
      '01.2026;Anna Muster;;5000;120.00', // line 4: one-sided debit …
      '01.2026;Anna Muster;;1091;-100.00', // line 5: … and a smaller credit: January does not balance
      '13.2026;Beat Keller;1000;;6500.00', // line 6: no month 13
      '02.2026;Beat Keller;1000;;65,00.0', // line 7: not an amount
      '02.2026;Beat Keller;;4711;10.00', // line 8: no account 4711
      '02.2026;Beat Keller;8000;;10.00', // line 9: net pay as a claim without IBAN
    ].join('\n');
    const response = await wp.api.post('/api/salary/import', body(file, { netClaims: true }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('import_invalid');
    expect(response.body.fields).toMatchObject({
      account: 'could not map account 4711',
      'line 3.wagetype': 'unknown wage type "9999": add it to the mapping or give the row\'s debit and credit accounts',
      'line 4.amount': 'entry 2026-01 does not balance: debit minus credit is 20.00 (one-sided rows on lines 4, 5)',
      'line 6.period': '"13.2026": expected a period YYYY-MM (or MM.YYYY)',
      'line 7.amount': '"65,00.0" is not an amount with at most 2 decimals such as 6500.00',
      'line 9.iban': 'no IBAN for Beat Keller: add an iban column to pay net salaries as claims',
    });
    expect(await counts(wp)).toEqual({ entries: '0', payables: '0', imports: '0' });
    // The preview refuses the same way.
    expect((await wp.api.post('/api/salary/import/preview', body(file, { netClaims: true }))).body.fields['line 3.wagetype']).toBeDefined();
  });

  it('refuses unknown columns, an empty file, and a salary date on or before the lock date', async () => {
    const wp = await createWorkplace(server);
    const unknown = await wp.api.post('/api/salary/import', body('Periode;Mitarbeiter;Farbe;Betrag\n01.2026;A;rot;1.00'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields['line 1']).toMatch(/^unknown column "Farbe"/);
    const empty = await wp.api.post('/api/salary/import', body(''));
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toHaveProperty('file.content');
    expect((await wp.api.post('/api/accounting/lock/insert', { date: '2026-01-31' })).status).toBe(200);
    const locked = await wp.api.post('/api/salary/import', body(payroll));
    expect(locked.status).toBe(409);
    expect(locked.body.fields.dateLedger).toBe('the salary date 2026-01-31 is on or before the lock date');
    expect(await counts(wp)).toEqual({ entries: '0', payables: '0', imports: '0' });
  });

  it('saves a mapping of its own and refuses an account the chart lacks', async () => {
    const wp = await createWorkplace(server);
    const bad = await wp.api.post('/api/salary/wage-type/save', { data: [{ code: 'L100', name: 'Lohn', debitAccount: '5999', creditAccount: '1091' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ 'data.0.debitAccount': 'no ledger account 5999 in the chart' });
    const saved = await wp.api.post('/api/salary/wage-type/save', {
      data: [
        { code: 'L100', name: 'Lohn', debitAccount: '5000', creditAccount: '1091' },
        { code: 'L900', name: 'Auszahlung', debitAccount: '1091', creditAccount: '1020' },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.isDefault).toBe(false);
    const posted = await wp.api.post('/api/salary/import', body('period,employee,wage type,amount\n2026-05,Anna Muster,L100,5000.00\n2026-05,Anna Muster,L900,5000.00\n'));
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const b = await balances(wp);
    expect([b.get('5000'), b.get('1020'), b.get('1091')]).toEqual(['5000.00', '-5000.00', '0.00']);
    // The default 1000 is gone with the saved mapping.
    const old = await wp.api.post('/api/salary/import/preview', body('period,employee,wagetype,amount\n2026-06,Anna Muster,1000,1.00\n'));
    expect(old.body.fields['line 2.wagetype']).toMatch(/^unknown wage type "1000"/);
  });
});
