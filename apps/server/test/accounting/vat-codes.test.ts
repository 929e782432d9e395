/** VAT codes and VAT on postings (issue 13 §1–2, migration 0023, decision 019), on both engines. */
import { SWISS_VAT_CODES, VAT_RATE_TYPES, vatPercentAt } from '@bilan/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

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
    [bank, office, revenue, services, machines] = await Promise.all(['1020', '6500', '3200', '4400', '1500'].map((n) => wp.account(n)));
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
