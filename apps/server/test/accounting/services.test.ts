/**
 * The functions other modules call inside their own transaction (onboarding, invoices, bills):
 * seedSwissSmeChart, upsertLedgerAccount, postJournalEntry, trialBalance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountFunctionType, Money } from '@bilan/domain';
import {
  postJournalEntries,
  postJournalEntry,
  seedSwissSmeChart,
  trialBalance,
  upsertLedgerAccount,
} from '../../src/modules/accounting/accounting.service.js';
import type { Tx } from '../../src/db/database.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerCounts, ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
let wp: LedgerWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());

const inTx = <T>(fn: (tx: Tx) => Promise<T>) => server.db.withInstance(wp.instanceId, fn);

describe('seedSwissSmeChart', () => {
  it('leaves existing accounts and groups alone when run again', async () => {
    const before = await ledgerCounts(server, wp.instanceId);
    const again = await inTx((tx) => seedSwissSmeChart(tx, wp.instanceId, 'CHF'));
    expect(again).toEqual({ created: 0 });
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });
});

describe('upsertLedgerAccount', () => {
  it("renames an existing number and gives it the function type (onboarding's bank account)", async () => {
    const bank = await inTx((tx) =>
      upsertLedgerAccount(tx, wp.instanceId, { number: 1020, name: 'UBS Geschäftskonto', currency: 'CHF', type: 1, functionType: AccountFunctionType.bankAccount }),
    );
    expect(bank).toMatchObject({ id: await wp.account('1020'), number: '1020', name: 'UBS Geschäftskonto', functionType: { id: 1 } });
    const created = await inTx((tx) => upsertLedgerAccount(tx, wp.instanceId, { number: '1030', name: 'PostFinance EUR', currency: 'EUR', functionType: 1 }));
    expect(created).toMatchObject({ number: '1030', currency: 'EUR', type: { id: 1 }, functionType: { id: 1 }, balance: '0.00', hasPostings: false });
    await expect(inTx((tx) => upsertLedgerAccount(tx, wp.instanceId, { number: '12', name: 'x', currency: 'CHF' }))).rejects.toMatchObject({
      statusCode: 400,
      fields: { number: 'account number must have 4 to 10 digits' },
    });
  });
});

describe('postJournalEntry', () => {
  it('posts inside the caller transaction, computing a missing amount from originalAmount × exchangeRate', async () => {
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    const entryId = await inTx((tx) =>
      postJournalEntry(tx, wp.instanceId, wp.userId, {
        dateLedger: '2024-04-30',
        description: 'Invoice 7 (EUR)',
        source: 'invoice',
        sourceRef: '7',
        lines: [
          { accountId: bank, direction: 1, currency: 'EUR', originalAmount: '250.00', exchangeRate: '0.9561' },
          { accountId: revenue, direction: -1, amount: new Money('239.03') },
        ],
      }),
    );
    const detail = await wp.api.post('/api/accounting/entry/detail', { id: entryId });
    expect(detail.body).toMatchObject({
      source: 'invoice',
      debitTotal: '239.03',
      entryAccounts: [{ amount: '239.03', currency: 'EUR', originalAmount: '250.00', exchangeRate: '0.9561' }, { amount: '239.03', currency: 'CHF' }],
    });
    const trial = await inTx((tx) => trialBalance(tx, wp.instanceId, '2024-04-30'));
    expect(trial.accounts.find((a) => a.id === bank)).toMatchObject({ debit: '239.03', credit: '0.00', balance: '239.03' });
    expect(trial.totals).toEqual({ openingBalance: '0.00', debit: '239.03', credit: '239.03', balance: '0.00' });
  });

  it('throws 400 with fields relative to the entry and writes nothing (the caller transaction rolls back)', async () => {
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    const before = await ledgerCounts(server, wp.instanceId);
    const post = (lines: Parameters<typeof postJournalEntry>[3]['lines']) =>
      inTx((tx) => postJournalEntry(tx, wp.instanceId, null, { dateLedger: '2024-05-01', description: 'x', lines }));
    await expect(
      post([
        { accountId: bank, direction: 1, amount: '10.00' },
        { accountId: revenue, direction: -1, amount: '9.00' },
      ]),
    ).rejects.toMatchObject({ statusCode: 400, fields: { entryAccounts: 'debit and credit must be equal' } });
    await expect(
      post([
        { accountId: bank, direction: 1, amount: '10.00', currency: 'USD' },
        { accountId: revenue, direction: -1, amount: '10.001' },
      ]),
    ).rejects.toMatchObject({
      statusCode: 400,
      fields: {
        'entryAccounts.0.originalAmount': 'originalAmount and exchangeRate are required for a posting in another currency',
        'entryAccounts.1.amount': 'amount must be a decimal number with at most 2 decimals',
      },
    });
    await expect(post([{ accountId: bank, direction: 1, amount: '1.00' }])).rejects.toMatchObject({
      statusCode: 400,
      fields: { entryAccounts: 'a journal entry needs at least two lines' },
    });
    expect(await ledgerCounts(server, wp.instanceId)).toEqual(before);
  });
});

describe('postJournalEntries', () => {
  it('posts a batch of document entries in input order, leaves the locked ones out with the reason, and refuses an invalid one whole', async () => {
    const own = await ledgerWorkplace(server);
    const [bank, charges] = [await own.account('1020'), await own.account('6940')];
    const lock = await own.api.post('/api/accounting/lock/insert', { date: '2024-01-31' });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const entry = (date: string, amount: string) => ({
      dateLedger: date,
      description: `Bank charges ${date}`,
      sourceRef: date,
      lines: [
        { accountId: bank, direction: -1 as const, amount },
        { accountId: charges, direction: 1 as const, amount },
      ],
    });
    const batch = (entries: ReturnType<typeof entry>[]) =>
      server.db.withInstance(own.instanceId, (tx) => postJournalEntries(tx, own.instanceId, own.userId, 'bank', entries));
    const before = await ledgerCounts(server, own.instanceId);

    await expect(batch([entry('2024-02-01', '1.50'), entry('2024-02-02', '1.505')])).rejects.toMatchObject({
      statusCode: 400,
      fields: { 'entries.1.entryAccounts.0.amount': 'amount must be a decimal number with at most 2 decimals' },
    });
    expect(await ledgerCounts(server, own.instanceId)).toEqual(before);

    const results = await batch([entry('2024-02-01', '1.50'), entry('2024-01-15', '2.00'), entry('2024-02-03', '3.25')]);
    expect(results[1]).toEqual({ reason: expect.stringContaining('2024-01-31') });
    const ids = [results[0], results[2]].map((r) => (r && 'id' in r ? r.id : NaN));
    expect(ids[1]).toBe(ids[0]! + 1);
    for (const [id, amount] of [[ids[0], '1.50'], [ids[1], '3.25']] as const) {
      const detail = await own.api.post('/api/accounting/entry/detail', { id });
      expect(detail.body).toMatchObject({ source: 'bank', debitTotal: amount, entryAccounts: [{ amount, direction: -1 }, { amount, direction: 1 }] });
    }
    // Document postings: the journal routes refuse to change them.
    const changed = await own.api.post('/api/accounting/entry/delete', { id: ids[0] });
    expect(changed.status).toBe(409);
  });
});
