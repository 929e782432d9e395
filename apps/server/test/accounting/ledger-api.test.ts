/**
 * What other modules ask the ledger (accounting/ledger.api.ts, issue 11 §3): control accounts,
 * one account's balance at a date, the entries of documents with their reversals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  controlAccount,
  entriesOfDocuments,
  hasJournalEntries,
  postJournalEntry,
  reverseJournalEntry,
} from '../../src/modules/accounting/accounting.service.js';
import type { Tx } from '../../src/db/database.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const inTx = <T>(wp: LedgerWorkplace, fn: (tx: Tx) => Promise<T>) => server.db.withInstance(wp.instanceId, fn);
const post = (wp: LedgerWorkplace, date: string, debit: number, credit: number, amount: string, doc: { source: string; sourceRef: string }) =>
  inTx(wp, (tx) =>
    postJournalEntry(tx, wp.instanceId, null, {
      dateLedger: date,
      description: `${doc.source} ${doc.sourceRef}`,
      ...doc,
      lines: [
        { accountId: debit, amount, direction: 1 },
        { accountId: credit, amount, direction: -1 },
      ],
    }),
  );

describe('controlAccount', () => {
  it('finds 1100, 2000, 2250 and the first bank account of the Swiss SME chart', async () => {
    const wp = await ledgerWorkplace(server);
    const found = await inTx(wp, async (tx) => ({
      receivable: await controlAccount(tx, wp.instanceId, 'receivable'),
      payable: await controlAccount(tx, wp.instanceId, 'payable'),
      expenses: await controlAccount(tx, wp.instanceId, 'expenses'),
      bank: await controlAccount(tx, wp.instanceId, 'bank'),
    }));
    expect(found).toEqual({
      receivable: await wp.account('1100'),
      payable: await wp.account('2000'),
      expenses: await wp.account('2250'),
      bank: await wp.account('1020'),
    });
  });

  it('answers 409 control_account_missing when the chart has none', async () => {
    const wp = await ledgerWorkplace(server, { chart: false });
    await expect(inTx(wp, (tx) => controlAccount(tx, wp.instanceId, 'receivable'))).rejects.toMatchObject({
      statusCode: 409,
      bodyCode: 'control_account_missing',
    });
  });
});

describe('accountBalance', () => {
  it('adds whole months and the postings of the date’s own month, debit minus credit', async () => {
    const wp = await ledgerWorkplace(server);
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    expect(await inTx(wp, (tx) => hasJournalEntries(tx, wp.instanceId))).toBe(false);
    await post(wp, '2024-01-15', bank, revenue, '100.00', { source: 'test', sourceRef: 'a' });
    await post(wp, '2024-02-10', bank, revenue, '30.05', { source: 'test', sourceRef: 'b' });
    const at = (accountId: number, date?: string) => inTx(wp, (tx) => accountBalance(tx, wp.instanceId, accountId, date));
    expect(await at(bank, '2024-01-14')).toBe('0.00');
    expect(await at(bank, '2024-01-31')).toBe('100.00');
    expect(await at(bank, '2024-02-09')).toBe('100.00');
    expect(await at(bank, '2024-02-10')).toBe('130.05');
    expect(await at(bank)).toBe('130.05');
    expect(await at(revenue)).toBe('-130.05');
    expect(await inTx(wp, (tx) => hasJournalEntries(tx, wp.instanceId))).toBe(true);
  });
});

describe('entriesOfDocuments and reverseJournalEntry', () => {
  it('finds the entries of documents and their reversals, and a reversal cancels the balance', async () => {
    const wp = await ledgerWorkplace(server);
    const [expense, payables] = [await wp.account('4000'), await wp.account('2000')];
    const booked = await post(wp, '2024-03-01', expense, payables, '250.00', { source: 'bill', sourceRef: 'bill-1' });
    await post(wp, '2024-03-02', expense, payables, '10.00', { source: 'bill', sourceRef: 'bill-2' });
    await post(wp, '2024-03-03', expense, payables, '20.00', { source: 'invoice', sourceRef: 'bill-1' });
    const reversal = await inTx(wp, (tx) =>
      reverseJournalEntry(tx, wp.instanceId, null, booked, { date: '2024-03-05', description: 'Bill cancelled', source: 'bill' }),
    );
    expect(await inTx(wp, (tx) => entriesOfDocuments(tx, wp.instanceId, ['bill'], ['bill-1']))).toEqual([
      { id: booked, source: 'bill', sourceRef: 'bill-1', reverses: null },
      { id: reversal, source: 'bill', sourceRef: String(booked), reverses: booked },
    ]);
    expect(await inTx(wp, (tx) => entriesOfDocuments(tx, wp.instanceId, ['bill'], []))).toEqual([]);
    expect(await inTx(wp, (tx) => accountBalance(tx, wp.instanceId, payables))).toBe('-30.00');
  });
});
