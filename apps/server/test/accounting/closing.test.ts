/**
 * Year-end closing over HTTP (issue 12 §3, spec §2.2 `/accounting/close`, decision 015), on both
 * engines: preview figures to the cent, booking (one closing entry, lock at the year's end),
 * repeats and parallel repeats, order of years, the closed year's lock, reopening, roles, a
 * July–June fiscal year, and the closing entry as a document posting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@bilan/domain';
import { trialBalance } from '../../src/modules/accounting/accounting.service.js';
import { Client, engine, startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, simpleEntry, type LedgerWorkplace } from './ledger.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** Another user of `wp`'s instance with `role`, signed in. */
async function member(wp: LedgerWorkplace, role: RoleName): Promise<Client> {
  const token = await server.db.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(
      `INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'Second', 'Member') RETURNING id`,
      [`member.${Math.random().toString(36).slice(2, 9)}@example.ch`],
    );
    await tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [wp.instanceId, user!.id, role]);
    return (await server.app.sessions.start(tx, user!.id, wp.instanceId, {})).accessToken;
  });
  return new Client(server.baseUrl, token);
}

/** Ledger account ids by number, in the order given. */
async function accountIds<N extends string[]>(wp: LedgerWorkplace, ...numbers: N): Promise<{ [K in keyof N]: number }> {
  return (await Promise.all(numbers.map((number) => wp.account(number)))) as { [K in keyof N]: number };
}

async function audits(wp: LedgerWorkplace, event: string) {
  return server.db.withInstance(wp.instanceId, (tx) =>
    tx.query<{ user_id: string; detail: any }>('SELECT user_id, detail FROM audit_event WHERE event = $1 AND instance_id = $2 ORDER BY id', [
      event,
      wp.instanceId,
    ]),
  );
}

const api = (wp: LedgerWorkplace) => ({
  get: (path: string) => wp.api.get(`/api/accounting${path}`),
  post: (path: string, body: unknown = {}) => wp.api.post(`/api/accounting${path}`, body),
});

/** Balance (debit − credit) per account number at `date`, from balance/get. */
async function balances(wp: LedgerWorkplace, date: string, dateFrom?: string): Promise<Record<string, string>> {
  const tb = await api(wp).post('/balance/get', dateFrom ? { date, dateFrom } : { date });
  expect(tb.status).toBe(200);
  expect(tb.body.totals.balance).toBe('0.00');
  return Object.fromEntries(tb.body.accounts.map((account: { number: string; balance: string }) => [account.number, account.balance]));
}

/**
 * The books of 2024: revenue 3200 10'800.55, 3400 0.35 and an EUR revenue account 3250 (EUR
 * 100.00 at 0.9363 = CHF 93.63), expenses 4200 3'210.10 and 6000 1'200.00. Revenue 10'894.53,
 * expenses 4'410.10, profit 6'484.43. Plus a 2025 sale of 500.00 that must stay out of 2024.
 */
async function books2024(wp: LedgerWorkplace) {
  const [bank, sales, services, goods, rent] = await accountIds(wp, '1020', '3200', '3400', '4200', '6000');
  const eur = await api(wp).post('/account/insert', { data: { number: '3250', name: 'Handelserlöse EUR', currency: 'EUR', type: 4 } });
  expect(eur.status, JSON.stringify(eur.body)).toBe(200);
  const entries = [
    simpleEntry('2024-03-15', bank, sales, '10800.55'),
    simpleEntry('2024-05-20', goods, bank, '3210.10'),
    simpleEntry('2024-06-30', rent, bank, '1200.00'),
    simpleEntry('2024-12-31', bank, services, '0.35'),
    {
      data: {
        dateLedger: '2024-11-05',
        description: 'EUR sale',
        entryAccounts: [
          { account: { id: bank }, amount: '93.63', direction: 1 },
          { account: { id: eur.body.id }, amount: '93.63', direction: -1, currency: 'EUR', originalAmount: '100.00', exchangeRate: '0.9363' },
        ],
      },
    },
    simpleEntry('2025-01-10', bank, sales, '500.00'),
  ];
  for (const entry of entries) {
    const posted = await api(wp).post('/entry/insert', entry);
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
  }
  return { bank, sales, services, goods, rent, eur: eur.body.id as number };
}

