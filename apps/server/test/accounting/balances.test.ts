import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money, toFixedAmount } from '@bilan/domain';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
let wp: LedgerWorkplace;

/** A deterministic pseudo-random journal over 2023–2024 (linear congruential generator). */
function generatedJournal(accounts: readonly string[], entries: number): string {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const rows = ['date,entry,description,account,amount,currency'];
  for (let e = 1; e <= entries; e += 1) {
    const date = `${2023 + next(2)}-${String(1 + next(12)).padStart(2, '0')}-${String(1 + next(28)).padStart(2, '0')}`;
    const cents = 1 + next(1_000_000);
    const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    const debit = accounts[next(accounts.length)]!;
    let credit = accounts[next(accounts.length)]!;
    if (credit === debit) credit = accounts[(accounts.indexOf(debit) + 1) % accounts.length]!;
    rows.push(`${date},G${e},generated ${e},${debit},${amount},CHF`, `${date},G${e},generated ${e},${credit},-${amount},CHF`);
  }
  return rows.join('\n');
}

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
  const imported = await wp.api.post('/api/accounting/import/journal', generatedJournal(['1000', '1020', '1100', '2000', '3200', '4200', '6500'], 400));
  if (imported.status !== 200) throw new Error(JSON.stringify(imported.body));
});
afterAll(async () => server?.close());

/** Balance per account id at `date` as a plain SUM over every posting: the reference the reports must equal. */
async function sqlBalances(instanceId: string, date: string): Promise<Map<number, { debit: string; credit: string; balance: string }>> {
  const rows = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ account_id: number; debit: string; credit: string; balance: string }>(
      `SELECT account_id,
              coalesce(sum(amount) FILTER (WHERE direction = 1), 0)::text AS debit,
              coalesce(sum(amount) FILTER (WHERE direction = -1), 0)::text AS credit,
              sum(amount * direction)::text AS balance
         FROM journal_line WHERE instance_id = $1 AND date_ledger <= $2 GROUP BY account_id`,
      [instanceId, date],
    ),
  );
  return new Map(rows.map((r) => [r.account_id, { debit: toFixedAmount(r.debit), credit: toFixedAmount(r.credit), balance: toFixedAmount(r.balance) }]));
}

describe('POST /api/accounting/balance/get/multi', () => {
  it('equals a plain SUM over journal_line at month-ends and mid-month dates', async () => {
    const endDates = ['2022-12-31', '2023-01-31', '2023-02-28', '2023-06-15', '2023-12-31', '2024-02-29', '2024-07-01', '2024-12-31', '2024-12-30', '2025-03-31'];
    const response = await wp.api.post('/api/accounting/balance/get/multi', { endDates });
    expect(response.status).toBe(200);
    expect(response.body.endDates).toEqual(endDates);
    expect(response.body.accounts.map((a: { number: string }) => a.number)).toEqual(['1000', '1020', '1100', '2000', '3200', '4200', '6500']);
    for (const [i, date] of endDates.entries()) {
      const reference = await sqlBalances(wp.instanceId, date);
      for (const account of response.body.accounts) {
        expect({ date, account: account.number, balance: account.balances[i] }).toEqual({
          date,
          account: account.number,
          balance: reference.get(account.id)?.balance ?? '0.00',
        });
      }
    }
  });

  it('answers 400 naming the field for bad dates, too many or no dates; 401 without a token', async () => {
    const badDate = await wp.api.post('/api/accounting/balance/get/multi', { endDates: ['2024-01-31', '2024-02-30'] });
    expect(badDate.status).toBe(400);
    expect(badDate.body.fields['endDates.1']).toBe('date invalid');
    expect((await wp.api.post('/api/accounting/balance/get/multi', { endDates: [] })).body.fields.endDates).toBe('at least one date');
    expect((await wp.api.post('/api/accounting/balance/get/multi', { endDates: Array(25).fill('2024-01-31') })).body.fields.endDates).toBe('at most 24 dates');
    expect((await wp.api.post('/api/accounting/balance/get/multi', {})).body.fields.endDates).toBeDefined();
    expect((await new Client(server.baseUrl).post('/api/accounting/balance/get/multi', { endDates: ['2024-01-31'] })).status).toBe(401);
  });
});

