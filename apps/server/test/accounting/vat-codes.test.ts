/** VAT codes and VAT on postings (issue 13 §1–2, migration 0023, decision 019), on both engines. */
import { SWISS_VAT_CODES, VAT_RATE_TYPES, vatPercentAt } from '@bilan/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, type LedgerWorkplace } from './ledger.js';
import { invoiceData, invoicingWorkplace } from '../invoicing/support.js';
import { payablesWorkplace, QR_REF } from '../payables/setup.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('VAT codes as data', () => {
  let wp: LedgerWorkplace;
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
  });

  it('seeds the Swiss codes with the chart, equal to the domain seed', async () => {
    const rows = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<Record<string, unknown>>(
        `SELECT code, name, kind, rate_type AS "rateType", account_number AS "accountNumber",
                deduction_account_number AS "deductionAccountNumber", default_entry AS "defaultEntry",
                ziffer_base AS "zifferBase", ziffer_tax AS "zifferTax", ziffer_deduction AS "zifferDeduction", is_active AS "isActive"
           FROM vat_code WHERE instance_id = $1 ORDER BY code`,
        [wp.instanceId],
      ),
    );
    const expected = [...SWISS_VAT_CODES].map((code) => ({ ...code, isActive: true })).sort((a, b) => (a.code < b.code ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it('lists, creates, changes and deletes codes (owner and admin); a used code is deactivated, not deleted', async () => {
    const list = await wp.api.get('/api/accounting/vat-code/list');
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { code: string }) => c.code)).toContain('M81');
    expect(list.body.data.find((c: { code: string }) => c.code === 'B81')).toEqual({ ...SWISS_VAT_CODES.find((c) => c.code === 'B81'), isActive: true, hasPostings: false });

    const data = { code: 'M81-X', name: 'Input tax, special', kind: 'input', rateType: 'standard', accountNumber: '1170', defaultEntry: 'net', zifferBase: null, zifferTax: '400' };
    const created = await wp.api.post('/api/accounting/vat-code/insert', { data });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ ...data, deductionAccountNumber: null, zifferDeduction: null, isActive: true, hasPostings: false });
    const again = await wp.api.post('/api/accounting/vat-code/insert', { data });
    expect([again.status, again.body.code, again.body.fields]).toEqual([409, 'vat_code_taken', { 'data.code': 'VAT code M81-X already exists' }]);

    const wrong = await wp.api.post('/api/accounting/vat-code/insert', {
      data: { ...data, code: 'BAD', kind: 'exempt', accountNumber: '9999', deductionAccountNumber: '1170' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({
      'data.rateType': 'a code of kind exempt carries no tax: rate type zero',
      'data.deductionAccountNumber': 'only an acquisition tax has a deduction account',
      'data.accountNumber': 'ledger account 9999 not found',
    });
    const zero = await wp.api.post('/api/accounting/vat-code/insert', { data: { ...data, code: 'BAD1', kind: 'exempt', rateType: 'zero' } });
    expect(zero.body.fields).toEqual({ 'data.accountNumber': 'a zero-rate code posts no tax: no account' });
    const noAccount = await wp.api.post('/api/accounting/vat-code/insert', { data: { ...data, code: 'BAD2', accountNumber: '1179' } });
    expect(noAccount.body.fields).toEqual({ 'data.accountNumber': 'ledger account 1179 not found' });

    const viewer = await ledgerWorkplace(server, { role: 'viewer' });
    expect((await viewer.api.get('/api/accounting/vat-code/list')).status).toBe(200);
    expect((await viewer.api.post('/api/accounting/vat-code/insert', { data: { ...data, code: 'V1' } })).status).toBe(403);

    const renamed = await wp.api.post('/api/accounting/vat-code/update', { code: 'M81-X', data: { name: 'Input tax, renamed', defaultEntry: 'gross' } });
    expect(renamed.body).toMatchObject({ code: 'M81-X', name: 'Input tax, renamed', defaultEntry: 'gross', kind: 'input' });
    expect((await wp.api.post('/api/accounting/vat-code/update', { code: 'NOPE', data: { name: 'x' } })).status).toBe(404);
    // A patch changes only what it names: the acquisition tax keeps its deduction account and Ziffer.
    const b81 = await wp.api.post('/api/accounting/vat-code/update', { code: 'B81', data: { name: 'Bezugsteuer' } });
    expect(b81.body).toMatchObject({ name: 'Bezugsteuer', deductionAccountNumber: '1170', zifferDeduction: '400', isActive: true });

    // Used: kind and rate type stay, deleting is refused, deactivating works.
    const [bank, office] = [await wp.account('1020'), await wp.account('6500')];
    const posted = await wp.api.post('/api/accounting/entry/insert', {
      data: { dateLedger: '2024-02-02', description: 'special', entryAccounts: [{ account: { id: office }, amount: '10.81', direction: 1, vatCode: 'M81-X' }, { account: { id: bank }, amount: '10.81', direction: -1 }] },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const kind = await wp.api.post('/api/accounting/vat-code/update', { code: 'M81-X', data: { rateType: 'reduced' } });
    expect([kind.status, kind.body.code]).toEqual([409, 'vat_code_in_use']);
    const deleted = await wp.api.post('/api/accounting/vat-code/delete', { code: 'M81-X' });
    expect([deleted.status, deleted.body.code]).toEqual([409, 'vat_code_in_use']);
    const off = await wp.api.post('/api/accounting/vat-code/update', { code: 'M81-X', data: { isActive: false } });
    expect(off.body).toMatchObject({ isActive: false, hasPostings: true });
    expect((await wp.api.post('/api/accounting/vat-code/delete', { code: 'O910' })).body).toEqual({ ok: true });
    expect((await wp.api.post('/api/accounting/vat-code/delete', { code: 'O910' })).status).toBe(404);
    // Seeding again (a later chart load) brings back only what is missing and changes nothing else.
    await server.db.withInstance(wp.instanceId, (tx) => tx.query('SELECT seed_vat_codes($1)', [wp.instanceId]));
    const after = (await wp.api.get('/api/accounting/vat-code/list')).body.data;
    expect(after.find((c: { code: string }) => c.code === 'O910')).toMatchObject({ isActive: true });
    expect(after.find((c: { code: string }) => c.code === 'M81-X')).toMatchObject({ isActive: false, name: 'Input tax, renamed' });
  });

  it('has the same rate table in SQL as in the domain', async () => {
    const dates = ['2010-12-31', '2011-01-01', '2017-12-31', '2018-01-01', '2023-12-31', '2024-01-01', '2030-06-30'];
    const cases = VAT_RATE_TYPES.flatMap((type) => dates.map((date) => ({ type, date })));
    const rows = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ percent: string }>(
        `SELECT vat_rate_percent(t, d::date)::text AS percent FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c(t, d, n) ORDER BY n`,
        [cases.map((c) => c.type), cases.map((c) => c.date)],
      ),
    );
    expect(rows.map((r) => Number(r.percent).toString())).toEqual(cases.map((c) => Number(vatPercentAt(c.type, c.date)).toString()));
  });
});