describe('preview and book', () => {
  let wp: LedgerWorkplace;
  let ids: Awaited<ReturnType<typeof books2024>>;

  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
    ids = await books2024(wp);
  });

  it('previews the closing entry, the result and the next year\'s opening balances to the cent', async () => {
    const preview = await api(wp).post('/closing/preview', { year: 2024 });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const body = preview.body;
    expect(body.fiscalYear).toEqual({ year: 2024, label: '2024', dateFrom: '2024-01-01', dateTo: '2024-12-31' });
    expect(body.status).toBe('open');
    expect(body.blockers).toEqual([]);
    expect(body).toMatchObject({ result: '6484.43', revenue: '10894.53', expenses: '4410.10', closing: null });
    expect(body.profitLossAccount).toMatchObject({ number: '2979', name: 'Jahresgewinn oder -verlust' });
    expect(body.entry).toMatchObject({ id: null, dateLedger: '2024-12-31', description: 'Year-end closing 2024' });
    const lines = body.entry.lines.map((line: any) => [line.account.number, line.balance, line.direction, line.amount]);
    expect(lines).toEqual([
      ['3200', '-10800.55', 1, '10800.55'],
      ['3250', '-93.63', 1, '93.63'],
      ['3400', '-0.35', 1, '0.35'],
      ['4200', '3210.10', -1, '3210.10'],
      ['6000', '1200.00', -1, '1200.00'],
      ['2979', '0.00', -1, '6484.43'],
    ]);
    expect(body.entry.lines[1].account.currency).toBe('EUR');
    // 2025-01-01 opens with the bank (cumulative through 2024) and the result in 2979; nothing else.
    expect(body.opening.date).toBe('2025-01-01');
    expect(body.opening.accounts.map((a: any) => [a.number, a.balance])).toEqual([
      ['1020', '6484.43'],
      ['2979', '-6484.43'],
    ]);
    expect(body.opening.total).toBe('0.00');
    // A preview writes nothing.
    expect((await api(wp).get('/lock/list')).body.locks).toEqual([]);
  });

  it('books one closing entry: income accounts zero at year end, 2979 holds the result, the year locked; figures before closing still there', async () => {
    const list = await api(wp).get('/closing/list');
    expect(list.body.years.map((y: any) => [y.year, y.status, y.result])).toEqual([
      [2026, 'open', '0.00'],
      [2025, 'open', '500.00'],
      [2024, 'open', '6484.43'],
    ]);

    const booked = await api(wp).post('/closing/book', { year: 2024 });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body).toMatchObject({
      status: 'closed',
      result: '6484.43',
      fiscalYear: { year: 2024, label: '2024' },
      lockDate: '2024-12-31',
      profitLossAccount: { number: '2979' },
      acknowledgements: [],
      closedBy: { id: wp.userId },
      reopenedAt: null,
      reversalEntry: null,
    });

    const entry = await api(wp).post('/entry/detail', { id: booked.body.closingEntry.id });
    expect(entry.body).toMatchObject({ dateLedger: '2024-12-31', description: 'Year-end closing 2024', source: 'closing', debitTotal: '10894.53' });
    expect(entry.body.entryAccounts).toHaveLength(6);
    expect(entry.body.document).toMatchObject({ type: 'year-end closing', reference: 'fiscal year 2024', link: '/accounting/close?year=2024' });
    // The EUR account's closing line is in the books' currency.
    const eurLine = entry.body.entryAccounts.find((line: any) => line.account.number === '3250');
    expect(eurLine).toMatchObject({ amount: '93.63', currency: 'CHF', originalAmount: '93.63', exchangeRate: '1' });

    const atYearEnd = await balances(wp, '2024-12-31');
    for (const number of ['3200', '3250', '3400', '4200', '6000']) expect(atYearEnd[number] ?? '0.00', number).toBe('0.00');
    expect(atYearEnd['2979']).toBe('-6484.43');
    expect(atYearEnd['1020']).toBe('6484.43');
    // 2025's own turnover is unaffected.
    expect((await balances(wp, '2025-12-31', '2025-01-01'))['3200']).toBe('-500.00');

    const before = await server.db.withInstance(wp.instanceId, (tx) => trialBalance(tx, wp.instanceId, '2024-12-31', '2024-01-01', { excludeClosing: true }));
    const turnover = Object.fromEntries(before.accounts.map((a) => [a.number, [a.debit, a.credit]]));
    expect(turnover['3200']).toEqual(['0.00', '10800.55']);
    expect(turnover['4200']).toEqual(['3210.10', '0.00']);
    expect(turnover['2979']).toBeUndefined();
    expect(before.totals.balance).toBe('0.00');

    const locks = (await api(wp).get('/lock/list')).body.locks;
    expect(locks).toEqual([expect.objectContaining({ uuid: booked.body.lock.uuid, lockDate: '2024-12-31' })]);

    const closedAudit = await audits(wp, 'fiscal_year.closed');
    expect(closedAudit).toHaveLength(1);
    expect(closedAudit[0]).toMatchObject({ user_id: wp.userId, detail: { closing: { uuid: booked.body.uuid, result: '6484.43' } } });
    expect(await audits(wp, 'accounting_lock.created')).toHaveLength(1);

    const closedList = await api(wp).get('/closing/list');
    expect(closedList.body.years.find((y: any) => y.year === 2024)).toMatchObject({
      status: 'closed',
      result: '6484.43',
      closing: { uuid: booked.body.uuid, closedBy: { id: wp.userId }, closingEntry: { id: booked.body.closingEntry.id }, lockDate: '2024-12-31' },
    });
    // A closed year's preview shows the booked entry.
    const preview = await api(wp).post('/closing/preview', { year: 2024 });
    expect(preview.body).toMatchObject({ status: 'closed', result: '6484.43', entry: { id: booked.body.closingEntry.id }, closing: { uuid: booked.body.uuid } });
    expect(preview.body.entry.lines).toHaveLength(6);
    expect(preview.body.opening.accounts.map((a: any) => [a.number, a.balance])).toEqual([
      ['1020', '6484.43'],
      ['2979', '-6484.43'],
    ]);
  });

  it('refuses a posting into the closed year, naming the lock date', async () => {
    const counts = await ledgerCounts(server, wp.instanceId);
    const refused = await api(wp).post('/entry/insert', simpleEntry('2024-12-31', ids.bank, ids.sales, '1.00'));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('period_locked');
    expect(refused.body.fields['data.dateLedger']).toBe('the date 2024-12-31 is on or before the lock date 2024-12-31');
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(counts);
  });

  it('answers 409 already_done to a second close and changes nothing', async () => {
    const counts = await ledgerCounts(server, wp.instanceId);
    const again = await api(wp).post('/closing/book', { year: 2024 });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_done', error: 'the fiscal year 2024 is already closed' });
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(counts);
    expect(await audits(wp, 'fiscal_year.closed')).toHaveLength(1);
  });

  it('keeps the closing entry out of the journal routes (409 document_posting naming the closing)', async () => {
    const { closingEntry } = (await api(wp).post('/closing/preview', { year: 2024 })).body.closing;
    const detail = await api(wp).post('/entry/detail', { id: closingEntry.id });
    const update = await api(wp).post('/entry/update', {
      id: closingEntry.id,
      data: { dateLedger: '2025-01-02', description: 'moved', entryAccounts: simpleEntry('2025-01-02', ids.bank, ids.sales, '1.00').data.entryAccounts },
    });
    expect(update.status).toBe(409);
    expect(update.body).toMatchObject({ code: 'document_posting', document: { type: 'year-end closing', reference: 'fiscal year 2024' } });
    expect((await api(wp).post('/entry/delete', { id: closingEntry.id })).body.code).toBe('document_posting');
    const line = detail.body.entryAccounts[0];
    expect((await api(wp).post('/entry/account/update', { id: line.id, data: { description: 'x' } })).body.code).toBe('document_posting');
    expect((await api(wp).post('/entry/detail', { id: closingEntry.id })).body).toEqual(detail.body);
  });

  it('refuses to delete the lock of a closed year with a sentence naming the year', async () => {
    const [lock] = (await api(wp).get('/lock/list')).body.locks;
    const refused = await api(wp).post('/lock/delete', { uuid: lock.uuid });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'lock_closes_fiscal_year',
      error: 'the lock of 2024-12-31 closes the fiscal year 2024; reopen the year to remove it',
    });
    expect((await api(wp).get('/lock/list')).body.locks).toEqual([lock]);
    expect(await audits(wp, 'accounting_lock.deleted')).toEqual([]);
  });

  it('reopens: the lock goes, a reversal restores the balances, the closing stays as history; closing again works', async () => {
    const closing = (await api(wp).post('/closing/preview', { year: 2024 })).body.closing;
    const reopened = await api(wp).post('/closing/reopen', { year: 2024 });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(reopened.body).toMatchObject({ uuid: closing.uuid, status: 'reopened', lock: null, reopenedBy: { id: wp.userId } });
    expect(reopened.body.reversalEntry.id).toBeGreaterThan(closing.closingEntry.id);

    const reversal = await api(wp).post('/entry/detail', { id: reopened.body.reversalEntry.id });
    expect(reversal.body).toMatchObject({ dateLedger: '2024-12-31', source: 'closing', debitTotal: '10894.53' });
    expect(reversal.body.description).toBe(`Reopening of fiscal year 2024: reversal of the year-end closing (entry ${closing.closingEntry.id})`);

    const atYearEnd = await balances(wp, '2024-12-31');
    expect(atYearEnd).toMatchObject({ '3200': '-10800.55', '3250': '-93.63', '3400': '-0.35', '4200': '3210.10', '6000': '1200.00', '2979': '0.00' });
    expect((await api(wp).get('/lock/list')).body.locks).toEqual([]);
    expect((await api(wp).post('/entry/insert', simpleEntry('2024-12-31', ids.bank, ids.sales, '1.00'))).status).toBe(200);

    const again = await api(wp).post('/closing/reopen', { year: 2024 });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_done');

    const [reopenedAudit] = await audits(wp, 'fiscal_year.reopened');
    expect(reopenedAudit).toMatchObject({ user_id: wp.userId, detail: { closing: { uuid: closing.uuid, status: 'reopened' } } });
    expect(await audits(wp, 'accounting_lock.deleted')).toHaveLength(1);

    // Closing again moves the year's balances including the new 1.00 sale.
    const preview = await api(wp).post('/closing/preview', { year: 2024 });
    expect(preview.body).toMatchObject({ status: 'open', result: '6485.43', closing: null });
    const rebooked = await api(wp).post('/closing/book', { year: 2024 });
    expect(rebooked.status, JSON.stringify(rebooked.body)).toBe(200);
    expect(rebooked.body.uuid).not.toBe(closing.uuid);
    expect((await balances(wp, '2024-12-31'))['2979']).toBe('-6485.43');
    const before = await server.db.withInstance(wp.instanceId, (tx) => trialBalance(tx, wp.instanceId, '2024-12-31', '2024-01-01', { excludeClosing: true }));
    expect(before.accounts.find((a) => a.number === '3200')?.balance).toBe('-10801.55');
  });
});

