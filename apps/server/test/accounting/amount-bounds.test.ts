/**
 * One input bound for amounts (issue 11 §5; money.ts MAX_AMOUNT): an amount beyond
 * ±999 999 999 999.99 is a 400 naming its field, and the largest allowed amounts, posted twice,
 * leave every page answering (sums stay within the numeric columns).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from '@bilan/domain';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { postJournalEntry } from '../../src/modules/accounting/journal-entry.service.js';
import { simpleEntry } from './ledger.js';

const TOO_LARGE = '1000000000000.00';
const MESSAGE = 'amount must be between -999999999999.99 and 999999999999.99';

let server: TestServer;
let wp: InvoicingWorkplace;

beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

describe('amounts beyond MAX_AMOUNT', () => {
  it('are refused naming the field: journal entry, journal import, invoice line, Dext import, expense', async () => {
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    const entry = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-03-01', bank, revenue, TOO_LARGE));
    expect(entry.status).toBe(400);
    expect(entry.body.fields['data.entryAccounts.0.amount']).toBe(MESSAGE);

    const data = invoiceData(wp);
    const invoice = await wp.api.post('/api/invoice/insert', { data: { ...data, items: [{ name: 'Everything', amount: '1', price: '999999999999999999.99' }] } });
    expect(invoice.status).toBe(400);
    expect(invoice.body.fields['data.items.0.price']).toBe(MESSAGE);
    // Each factor allowed, their product not: the line would post beyond the bound.
    const product = await wp.api.post('/api/invoice/insert', { data: { ...data, items: [{ name: 'Many', amount: '1000', price: MAX_AMOUNT }] } });
    expect(product.status).toBe(400);
    expect(product.body.fields['data.items.0.price']).toMatch(/quantity × price/);

    const csv = `date,entry,description,account,amount,currency\n2025-03-01,A,big,1020,${TOO_LARGE},CHF\n2025-03-01,A,big,3200,-${TOO_LARGE},CHF`;
    const imported = await wp.api.post('/api/accounting/import/journal', csv);
    expect(imported.status).toBe(400);
    expect(Object.values(imported.body.fields ?? {})).toContain(MESSAGE);

    const dext = await wp.api.post('/api/mail/import', `date,supplier,amount,vat,currency,category\n2025-03-12,Muster AG,${TOO_LARGE},0,CHF,6500`);
    expect(dext.status).toBe(400);
    expect(dext.body.rows).toContainEqual({ row: 2, field: 'amount', message: MESSAGE });

    const expense = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-03-12', amount: TOO_LARGE, description: 'Taxi' } });
    expect(expense.status).toBe(400);
    expect(expense.body.fields['data.amount']).toBe(MESSAGE);
  });

  it('a document posting that converts to 0.00 is refused naming the field, not left to the database (migration 0015)', async () => {
    // Through the API the amount is required and > 0; a document's foreign line gives none.
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    const refused = await server.db
      .withInstance(wp.instanceId, (tx) =>
        postJournalEntry(tx, wp.instanceId, wp.userId, {
          dateLedger: '2025-03-01',
          description: 'rounds away',
          lines: [
            { accountId: bank, amount: '1.00', direction: 1 },
            { accountId: revenue, amount: '1.00', direction: -1 },
            { accountId: bank, direction: 1, currency: 'EUR', originalAmount: '0.001', exchangeRate: '0.95' },
          ],
        }),
      )
      .then(
        () => undefined,
        (error: { fields?: Record<string, string> }) => error.fields,
      );
    expect(refused).toEqual({ 'entryAccounts.2.originalAmount': 'amount must be greater than 0' });
  });

  it('the largest allowed amounts posted twice leave the trial balance and the reconciliation page answering', async () => {
    const [bank, revenue] = [await wp.account('1020'), await wp.account('3200')];
    for (const date of ['2025-04-01', '2025-04-02']) {
      const posted = await wp.api.post('/api/accounting/entry/insert', simpleEntry(date, bank, revenue, MAX_AMOUNT));
      expect(posted.status).toBe(200);
    }
    const trial = await wp.api.post('/api/accounting/balance/get', { date: '2025-12-31' });
    expect(trial.status).toBe(200);
    expect(JSON.stringify(trial.body)).toContain('1999999999999.98');
    const reconcile = await wp.api.get(`/api/banking/integrations/reconcile?account=${bank}`);
    expect(reconcile.status).toBe(200);
    const check = await wp.api.get('/api/accounting/balance/check');
    expect(check.status).toBe(200);
  });
});