/** The postings of an answered entry as `number direction amount [code role percent base tax]`. */
function postings(entry: { entryAccounts: { account: { number: string }; amount: string; direction: number; vat: null | Record<string, string> }[] }) {
  return entry.entryAccounts.map((l) => {
    const side = `${l.account.number} ${l.direction === 1 ? 'D' : 'C'} ${l.amount}`;
    return l.vat ? `${side} ${l.vat.code} ${l.vat.role} ${l.vat.percent} ${l.vat.base} ${l.vat.amount}` : side;
  });
}

describe('VAT on journal entries (entry/insert, update, detail, list)', () => {
  let wp: LedgerWorkplace;
  let bank: number;
  let office: number;
  let revenue: number;
  let services: number;
  let machines: number;
  const insert = (dateLedger: string, entryAccounts: unknown[], description = 'vat test') =>
    wp.api.post('/api/accounting/entry/insert', { data: { dateLedger, description, entryAccounts } });

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    const ids = await Promise.all(['1020', '6500', '3200', '4400', '1500'].map((n) => wp.account(n)));
    [bank, office, revenue, services, machines] = ids as [number, number, number, number, number];
  });

  it('splits 108.10 gross on 6500 with M81 into 100.00 + 8.10 on 1170 in the same entry', async () => {
    const answer = await insert('2024-03-15', [
      { account: { id: office }, amount: '108.10', direction: 1, vatCode: 'M81' },
      { account: { id: bank }, amount: '108.10', direction: -1 },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(postings(answer.body)).toEqual(['6500 D 100.00 M81 base 8.1 100.00 8.10', '1170 D 8.10 M81 tax 8.1 100.00 8.10', '1020 C 108.10']);
    expect(answer.body.debitTotal).toBe('108.10');
    const detail = await wp.api.post('/api/accounting/entry/detail', { id: answer.body.id });
    expect(postings(detail.body)).toEqual(postings(answer.body));
    const list = await wp.api.post('/api/accounting/entry/list', { filters: { text: String(answer.body.id) } });
    expect(postings(list.body.data.find((e: { id: number }) => e.id === answer.body.id))).toEqual(postings(answer.body));
  });

  it('adds the tax to a net amount: 100.00 net → 100.00 + 8.10, the bank pays 108.10', async () => {
    const answer = await insert('2024-03-15', [
      { account: { id: office }, amount: '100.00', direction: 1, vatCode: 'M81', vatEntry: 'net' },
      { account: { id: bank }, amount: '108.10', direction: -1 },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(postings(answer.body)).toEqual(['6500 D 100.00 M81 base 8.1 100.00 8.10', '1170 D 8.10 M81 tax 8.1 100.00 8.10', '1020 C 108.10']);
    // Net without the tax on the other side does not balance after the split.
    const unbalanced = await insert('2024-03-15', [
      { account: { id: office }, amount: '100.00', direction: 1, vatCode: 'M81', vatEntry: 'net' },
      { account: { id: bank }, amount: '100.00', direction: -1 },
    ]);
    expect(unbalanced.status).toBe(400);
    expect(unbalanced.body.fields['data.entryAccounts']).toBe('debit and credit must be equal');
  });

  it('credits sales tax (V81 on 2200), posts the 2023 supply at 7.7 %, and signs a credit note negative', async () => {
    const sale = await insert('2024-05-02', [
      { account: { id: bank }, amount: '1081.00', direction: 1 },
      { account: { id: revenue }, amount: '1081.00', direction: -1, vatCode: 'V81' },
    ]);
    expect(postings(sale.body)).toEqual(['1020 D 1081.00', '3200 C 1000.00 V81 base 8.1 1000.00 81.00', '2200 C 81.00 V81 tax 8.1 1000.00 81.00']);
    const old = await insert('2023-12-31', [
      { account: { id: bank }, amount: '107.70', direction: 1 },
      { account: { id: revenue }, amount: '107.70', direction: -1, vatCode: 'V81' },
    ]);
    expect(postings(old.body)).toEqual(['1020 D 107.70', '3200 C 100.00 V81 base 7.7 100.00 7.70', '2200 C 7.70 V81 tax 7.7 100.00 7.70']);
    const creditNote = await insert('2024-05-03', [
      { account: { id: revenue }, amount: '108.10', direction: 1, vatCode: 'V81' },
      { account: { id: bank }, amount: '108.10', direction: -1 },
    ]);
    expect(postings(creditNote.body)).toEqual(['3200 D 100.00 V81 base 8.1 -100.00 -8.10', '2200 D 8.10 V81 tax 8.1 -100.00 -8.10', '1020 C 108.10']);
  });

  it('posts each kind: reduced and accommodation sales, I-input on 1171, reduction, export and outside codes', async () => {
    const answer = await insert('2024-06-10', [
      { account: { id: bank }, amount: '3000.00', direction: 1 },
      { account: { id: revenue }, amount: '102.60', direction: -1, vatCode: 'V26' },
      { account: { id: revenue }, amount: '103.80', direction: -1, vatCode: 'V38' },
      { account: { id: revenue }, amount: '500.00', direction: -1, vatCode: 'X0' },
      { account: { id: revenue }, amount: '2293.60', direction: -1, vatCode: 'E0' },
      { account: { id: machines }, amount: '540.50', direction: 1, vatCode: 'I81' },
      { account: { id: revenue }, amount: '54.05', direction: 1, vatCode: 'R81' },
      { account: { id: bank }, amount: '594.55', direction: -1, vatCode: 'O0' },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(postings(answer.body)).toEqual([
      '1020 D 3000.00',
      '3200 C 100.00 V26 base 2.6 100.00 2.60',
      '2201 C 2.60 V26 tax 2.6 100.00 2.60',
      '3200 C 100.00 V38 base 3.8 100.00 3.80',
      '2202 C 3.80 V38 tax 3.8 100.00 3.80',
      '3200 C 500.00 X0 base 0.0 500.00 0.00',
      '3200 C 2293.60 E0 base 0.0 2293.60 0.00',
      '1500 D 500.00 I81 base 8.1 500.00 40.50',
      '1171 D 40.50 I81 tax 8.1 500.00 40.50',
      '3200 D 50.00 R81 base 8.1 50.00 4.05',
      '2200 D 4.05 R81 tax 8.1 50.00 4.05',
      '1020 C 594.55 O0 base 0.0 594.55 0.00',
    ]);
    // 2202 did not exist in the chart: created on first use with its name (decision 008).
    const [account] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ name: string }>("SELECT name FROM ledger_account WHERE instance_id = $1 AND number = '2202'", [wp.instanceId]),
    );
    expect(account?.name).toBe('Geschuldete MWST (3.8%)');
  });

  it('posts acquisition tax due on 2203 and its deduction on 1170, which cancel', async () => {
    const answer = await insert('2024-07-01', [
      { account: { id: services }, amount: '1000.00', direction: 1, vatCode: 'B81' },
      { account: { id: bank }, amount: '1000.00', direction: -1 },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(postings(answer.body)).toEqual([
      '4400 D 1000.00 B81 base 8.1 1000.00 81.00',
      '2203 C 81.00 B81 tax 8.1 1000.00 81.00',
      '1170 D 81.00 B81 deduction 8.1 1000.00 81.00',
      '1020 C 1000.00',
    ]);
    const gross = await insert('2024-07-01', [
      { account: { id: services }, amount: '1081.00', direction: 1, vatCode: 'B81', vatEntry: 'gross' },
      { account: { id: bank }, amount: '1081.00', direction: -1 },
    ]);
    expect(gross.status).toBe(400);
    expect(gross.body.fields['data.entryAccounts.0.vatEntry']).toMatch(/not included in the price/);
  });

  it('rounds the tax half-up to the cent on each line', async () => {
    const answer = await insert('2024-08-01', [
      { account: { id: office }, amount: '10.00', direction: 1, vatCode: 'M81' }, // 0.74930… → 0.75
      { account: { id: office }, amount: '12.50', direction: 1, vatCode: 'M26', vatEntry: 'net' }, // 0.325 → 0.33
      { account: { id: office }, amount: '18.50', direction: 1, vatCode: 'M81', vatEntry: 'net' }, // 1.4985 → 1.50
      { account: { id: bank }, amount: '42.83', direction: -1 },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(postings(answer.body)).toEqual([
      '6500 D 9.25 M81 base 8.1 9.25 0.75',
      '1170 D 0.75 M81 tax 8.1 9.25 0.75',
      '6500 D 12.50 M26 base 2.6 12.50 0.33',
      '1170 D 0.33 M26 tax 2.6 12.50 0.33',
      '6500 D 18.50 M81 base 8.1 18.50 1.50',
      '1170 D 1.50 M81 tax 8.1 18.50 1.50',
      '1020 C 42.83',
    ]);
  });

  it('refuses an unknown or inactive code naming the field and the code, and writes nothing', async () => {
    const before = await ledgerCounts(server, wp.instanceId);
    const unknown = await insert('2024-03-15', [
      { account: { id: office }, amount: '108.10', direction: 1, vatCode: 'ZZ9' },
      { account: { id: bank }, amount: '108.10', direction: -1, vatCode: 'M81' },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual({ 'data.entryAccounts.0.vatCode': 'VAT code ZZ9 not found' });
    expect(unknown.body.error).toBe('data.entryAccounts.0.vatCode: VAT code ZZ9 not found');
    const entryWithoutCode = await insert('2024-03-15', [
      { account: { id: office }, amount: '1.00', direction: 1, vatEntry: 'net' },
      { account: { id: bank }, amount: '1.00', direction: -1 },
    ]);
    expect(entryWithoutCode.status).toBe(400);
    expect(entryWithoutCode.body.fields['data.entryAccounts.0.vatEntry']).toBe('vatEntry is given only with a vatCode');
    const bad = await insert('2024-03-15', [
      { account: { id: office }, amount: '108.10', direction: 1, vatCode: 'm81' },
      { account: { id: bank }, amount: '108.10', direction: -1 },
    ]);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['data.entryAccounts.0.vatCode']);

    expect((await wp.api.post('/api/accounting/vat-code/update', { code: 'M38', data: { isActive: false } })).status).toBe(200);
    const inactive = await insert('2024-03-15', [
      { account: { id: office }, amount: '103.80', direction: 1, vatCode: 'M38' },
      { account: { id: bank }, amount: '103.80', direction: -1 },
    ]);
    expect(inactive.status).toBe(400);
    expect(inactive.body.fields['data.entryAccounts.0.vatCode']).toBe('VAT code M38 is inactive');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
    expect((await wp.api.post('/api/accounting/vat-code/update', { code: 'M38', data: { isActive: true } })).status).toBe(200);
  });

  it('replaces an entry with coded lines on entry/update (the tax lines are generated again)', async () => {
    const created = await insert('2024-09-01', [
      { account: { id: office }, amount: '54.05', direction: 1, vatCode: 'M81' },
      { account: { id: bank }, amount: '54.05', direction: -1 },
    ]);
    const updated = await wp.api.post('/api/accounting/entry/update', {
      id: created.body.id,
      data: {
        dateLedger: '2024-09-02',
        description: 'changed',
        entryAccounts: [
          { account: { id: office }, amount: '50.00', direction: 1, vatCode: 'M81', vatEntry: 'net' },
          { account: { id: bank }, amount: '54.05', direction: -1 },
        ],
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(postings(updated.body)).toEqual(['6500 D 50.00 M81 base 8.1 50.00 4.05', '1170 D 4.05 M81 tax 8.1 50.00 4.05', '1020 C 54.05']);
  });

  it('keeps VAT consistent in the database: a tax line without a code, or a base that is not its amount, is refused', async () => {
    const attempt = (sql: string) =>
      server.db
        .withInstance(wp.instanceId, (tx) => tx.query(sql, [wp.instanceId]))
        .then(() => 'written', (error: { code?: string }) => error.code);
    const lineSql = (vat: string) =>
      `WITH e AS (SELECT next_ids($1, 'journal_entry', 1) AS id),
            ins AS (INSERT INTO journal_entry (instance_id, id, date_ledger, description) SELECT $1, id, '2024-10-01', 'x' FROM e RETURNING id)
       INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate,
                                 vat_code, vat_role, vat_percent, vat_base, vat_amount)
       SELECT $1, next_ids($1, 'journal_line', 1), ins.id, '2024-10-01', a.id, d, 10, 1, 10, 1, ${vat}
         FROM ins, (SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '6500') a, (VALUES (1), (-1)) AS s(d)`;
    expect(await attempt(lineSql(`NULL, 'tax', 8.1, 100, 10`))).toBe('23514');
    expect(await attempt(lineSql(`'M81', 'base', 8.1, 9, 0.81`))).toBe('23514');
    expect(await attempt(lineSql(`'M81', 'tax', 0, 100, 10`))).toBe('23514');
    expect(await attempt(lineSql(`'NOPE', 'base', 8.1, 10, 0.81`))).toBe('23503');
    expect(await attempt(lineSql(`'M81', 'base', 8.1, 10, 0.81`))).toBe('written');
  });
});

describe('journal import with VAT codes', () => {
  let wp: LedgerWorkplace;
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
  });

  it('splits coded rows like entry/insert (gross by default, net when said) and checks the balance after the split', async () => {
    const csv = [
      'date,entry,description,account,amount,currency,vat,vatEntry',
      '2024-02-01,E1,Office supplies,6500,108.10,CHF,M81,',
      '2024-02-01,E1,Office supplies,1020,-108.10,CHF,,',
      '2023-11-30,E2,Sale 2023,1100,230.80,CHF,,',
      '2023-11-30,E2,Sale 2023,3200,-200.00,CHF,V81,net',
      '2023-11-30,E2,Sale 2023,3201,-15.40,CHF,V26,',
    ].join('\n');
    const imported = await wp.api.post('/api/accounting/import/journal', csv);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ entries: 2, lines: 8 });
    const list = await wp.api.post('/api/accounting/entry/list', {});
    expect(list.body.data.map(postings)).toEqual([
      // 2023: 200.00 net at 7.7 % → 15.40; 15.40 gross at 2.5 % → 15.02 + 0.38.
      ['1100 D 230.80', '3200 C 200.00 V81 base 7.7 200.00 15.40', '2200 C 15.40 V81 tax 7.7 200.00 15.40', '3201 C 15.02 V26 base 2.5 15.02 0.38', '2201 C 0.38 V26 tax 2.5 15.02 0.38'],
      ['6500 D 100.00 M81 base 8.1 100.00 8.10', '1170 D 8.10 M81 tax 8.1 100.00 8.10', '1020 C 108.10'],
    ]);
  });

  it('refuses an unknown or inactive code naming row and code, and imports nothing', async () => {
    expect((await wp.api.post('/api/accounting/vat-code/update', { code: 'O900', data: { isActive: false } })).status).toBe(200);
    const before = await ledgerCounts(server, wp.instanceId);
    const csv = [
      'date,entry,description,account,amount,currency,vatCode',
      '2024-03-01,A,Fees,6500,50.00,CHF,QQ1',
      '2024-03-01,A,Fees,1020,-50.00,CHF,',
      '2024-03-02,B,Grant,1020,10.00,CHF,',
      '2024-03-02,B,Grant,3200,-10.00,CHF,O900',
    ].join('\n');
    const refused = await wp.api.post('/api/accounting/import/journal', csv);
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({ 'line 2.vatcode': 'unknown VAT code "QQ1"', 'line 5.vatcode': 'VAT code O900 is inactive' });
    expect(refused.body.error).toContain('line 2, column vatcode: unknown VAT code "QQ1"');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });
});

describe('back-fill of postings made before VAT codes (migration 0023)', () => {
  it('codes VAT-account postings as tax lines, their entry’s base lines where the rate explains the tax, and leaves the rest', async () => {
    const wp = await ledgerWorkplace(server);
    const id = async (n: string) => wp.account(n);
    const entry = async (date: string, lines: [string, string, 1 | -1][]) => {
      const entryAccounts = await Promise.all(lines.map(async ([n, amount, direction]) => ({ account: { id: await id(n) }, amount, direction })));
      const answer = await wp.api.post('/api/accounting/entry/insert', { data: { dateLedger: date, description: 'before 0023', entryAccounts } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.id as number;
    };
    const bill = await entry('2024-04-01', [['6500', '100.00', 1], ['1170', '2.60', 1], ['2000', '102.60', -1]]);
    const sale = await entry('2024-04-02', [['1100', '1081.00', 1], ['3200', '600.00', -1], ['3400', '400.00', -1], ['2200', '81.00', -1]]);
    const oldSale = await entry('2023-06-30', [['1100', '107.70', 1], ['3200', '100.00', -1], ['2200', '7.70', -1]]);
    const twoRates = await entry('2024-04-03', [['1100', '110.70', 1], ['3200', '100.00', -1], ['2200', '8.10', -1], ['2201', '2.60', -1]]);
    const settlement = await entry('2024-06-30', [['2200', '50.00', 1], ['1020', '50.00', -1]]);
    const plain = await entry('2024-04-04', [['6500', '10.00', 1], ['1020', '10.00', -1]]);

    const marked = await server.db.asOwner(async (tx) => {
      await tx.query("SELECT set_config('bilan.instance_id', $1, true)", [wp.instanceId]);
      const [row] = await tx.query<{ n: number }>('SELECT backfill_vat_postings($1) AS n', [wp.instanceId]);
      return row!.n;
    });
    const show = async (entryId: number) => postings((await wp.api.post('/api/accounting/entry/detail', { id: entryId })).body);
    expect(await show(bill)).toEqual(['6500 D 100.00 M26 base 2.6 100.00 2.60', '1170 D 2.60 M26 tax 2.6 100.00 2.60', '2000 C 102.60']);
    expect(await show(sale)).toEqual([
      '1100 D 1081.00',
      '3200 C 600.00 V81 base 8.1 600.00 48.60',
      '3400 C 400.00 V81 base 8.1 400.00 32.40',
      '2200 C 81.00 V81 tax 8.1 1000.00 81.00',
    ]);
    expect(await show(oldSale)).toEqual(['1100 D 107.70', '3200 C 100.00 V81 base 7.7 100.00 7.70', '2200 C 7.70 V81 tax 7.7 100.00 7.70']);
    // Two VAT lines in one entry: each is a tax line, the bases cannot be told apart.
    expect(await show(twoRates)).toEqual(['1100 D 110.70', '3200 C 100.00', '2200 C 8.10 V81 tax 8.1 100.00 8.10', '2201 C 2.60 V26 tax 2.6 100.00 2.60']);
    // A payment of VAT due to the ESTV is no supply: left uncoded.
    expect(await show(settlement)).toEqual(['2200 D 50.00', '1020 C 50.00']);
    expect(await show(plain)).toEqual(['6500 D 10.00', '1020 C 10.00']);
    expect(marked).toBe(2 + 3 + 2 + 2);
    // Running it again finds nothing left to mark.
    const again = await server.db.asOwner(async (tx) => {
      await tx.query("SELECT set_config('bilan.instance_id', $1, true)", [wp.instanceId]);
      const [row] = await tx.query<{ n: number }>('SELECT backfill_vat_postings($1) AS n', [wp.instanceId]);
      return row!.n;
    });
    expect(again).toBe(0);
  });
});

/** Σ vat_base of base lines and Σ vat_amount of tax lines by code and rate: what the return reads. */
async function sumsByCode(instanceId: string, entryIds: number[]) {
  const rows = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ code: string; percent: string; base: string; tax: string }>(
      `SELECT vat_code AS code, vat_percent::float8::text AS percent,
              coalesce(sum(vat_base) FILTER (WHERE vat_role = 'base'), 0)::text AS base,
              coalesce(sum(vat_amount) FILTER (WHERE vat_role = 'tax'), 0)::text AS tax
         FROM journal_line WHERE instance_id = $1 AND entry_id = ANY ($2::int[]) AND vat_code IS NOT NULL
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [instanceId, entryIds],
    ),
  );
  return rows.map((r) => `${r.code} ${r.percent} ${r.base} ${r.tax}`);
}

describe('documents post through the same codes', () => {
  it('sends an invoice with a base line per revenue account and code and a tax line per rate; denying it nets every figure to zero', async () => {
    const w = await invoicingWorkplace(server);
    const services = await w.account('3400');
    const created = await w.api.post('/api/invoice/insert', {
      data: {
        ...invoiceData(w),
        vat: '0.081',
        dateInvoice: '2025-03-01',
        items: [
          { name: 'Consulting', amount: '2', price: '150', account: { id: services } },
          { name: 'Goods', amount: '1', price: '100' },
          { name: 'Books', amount: '3', price: '19.90', vat: '0.026' },
          { name: 'Hotel night', amount: '1', price: '180', vat: '0.038' },
          { name: 'Export goods', amount: '1', price: '50', vat: '0' },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const invoice = created.body;
    // 400 × 8.1 % = 32.40; 59.70 × 2.6 % = 1.5522 → 1.55; 180 × 3.8 % = 6.84; net 689.70, gross 730.49 → 730.50.
    expect(invoice.totals).toMatchObject({ net: '689.70', vat: '40.79', rounding: '0.01', total: '730.50' });
    const sent = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-03-05' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: sent.body.entries[0].id })).body;
    expect(postings(entry)).toEqual([
      '1100 D 730.50',
      // The 8.1 % tax shared by the two revenue postings (300 : 100), the rounding with the largest.
      '3400 C 300.01 V81 base 8.1 300.01 24.30',
      '3200 C 100.00 V81 base 8.1 100.00 8.10',
      '2200 C 32.40 V81 tax 8.1 400.00 32.40',
      '3202 C 180.00 V38 base 3.8 180.00 6.84',
      '2202 C 6.84 V38 tax 3.8 180.00 6.84',
      '3201 C 59.70 V26 base 2.6 59.70 1.55',
      '2201 C 1.55 V26 tax 2.6 59.70 1.55',
      '3203 C 50.00 X0 base 0.0 50.00 0.00',
    ]);
    // The return's sums equal the invoice's VAT per rate (the base of 8.1 % with the 5-Rappen rounding).
    expect(await sumsByCode(w.instanceId, [entry.id])).toEqual(['V26 2.6 59.70 1.55', 'V38 3.8 180.00 6.84', 'V81 8.1 400.01 32.40', 'X0 0 50.00 0']);
    const denied = await w.api.post('/api/invoice/status/change', { uuid: invoice.uuid, status: 4, ledgerDate: '2025-03-20' });
    expect(denied.status).toBe(200);
    expect(await sumsByCode(w.instanceId, [entry.id, denied.body.entries[1].id])).toEqual(['V26 2.6 0.00 0.00', 'V38 3.8 0.00 0.00', 'V81 8.1 0.00 0.00', 'X0 0 0.00 0']);
  });

  it('taxes an invoice dated 2023 at 7.7 % even when it is booked in 2024', async () => {
    const w = await invoicingWorkplace(server);
    const created = await w.api.post('/api/invoice/insert', {
      data: { ...invoiceData(w), vat: '0.081', dateInvoice: '2023-12-20', dateDue: '2024-01-19', items: [{ name: 'December work', amount: '1', price: '1000' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.totals).toMatchObject({ vatLines: [{ rate: '0.077', base: '1000.00', vat: '77.00' }], total: '1077.00' });
    const sent = await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2024-01-05' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: sent.body.entries[0].id })).body;
    expect(postings(entry)).toEqual(['1100 D 1077.00', '3200 C 1000.00 V81 base 7.7 1000.00 77.00', '2200 C 77.00 V81 tax 7.7 1000.00 77.00']);
  });

  it('books a bill and a staff expense with M… and I… codes by expense account, the tax as on the bill', async () => {
    const w = await payablesWorkplace(server);
    const approve = async (data: Record<string, unknown>) => {
      const created = await w.api.post('/api/payable/insert', { data });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const answer = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };
    const supplierBill = { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, referenceNumber: QR_REF, date: '2025-03-10' };
    const material = await approve({ ...supplierBill, amount: '1081.00', vatRate: '0.081', expenseAccount: { id: await w.account('4400') } });
    const books = await approve({ ...supplierBill, amount: '102.60', vatRate: '0.026', expenseAccount: { id: await w.account('6500') } });
    // No rate on the bill: the rate is told from VAT ÷ net (80.95 on 999.95 ≈ 8.1 %); the tax stays as entered.
    const noRate = await approve({ ...supplierBill, amount: '1080.90', vatAmount: '80.95', expenseAccount: { id: await w.account('1520') } });
    const expense = await approve({ isExpense: true, date: '2025-03-12', amount: '64.80', vatRate: '0.081', description: 'Train ticket' });
    const show = async (bill: { bookingEntry: { id: number } }) => postings((await w.api.post('/api/accounting/entry/detail', { id: bill.bookingEntry.id })).body);
    expect(await show(material)).toEqual(['4400 D 1000.00 M81 base 8.1 1000.00 81.00', '1170 D 81.00 M81 tax 8.1 1000.00 81.00', '2000 C 1081.00']);
    expect(await show(books)).toEqual(['6500 D 100.00 I26 base 2.6 100.00 2.60', '1171 D 2.60 I26 tax 2.6 100.00 2.60', '2000 C 102.60']);
    expect(await show(noRate)).toEqual(['1520 D 999.95 I81 base 8.1 999.95 80.95', '1171 D 80.95 I81 tax 8.1 999.95 80.95', '2000 C 1080.90']);
    expect(await show(expense)).toEqual(['6500 D 59.94 I81 base 8.1 59.94 4.86', '1171 D 4.86 I81 tax 8.1 59.94 4.86', '2250 C 64.80']);
    const entries = [material, books, noRate, expense].map((bill) => bill.bookingEntry.id as number);
    expect(await sumsByCode(w.instanceId, entries)).toEqual(['I26 2.6 100.00 2.60', 'I81 8.1 1059.89 85.81', 'M81 8.1 1000.00 81.00']);
  });
});

describe.runIf(engine === 'postgres')('parallel VAT code inserts', () => {
  it('creates a code once for 20 identical parallel calls; the others answer 409 vat_code_taken', async () => {
    const wp = await ledgerWorkplace(server);
    const data = { code: 'M81-P', name: 'Input tax, parallel', kind: 'input', rateType: 'standard', accountNumber: '1170', defaultEntry: 'net', zifferBase: null, zifferTax: '400' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => wp.api.post('/api/accounting/vat-code/insert', { data })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const others = answers.filter((answer) => answer.status !== 200);
    expect(others.map((answer) => [answer.status, answer.body.code])).toEqual(others.map(() => [409, 'vat_code_taken']));
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ codes: number }>(`SELECT count(*)::int AS codes FROM vat_code WHERE instance_id = $1 AND code = 'M81-P'`, [wp.instanceId]),
    );
    expect(row!.codes).toBe(1);
  });
});