describe('order of years, later locks, settings', () => {
  it('requires earlier years with postings to be closed first; reopening needs later years reopened and later locks deleted', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales, rent] = await accountIds(wp, '1020', '3200', '6000');
    for (const entry of [simpleEntry('2023-04-01', bank, sales, '100.00'), simpleEntry('2025-02-01', rent, bank, '40.00')]) {
      expect((await api(wp).post('/entry/insert', entry)).status).toBe(200);
    }
    const early = await api(wp).post('/closing/book', { year: 2025 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'earlier_year_open', error: 'the fiscal year 2023 has postings and is not closed: close it first' });
    expect((await api(wp).post('/closing/preview', { year: 2025 })).body.blockers).toEqual([
      { code: 'earlier_year_open', message: 'the fiscal year 2023 has postings and is not closed: close it first' },
    ]);

    const notEnded = await api(wp).post('/closing/book', { year: 2026 });
    expect(notEnded.status).toBe(409);
    expect(notEnded.body.code).toBe('fiscal_year_not_ended');
    expect(notEnded.body.error).toBe('the fiscal year 2026 ends on 2026-12-31: it can be closed from 2027-01-01');

    expect((await api(wp).post('/closing/book', { year: 2023 })).status).toBe(200);
    // 2024 has no postings: 2025 may be closed without it.
    const closed2025 = await api(wp).post('/closing/book', { year: 2025 });
    expect(closed2025.status, JSON.stringify(closed2025.body)).toBe(200);
    expect(closed2025.body.result).toBe('-40.00');
    expect((await balances(wp, '2025-12-31'))['2979']).toBe('-60.00');

    const laterClosed = await api(wp).post('/closing/reopen', { year: 2023 });
    expect(laterClosed.status).toBe(409);
    expect(laterClosed.body).toMatchObject({ code: 'later_year_closed', error: 'the fiscal year 2025 is closed: reopen it first (later years are reopened before earlier ones)' });

    const later = await api(wp).post('/lock/insert', { date: '2026-03-31' });
    expect(later.status).toBe(200);
    const lockedAfter = await api(wp).post('/closing/reopen', { year: 2025 });
    expect(lockedAfter.status).toBe(409);
    expect(lockedAfter.body).toMatchObject({
      code: 'period_locked',
      error: 'the books are locked up to 2026-03-31, after the fiscal year 2025: delete that lock first (Accounting Locks)',
    });
    expect((await api(wp).post('/lock/delete', { uuid: later.body.uuid })).status).toBe(200);
    expect((await api(wp).post('/closing/reopen', { year: 2025 })).status).toBe(200);
    expect((await api(wp).post('/closing/reopen', { year: 2023 })).status).toBe(200);
    expect((await api(wp).get('/lock/list')).body.locks).toEqual([]);
    expect((await balances(wp, '2025-12-31'))['2979'] ?? '0.00').toBe('0.00');

    const neverClosed = await api(wp).post('/closing/reopen', { year: 2022 });
    expect(neverClosed.body).toMatchObject({ code: 'fiscal_year_open', error: 'the fiscal year 2022 is not closed' });
  });

  it('refuses to close under a lock on or after the year\'s last day, naming it', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales] = await accountIds(wp, '1020', '3200');
    expect((await api(wp).post('/entry/insert', simpleEntry('2025-06-01', bank, sales, '10.00'))).status).toBe(200);
    const lock = await api(wp).post('/lock/insert', { date: '2025-12-31' });
    const refused = await api(wp).post('/closing/book', { year: 2025 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('period_locked');
    expect(refused.body.error).toContain('the books are locked up to 2025-12-31');
    await api(wp).post('/lock/delete', { uuid: lock.body.uuid });
    expect((await api(wp).post('/closing/book', { year: 2025 })).status).toBe(200);
  });

  it('still records the closing and the lock of a year with nothing to move', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, equity] = await accountIds(wp, '1020', '2800');
    expect((await api(wp).post('/entry/insert', simpleEntry('2025-01-05', bank, equity, '20000.00'))).status).toBe(200);
    const preview = await api(wp).post('/closing/preview', { year: 2025 });
    expect(preview.body).toMatchObject({ result: '0.00', entry: { lines: [] } });
    const counts = await ledgerCounts(server, wp.instanceId);
    const booked = await api(wp).post('/closing/book', { year: 2025 });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body).toMatchObject({ result: '0.00', closingEntry: null, lockDate: '2025-12-31' });
    expect((await ledgerCounts(server, wp.instanceId)).entries).toBe(counts.entries);
    expect((await api(wp).get('/lock/list')).body.locks).toHaveLength(1);
    const reopened = await api(wp).post('/closing/reopen', { year: 2025 });
    expect(reopened.body).toMatchObject({ status: 'reopened', reversalEntry: null });
  });

  it('creates 2979 as an equity account when the chart lacks it', async () => {
    const wp = await ledgerWorkplace(server, { chart: false });
    const accounts: Record<string, number> = {};
    for (const [number, name, type] of [['1020', 'Bank', 1], ['3000', 'Erlöse', 4]] as const) {
      const created = await api(wp).post('/account/insert', { data: { number, name, currency: 'CHF', type } });
      accounts[number] = created.body.id;
    }
    await api(wp).post('/entry/insert', simpleEntry('2025-03-01', accounts['1020']!, accounts['3000']!, '77.70'));
    expect((await api(wp).get('/settings')).body).toEqual({
      fiscalYearStartMonth: 1,
      profitLossAccount: { id: null, number: '2979', name: 'Jahresgewinn oder -verlust', isDefault: true },
    });
    const booked = await api(wp).post('/closing/book', { year: 2025 });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const account = await api(wp).post('/account/detail', { id: booked.body.profitLossAccount.id });
    expect(account.body).toMatchObject({ number: '2979', name: 'Jahresgewinn oder -verlust', type: { id: 5 }, balance: '-77.70' });
  });

  it('changes the settings: the fiscal year start cannot change while a year is closed; the profit-or-loss account must be equity', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales, carried, rent] = await accountIds(wp, '1020', '3200', '2970', '6000');
    expect((await api(wp).post('/settings/update', { profitLossAccount: { id: rent } })).body.fields).toHaveProperty('profitLossAccount.id');
    expect((await api(wp).post('/settings/update', { profitLossAccount: { id: 999_999 } })).body.fields).toHaveProperty('profitLossAccount.id');
    expect((await api(wp).post('/settings/update', { fiscalYearStartMonth: 13 })).body.fields).toHaveProperty('fiscalYearStartMonth');
    const changed = await api(wp).post('/settings/update', { profitLossAccount: { id: carried } });
    expect(changed.status).toBe(200);
    expect(changed.body.profitLossAccount).toEqual({ id: carried, number: '2970', name: 'Gewinn- oder Verlustvortrag', isDefault: false });

    await api(wp).post('/entry/insert', simpleEntry('2025-03-01', bank, sales, '5.00'));
    expect((await api(wp).post('/closing/book', { year: 2025 })).body.profitLossAccount.number).toBe('2970');
    const refused = await api(wp).post('/settings/update', { fiscalYearStartMonth: 7 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('fiscal_year_closed');
    expect(refused.body.error).toBe(
      'the fiscal year start cannot change while a closed fiscal year exists (2025): the closed years would no longer be fiscal years. Reopen them first, or keep January.',
    );
    expect((await api(wp).post('/settings/update', { profitLossAccount: null })).body.profitLossAccount).toMatchObject({ number: '2979', isDefault: true });
    await api(wp).post('/closing/reopen', { year: 2025 });
    expect((await api(wp).post('/settings/update', { fiscalYearStartMonth: 7 })).body.fiscalYearStartMonth).toBe(7);
    expect(await audits(wp, 'accounting_settings.updated')).toHaveLength(3);
  });

  it('closes a July–June fiscal year', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales, rent] = await accountIds(wp, '1020', '3200', '6000');
    expect((await api(wp).post('/settings/update', { fiscalYearStartMonth: 7 })).status).toBe(200);
    for (const entry of [
      simpleEntry('2024-07-01', bank, sales, '1000.00'),
      simpleEntry('2025-06-30', rent, bank, '300.25'),
      simpleEntry('2025-07-01', bank, sales, '50.00'),
    ]) {
      expect((await api(wp).post('/entry/insert', entry)).status).toBe(200);
    }
    const list = await api(wp).get('/closing/list');
    expect(list.body.fiscalYearStartMonth).toBe(7);
    expect(list.body.currentYear).toBe(2026);
    expect(list.body.years.map((y: any) => [y.label, y.dateFrom, y.dateTo, y.result])).toEqual([
      ['2026/27', '2026-07-01', '2027-06-30', '0.00'],
      ['2025/26', '2025-07-01', '2026-06-30', '50.00'],
      ['2024/25', '2024-07-01', '2025-06-30', '699.75'],
    ]);
    const booked = await api(wp).post('/closing/book', { year: 2024 });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body).toMatchObject({ fiscalYear: { label: '2024/25', dateTo: '2025-06-30' }, lockDate: '2025-06-30', result: '699.75' });
    const entry = await api(wp).post('/entry/detail', { id: booked.body.closingEntry.id });
    expect(entry.body).toMatchObject({ dateLedger: '2025-06-30', description: 'Year-end closing 2024/25' });
    const at = await balances(wp, '2025-06-30');
    expect(at['3200'] ?? '0.00').toBe('0.00');
    expect(at['2979']).toBe('-699.75');
    expect((await balances(wp, '2025-07-31'))['3200']).toBe('-50.00');
    expect((await api(wp).post('/entry/insert', simpleEntry('2025-06-30', bank, sales, '1.00'))).status).toBe(409);
    const [lock] = (await api(wp).get('/lock/list')).body.locks;
    expect((await api(wp).post('/lock/delete', { uuid: lock.uuid })).body.error).toBe(
      'the lock of 2025-06-30 closes the fiscal year 2024/25; reopen the year to remove it',
    );
  });
});