describe('POST /api/accounting/balance/get (trial balance)', () => {
  it('equals per-account SQL sums at a partial date, and debit total = credit total', async () => {
    for (const date of ['2023-08-17', '2024-12-31']) {
      const response = await wp.api.post('/api/accounting/balance/get', { date });
      expect(response.status).toBe(200);
      expect(response.body.date).toBe(date);
      const reference = await sqlBalances(wp.instanceId, date);
      expect(response.body.accounts).toHaveLength(reference.size);
      for (const account of response.body.accounts) {
        expect({ id: account.id, debit: account.debit, credit: account.credit, balance: account.balance }).toEqual({ id: account.id, ...reference.get(account.id) });
      }
      expect(response.body.totals.debit).toBe(response.body.totals.credit);
      expect(response.body.totals.balance).toBe('0.00');
    }
  });

  it('with dateFrom: opening balance before it and the period turnover, equal to SQL sums over the range', async () => {
    const dateFrom = '2024-01-01';
    const date = '2024-06-17';
    const response = await wp.api.post('/api/accounting/balance/get', { dateFrom, date });
    expect(response.status).toBe(200);
    expect(response.body.dateFrom).toBe(dateFrom);
    const before = await sqlBalances(wp.instanceId, '2023-12-31');
    const atDate = await sqlBalances(wp.instanceId, date);
    expect(response.body.accounts).toHaveLength(atDate.size);
    for (const account of response.body.accounts) {
      const start = before.get(account.id) ?? { debit: '0.00', credit: '0.00', balance: '0.00' };
      const end = atDate.get(account.id)!;
      expect(account).toMatchObject({
        openingBalance: start.balance,
        debit: toFixedAmount(new Money(end.debit).minus(start.debit)),
        credit: toFixedAmount(new Money(end.credit).minus(start.credit)),
        balance: end.balance,
      });
    }
    expect(response.body.totals.debit).toBe(response.body.totals.credit);
    expect(response.body.totals.openingBalance).toBe('0.00');
    expect(response.body.totals.balance).toBe('0.00');
    // Without dateFrom the turnover runs from the first posting and there is no opening balance.
    const whole = await wp.api.post('/api/accounting/balance/get', { date });
    expect(whole.body.dateFrom).toBeNull();
    expect(whole.body.accounts.every((a: { openingBalance: string }) => a.openingBalance === '0.00')).toBe(true);
    const late = await wp.api.post('/api/accounting/balance/get', { dateFrom: '2024-07-01', date });
    expect(late.status).toBe(400);
    expect(late.body.fields.dateFrom).toBe(`must be on or before the date ${date}`);
  });

  it('defaults to today and answers 400 for a bad date, 401 without a token', async () => {
    const today = await wp.api.post('/api/accounting/balance/get', {});
    expect(today.status).toBe(200);
    expect(today.body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bad = await wp.api.post('/api/accounting/balance/get', { date: '31.12.2024' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['date']);
    expect((await wp.api.post('/api/accounting/balance/get', { date: '2024-12-31', extra: 1 })).body.fields.extra).toBe('this key cannot be included');
    expect((await new Client(server.baseUrl).post('/api/accounting/balance/get', {})).status).toBe(401);
  });

  it('reads whole months from account_period_balance (a tampered month row shows, and the check finds it)', async () => {
    const tampered = await ledgerWorkplace(server);
    const [bank, revenue] = [await tampered.account('1020'), await tampered.account('3200')];
    await tampered.api.post('/api/accounting/entry/insert', simpleEntry('2024-05-10', bank, revenue, '10.00'));
    const ok = await tampered.api.get('/api/accounting/balance/check');
    expect(ok.status).toBe(200);
    expect(ok.body.ok).toBe(true);
    expect(ok.body.checks.map((c: { name: string }) => c.name)).toEqual([
      'journal entries balance',
      'journal entries have two postings',
      'month balances match postings',
      'trial balance debit equals credit',
    ]);

    // Only the owner can tamper: the application role may not write month rows (migration 0007).
    await server.db.asOwner((tx) =>
      tx.query(`UPDATE account_period_balance SET debit = debit + 1 WHERE instance_id = $1 AND account_id = $2 AND period = '2024-05-01'`, [
        tampered.instanceId,
        bank,
      ]),
    );
    const monthEnd = await tampered.api.post('/api/accounting/balance/get', { date: '2024-05-31' });
    expect(monthEnd.body.accounts.find((a: { id: number }) => a.id === bank).balance).toBe('11.00');
    // Mid-month the postings of the month are read instead.
    const midMonth = await tampered.api.post('/api/accounting/balance/get', { date: '2024-05-30' });
    expect(midMonth.body.accounts.find((a: { id: number }) => a.id === bank).balance).toBe('10.00');

    const broken = await tampered.api.post('/api/accounting/balance/check', {});
    expect(broken.body.ok).toBe(false);
    const failed = broken.body.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name);
    expect(failed).toEqual(['month balances match postings', 'trial balance debit equals credit']);
    expect((await tampered.api.post('/api/accounting/balance/check', { x: 1 })).body.fields.x).toBe('this key cannot be included');
    expect((await new Client(server.baseUrl).get('/api/accounting/balance/check')).status).toBe(401);
    expect((await new Client(server.baseUrl).post('/api/accounting/balance/check', {})).status).toBe(401);
  });
});
