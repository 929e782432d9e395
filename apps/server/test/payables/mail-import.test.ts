/** POST /api/mail/import: Dext receipts CSV → bills or expenses, all or nothing, per-row errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { payableCounts, payablesWorkplace, type PayablesWorkplace } from './setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
let other: PayablesWorkplace;
let viewer: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
  other = await payablesWorkplace(server);
  viewer = await payablesWorkplace(server, { role: 'viewer' });
});
afterAll(async () => server?.close());

const companyCount = async (instanceId: string) =>
  Number((await server.db.withInstance(instanceId, (tx) => tx.query<{ n: string }>('SELECT count(*) AS n FROM company')))[0]!.n);

describe('POST /api/mail/import', () => {
  it("imports Dext's usual columns into bills, matching or creating suppliers, and expenses", async () => {
    const office = (await wp.api.post('/api/accounting/account/list', { filters: { text: '4000' } })).body.data.find((a: any) => a.number === '4000');
    const csv = [
      'Receipt Date,Supplier Name,Total,Tax Amount,Currency Code,Category,Description,Payment Method',
      `23/10/2025,Papeterie Zürich AG,"1'081.00",81.00,CHF,${office.name},Office paper,Card`,
      '2025-10-24,papeterie zürich ag,"54,00",,CHF,4000 Material,,Card',
      '24.10.2025,SBB CFF FFS,"1,234.50",0,,,Travel,Cash',
    ].join('\n');
    const response = await wp.api.post('/api/mail/import', csv);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 3, bills: 3, expenses: 0, companiesCreated: 2 });
    const bills = (await wp.api.post('/api/payable/list', { filters: {}, page: 1, pageSize: 50 })).body.data as any[];
    const byAmount = Object.fromEntries(bills.map((b) => [b.amount, b]));
    expect(byAmount['1081.00']).toMatchObject({ date: '2025-10-23', vatAmount: '81.00', currency: 'CHF', status: 1, company: { name: 'Papeterie Zürich AG' }, expenseAccount: { number: '4000' }, description: 'Office paper' });
    expect(byAmount['54.00'].company.uuid).toBe(byAmount['1081.00'].company.uuid);
    expect(byAmount['1234.50']).toMatchObject({ date: '2025-10-24', vatAmount: '0.00', company: { name: 'SBB CFF FFS' } });

    const expenses = await wp.api.post('/api/mail/import?as=expense', 'date,supplier,amount,vat,currency,category\n2025-11-02,Café Sprüngli,12.50,0.90,CHF,\n');
    expect(expenses.status, JSON.stringify(expenses.body)).toBe(200);
    expect(expenses.body).toMatchObject({ created: 1, bills: 0, expenses: 1, companiesCreated: 0 });
    const expense = (await wp.api.post('/api/payable/detail', { uuid: expenses.body.data[0].uuid })).body;
    expect(expense).toMatchObject({ isExpense: true, amount: '12.50', company: null, description: 'Café Sprüngli' });
    expect((await other.api.post('/api/payable/list', { filters: {} })).body.total).toBe(0);
  });

  it('refuses bad rows with a per-row report and writes nothing', async () => {
    const before = await payableCounts(server, wp.instanceId);
    const companies = await companyCount(wp.instanceId);
    const csv = [
      'date,supplier,amount,vat,currency,category',
      '2025-10-01,Neuer Lieferant GmbH,100.00,8.10,CHF,',
      '31.02.2025,Other AG,10,,CHF,',
      '2025-10-02,,abc,20,XYZ,9999 Nowhere',
      '2025-10-03,Euro GmbH,10.00,,EUR,',
    ].join('\n');
    const response = await wp.api.post('/api/mail/import', csv);
    expect(response.status).toBe(400);
    expect(response.body.rows).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'date', message: expect.any(String) },
        { row: 4, field: 'supplier', message: 'This field must be given' },
        { row: 4, field: 'amount', message: expect.any(String) },
        { row: 4, field: 'currency', message: "unknown currency 'XYZ'" },
        { row: 4, field: 'category', message: expect.stringContaining('9999 Nowhere') },
      ]),
    );
    expect(response.body.rows.some((r: any) => r.row === 2)).toBe(false);
    // A foreign currency without exchange rate fails when the bill is checked: still nothing written.
    const euro = await wp.api.post('/api/mail/import', 'date,supplier,amount\n2025-10-01,Neuer Lieferant GmbH,100.00\nnot a date,x,1\n');
    expect(euro.status).toBe(400);
    const rate = await wp.api.post('/api/mail/import', 'date,supplier,amount,currency\n2025-10-01,Neuer Lieferant GmbH,100.00,CHF\n2025-10-03,Euro GmbH,10.00,EUR\n');
    expect(rate.status).toBe(400);
    expect(rate.body.rows).toEqual([{ row: 3, field: 'exchangeRate', message: expect.any(String) }]);
    expect((await wp.api.post('/api/mail/import', 'when,who,how much\n2025-10-01,A,1\n')).body.rows).toEqual([
      { row: 1, field: 'date', message: 'column missing' },
      { row: 1, field: 'supplier', message: 'column missing' },
      { row: 1, field: 'amount', message: 'column missing' },
    ]);
    expect((await wp.api.post('/api/mail/import', 'date,supplier,amount\n')).status).toBe(400);
    expect((await wp.api.post('/api/mail/import?as=nothing', 'date,supplier,amount\n2025-10-01,A,1\n')).status).toBe(400);
    expect(await payableCounts(server, wp.instanceId)).toEqual(before);
    expect(await companyCount(wp.instanceId)).toBe(companies);
  });

  it("answers the row report in the user's language (issue 17 §3), the stored nothing unchanged", async () => {
    const csv = ['date,supplier,amount,vat,currency,category,type', '31.02.2025,,abc,-1,XYZ,9999 Nowhere,other'].join('\n');
    const german = await wp.api.request('POST', '/api/mail/import', csv, { 'content-type': 'text/csv', 'accept-language': 'de-CH' });
    expect(german.status).toBe(400);
    expect(german.body.error).toMatch(/^\d+ Fehler in 1 Zeile\(n\); nichts importiert$/);
    const message = (field: string) => german.body.rows.find((row: { field: string }) => row.field === field)?.message;
    expect(message('date')).toBe('das Datum muss JJJJ-MM-TT, TT.MM.JJJJ oder TT/MM/JJJJ sein');
    expect(message('amount')).toBe('der Betrag muss eine positive Zahl mit höchstens 2 Dezimalstellen sein');
    expect(message('vat')).toBe('die MWST muss eine Zahl ≥ 0 mit höchstens 2 Dezimalstellen sein');
    expect(message('currency')).toBe("unbekannte Währung 'XYZ'");
    expect(message('category')).toBe("kein Konto '9999 Nowhere' (Nummer oder Name angeben)");
    expect(message('type')).toBe("der Typ muss 'bill' oder 'expense' sein");
    const french = await wp.api.request('POST', '/api/mail/import', 'when,who\n2025-10-01,A\n', { 'content-type': 'text/csv', 'accept-language': 'fr' });
    expect(french.body.error).toBe('colonne(s) manquante(s) : date, supplier, amount');
    expect(french.body.rows[0]).toEqual({ row: 1, field: 'date', message: 'colonne manquante' });
  });

  it('answers 401 without a session and 403 for a viewer', async () => {
    const csv = 'date,supplier,amount\n2025-10-01,A,1\n';
    expect((await new Client(server.baseUrl).post('/api/mail/import', csv)).status).toBe(401);
    expect((await viewer.api.post('/api/mail/import', csv)).status).toBe(403);
  });
});