describe('checks', () => {
  it('re-runs the checks of the year: a failed check needs a note, which is stored with the closing', async () => {
    const wp = await ledgerWorkplace(server);
    const [receivables, sales] = await accountIds(wp, '1100', '3200');
    // A receivable posted by hand: 1100 no longer equals the open invoices (none).
    expect((await api(wp).post('/entry/insert', simpleEntry('2025-03-01', receivables, sales, '5.00'))).status).toBe(200);
    const report = await api(wp).post('/closing/checks', { year: 2025 });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ fiscalYear: { label: '2025' }, dateFrom: '2025-01-01', dateTo: '2025-12-31', status: 'failed' });
    const failed = report.body.checks.filter((check: any) => check.status === 'failed');
    expect(failed.map((check: any) => check.key)).toEqual(['receivables']);
    // The same report as the checks page's call for the same period.
    const page = await api(wp).post('/checks', { dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect(page.body.checks).toEqual(report.body.checks);

    const counts = await ledgerCounts(server, wp.instanceId);
    const refused = await api(wp).post('/closing/book', { year: 2025 });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('checks_failed');
    expect(refused.body.checks).toEqual([{ key: 'receivables', name: failed[0].name, detail: failed[0].detail }]);
    expect(refused.body.error).toBe(
      `1 check failed for the fiscal year 2025 (resolve it or acknowledge it with a note): "Receivables agree with the open invoices": ${failed[0].detail}`,
    );
    const otherKey = await api(wp).post('/closing/book', { year: 2025, acknowledgements: [{ key: 'vat', note: 'not the failing one' }] });
    expect(otherKey.body.code).toBe('checks_failed');
    const blank = await api(wp).post('/closing/book', { year: 2025, acknowledgements: [{ key: 'receivables', note: '  ' }] });
    expect(blank.status).toBe(400);
    expect(Object.keys(blank.body.fields)).toEqual(['acknowledgements.0.note']);
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(counts);

    const note = 'Invoice of the old system, collected in January 2026';
    const booked = await api(wp).post('/closing/book', { year: 2025, acknowledgements: [{ key: 'receivables', note }] });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.acknowledgements).toEqual([{ key: 'receivables', name: failed[0].name, detail: failed[0].detail, note }]);
    expect((await api(wp).post('/closing/preview', { year: 2025 })).body.closing.acknowledgements).toHaveLength(1);
  });
});

describe('roles', () => {
  it('lets owner and admin close, refuses accountant and viewer (403), and lets only an owner reopen', async () => {
    const wp = await ledgerWorkplace(server, { role: 'admin' });
    const [bank, sales] = await accountIds(wp, '1020', '3200');
    await api(wp).post('/entry/insert', simpleEntry('2025-03-01', bank, sales, '5.00'));
    for (const role of ['viewer', 'accountant'] as const) {
      const client = await member(wp, role);
      expect((await client.post('/api/accounting/closing/book', { year: 2025 })).status, role).toBe(403);
      expect((await client.post('/api/accounting/closing/reopen', { year: 2025 })).status, role).toBe(403);
      expect((await client.post('/api/accounting/settings/update', { fiscalYearStartMonth: 4 })).status, role).toBe(403);
      expect((await client.get('/api/accounting/closing/list')).status, role).toBe(200);
      expect((await client.post('/api/accounting/closing/preview', { year: 2025 })).status, role).toBe(200);
      expect((await client.get('/api/accounting/settings')).status, role).toBe(200);
    }
    expect((await api(wp).post('/closing/book', { year: 2025 })).status).toBe(200);
    const adminReopen = await api(wp).post('/closing/reopen', { year: 2025 });
    expect(adminReopen.status).toBe(403);
    expect(adminReopen.body.error).toBe('Only an owner may reopen a fiscal year (your role: admin)');
    const owner = await member(wp, 'owner');
    expect((await owner.post('/api/accounting/closing/reopen', { year: 2025 })).status).toBe(200);
  });

  it('names the field of a bad request (400)', async () => {
    const wp = await ledgerWorkplace(server);
    for (const [path, body, field] of [
      ['/closing/preview', {}, 'year'],
      ['/closing/preview', { year: '2025' }, 'year'],
      ['/closing/book', { year: 1800 }, 'year'],
      ['/closing/book', { year: 2025, acknowledgements: [{ key: 'x' }] }, 'acknowledgements.0.note'],
      ['/closing/reopen', { year: 2025.5 }, 'year'],
      ['/settings/update', { fiscalYearStartMonth: 0 }, 'fiscalYearStartMonth'],
      ['/settings/update', { profitLossAccount: { id: 'x' } }, 'profitLossAccount.id'],
    ] as const) {
      const response = await api(wp).post(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(response.body.fields), JSON.stringify(response.body)).toContain(field);
    }
  });
});

describe.runIf(engine === 'postgres')('parallel closes', () => {
  it('closes once for 20 identical parallel calls; the others answer 409 already_done', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales] = await accountIds(wp, '1020', '3200');
    await api(wp).post('/entry/insert', simpleEntry('2025-03-01', bank, sales, '5.00'));
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(wp).post('/closing/book', { year: 2025 })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const others = answers.filter((answer) => answer.status !== 200);
    expect(others.map((answer) => [answer.status, answer.body.code])).toEqual(others.map(() => [409, 'already_done']));
    expect((await api(wp).get('/lock/list')).body.locks).toHaveLength(1);
    expect(await audits(wp, 'fiscal_year.closed')).toHaveLength(1);
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ entries: number }>(`SELECT count(*)::int AS entries FROM journal_entry WHERE instance_id = $1 AND source = 'closing'`, [wp.instanceId]),
    );
    expect(row!.entries).toBe(1);
    expect((await balances(wp, '2025-12-31'))['2979']).toBe('-5.00');
  });
  it('reopens once for 20 identical parallel calls: one reversal, the lock gone, the others 409 already_done', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, sales] = await accountIds(wp, '1020', '3200');
    await api(wp).post('/entry/insert', simpleEntry('2025-03-01', bank, sales, '5.00'));
    expect((await api(wp).post('/closing/book', { year: 2025 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api(wp).post('/closing/reopen', { year: 2025 })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const others = answers.filter((answer) => answer.status !== 200);
    expect(others.map((answer) => [answer.status, answer.body.code])).toEqual(others.map(() => [409, 'already_done']));
    expect((await api(wp).get('/lock/list')).body.locks).toHaveLength(0);
    expect(await audits(wp, 'fiscal_year.reopened')).toHaveLength(1);
    const [row] = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ entries: number }>(`SELECT count(*)::int AS entries FROM journal_entry WHERE instance_id = $1 AND source = 'closing'`, [wp.instanceId]),
    );
    expect(row!.entries).toBe(2);
    expect((await balances(wp, '2025-12-31'))['2979'] ?? '0.00').toBe('0.00');
  });
});
