/**
 * Document postings belong to their document (issue 11 §2): the journal routes refuse to change an
 * entry posted by an invoice, a bill, a payment or a bank line (409 document_posting naming the
 * document, nothing changed); the database refuses it again (BIL03) unless the owning code sets
 * its flag; the documents' own flows keep working; manual entries stay editable, audited with
 * before and after, and locked on or before the lock date. Real server, both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDocumentPostingWrite } from '../../src/modules/accounting/accounting.service.js';
import { fromDatabaseError } from '../../src/http/errors.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { camt054, pain002 } from '../banking/xsd.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { QR_REF, supplier, type Supplier } from '../payables/setup.js';

let server: TestServer;
let w: InvoicingWorkplace;
let creditor: Supplier;
/** Entry ids by the document that posted them, and a manual entry of each date. */
const entries: Record<'invoice' | 'bill' | 'payment' | 'bank', { id: number; date: string; manual: number }> = {} as never;

const post = (path: string, body: unknown) => w.api.post(path, body);
const simple = (date: string, debit: number, credit: number, amount: string, description = 'manual entry') => ({
  data: {
    dateLedger: date,
    description,
    entryAccounts: [
      { account: { id: debit }, amount, direction: 1 },
      { account: { id: credit }, amount, direction: -1 },
    ],
  },
});

async function manualEntry(date: string, amount = '10.00'): Promise<number> {
  const response = await post('/api/accounting/entry/insert', simple(date, await w.account('1020'), await w.account('3200'), amount));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.id;
}

async function sentInvoice(): Promise<{ uuid: string; refNumber: string; sentEntry: number }> {
  const invoice = await post('/api/invoice/insert', { data: invoiceData(w) });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
  const sent = await post('/api/invoice/status/change', { uuid: invoice.body.uuid, status: 2, ledgerDate: '2025-03-10' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { uuid: invoice.body.uuid, refNumber: sent.body.refNumber, sentEntry: sent.body.entries.find((e: { kind: string }) => e.kind === 'sent').id };
}

async function approvedBill(amount = '100.00') {
  const created = await post('/api/payable/insert', {
    data: { company: { uuid: creditor.uuid }, companyFinance: { id: creditor.ibanProfile }, date: '2025-03-12', amount },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return approved.body as { uuid: string; id: number; bookingEntry: { id: number } };
}

/** Everything a refused change must leave as it was: the entry, the trial balance, the row counts. */
async function snapshot(entryId: number) {
  const entry = await post('/api/accounting/entry/detail', { id: entryId });
  const balance = await post('/api/accounting/balance/get', { date: '2099-12-31' });
  const [counts] = await server.db.withInstance(w.instanceId, (tx) =>
    tx.query<{ entries: number; lines: number; audits: number }>('SELECT (SELECT count(*)::int FROM journal_entry) AS entries, (SELECT count(*)::int FROM journal_line) AS lines, (SELECT count(*)::int FROM audit_event) AS audits'),
  );
  return { entry: entry.body, balance: balance.body, counts: counts! };
}

beforeAll(async () => {
  server = await startTestServer();
  w = await invoicingWorkplace(server);
  creditor = await supplier(server, w.instanceId);

  const invoice = await sentInvoice();
  entries.invoice = { id: invoice.sentEntry, date: '2025-03-10', manual: await manualEntry('2025-03-10') };

  const bill = await approvedBill();
  entries.bill = { id: bill.bookingEntry.id, date: '2025-03-12', manual: await manualEntry('2025-03-12') };

  const paid = await post('/api/payable/pay', { uuid: (await approvedBill('50.00')).uuid, account: { id: await w.account('1020') }, date: '2025-03-15' });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  entries.payment = { id: paid.body.paymentEntry.id, date: '2025-03-15', manual: await manualEntry('2025-03-15') };

  const imported = await w.api.request(
    'POST',
    '/api/banking/integrations/transactions',
    camt054('NTF-DOC-1', 'CH9300762011623852957', [{ direction: 'CRDT', amount: '77.00', bankRef: 'DOC-1', date: '2025-03-20', name: 'Zufall GmbH' }]),
    { 'content-type': 'application/xml' },
  );
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  const [transaction] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ id: number }>('SELECT id FROM bank_transaction ORDER BY id DESC LIMIT 1'));
  const booked = await post('/api/banking/integrations/reconcile', {
    account: { id: await w.account('1020') },
    bankTransaction: { id: transaction!.id },
    counterAccount: { id: await w.account('3200') },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  const [bankEntry] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ entry_id: number }>('SELECT entry_id FROM bank_transaction WHERE id = $1', [transaction!.id]));
  entries.bank = { id: bankEntry!.entry_id, date: '2025-03-20', manual: await manualEntry('2025-03-20') };
});
afterAll(async () => server?.close());

describe('the journal routes refuse document postings (409 document_posting naming the document)', () => {
  const expected = {
    invoice: { type: 'invoice', reference: expect.stringMatching(/^\S+\d$/), uuid: expect.any(String), link: expect.stringMatching(/^\/invoice\/.+\/detail$/) },
    bill: { type: 'bill', reference: expect.stringMatching(/^\d+ Muster Lieferant AG$/), uuid: expect.any(String), link: expect.stringMatching(/^\/bill\/.+\/detail$/) },
    payment: { type: 'bill', reference: expect.stringMatching(/^\d+ Muster Lieferant AG$/), uuid: expect.any(String), link: expect.stringMatching(/^\/bill\/.+\/detail$/) },
    bank: { type: 'bank transaction', reference: expect.stringMatching(/2025-03-20 Zufall GmbH 77\.00 CHF$/), uuid: null, link: expect.stringMatching(/^\/accounting\/account\/\d+\/reconciliation$/) },
  } as const;

  for (const kind of ['invoice', 'bill', 'payment', 'bank'] as const) {
    it(`${kind}: entry/detail names the document; update, delete, merge (either side) and account/update answer 409 and change nothing`, async () => {
      const { id, date, manual } = entries[kind];
      const before = await snapshot(id);
      expect(before.entry.source).toBe(kind);
      expect(before.entry.document).toEqual(expected[kind]);
      const document = before.entry.document;

      const line = before.entry.entryAccounts[0];
      const calls = [
        ['/entry/update', { id, data: { dateLedger: date, description: 'rewritten', entryAccounts: before.entry.entryAccounts.map((l: any) => ({ account: { id: l.account.id }, amount: '1.00', direction: l.direction })).slice(0, 2) } }],
        ['/entry/delete', { id }],
        ['/entry/merge', { entry1: id, entry2: manual }],
        ['/entry/merge', { entry1: manual, entry2: id }],
        ['/entry/account/update', { id: line.id, data: { account: { id: await w.account('6500') } } }],
        ['/entry/account/update', { id: line.id, data: { description: 'renamed' } }],
      ] as const;
      for (const [path, body] of calls) {
        const response = await post(`/api/accounting${path}`, body);
        expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(409);
        expect(response.body).toMatchObject({ code: 'document_posting', document });
        expect(response.body.fields).toBeUndefined();
        expect(response.body.error).toContain(`posted by ${document.type} ${document.reference}`);
      }
      expect(await snapshot(id)).toEqual(before);
    });
  }

  it('a manual or imported entry has no document', async () => {
    const detail = await post('/api/accounting/entry/detail', { id: entries.invoice.manual });
    expect(detail.body).toMatchObject({ source: 'manual', document: null });
  });
});

describe('the database refuses document postings without the flag (BIL03)', () => {
  const refusedAsApp = async (sql: string, params: unknown[]) => {
    const error = await server.db.withInstance(w.instanceId, (tx) => tx.query(sql, params)).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    return error?.code;
  };

  it('refuses UPDATE and DELETE of entries and lines, lines added later, and making a manual entry a document posting', async () => {
    const { id } = entries.bill;
    const before = await snapshot(id);
    const [line] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ id: number; account_id: number }>('SELECT id, account_id FROM journal_line WHERE entry_id = $1 ORDER BY id', [id]));
    expect(await refusedAsApp('UPDATE journal_entry SET description = $2 WHERE id = $1', [id, 'x'])).toBe('BIL03');
    expect(await refusedAsApp('DELETE FROM journal_entry WHERE id = $1', [id])).toBe('BIL03');
    expect(await refusedAsApp('UPDATE journal_line SET amount = 1 WHERE entry_id = $1', [id])).toBe('BIL03');
    expect(await refusedAsApp('UPDATE journal_line SET description = $2 WHERE id = $1', [line!.id, 'x'])).toBe('BIL03');
    expect(await refusedAsApp('DELETE FROM journal_line WHERE entry_id = $1', [id])).toBe('BIL03');
    expect(
      await refusedAsApp(
        `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
         SELECT instance_id, next_ids(instance_id, 'journal_line', 1), entry_id, date_ledger, account_id, direction, 0, currency_id, 0, 1
           FROM journal_line WHERE id = $1`,
        [line!.id],
      ),
    ).toBe('BIL03');
    // Moving a manual entry's postings into the document entry, or the document's out of it.
    expect(await refusedAsApp('UPDATE journal_line SET entry_id = $2 WHERE entry_id = $1', [entries.bill.manual, id])).toBe('BIL03');
    expect(await refusedAsApp("UPDATE journal_entry SET source = 'invoice' WHERE id = $1", [entries.bill.manual])).toBe('BIL03');
    expect(await snapshot(id)).toEqual(before);
  });

  it('lets the owning code change them inside withDocumentPostingWrite, and only there', async () => {
    const { id } = entries.payment;
    await server.db.withInstance(w.instanceId, (tx) =>
      withDocumentPostingWrite(tx, async () => {
        // Nested calls keep the flag on for the outer one.
        await withDocumentPostingWrite(tx, () => tx.query('UPDATE journal_entry SET description = description WHERE id = $1', [id]));
        await tx.query('UPDATE journal_line SET description = $2 WHERE entry_id = $1', [id, 'set by the document']);
      }),
    );
    const detail = await post('/api/accounting/entry/detail', { id });
    expect(detail.body.entryAccounts.every((l: { description: string }) => l.description === 'set by the document')).toBe(true);
    // The flag ends with the call: the same transaction is refused again afterwards.
    const error = await server.db
      .withInstance(w.instanceId, async (tx) => {
        await withDocumentPostingWrite(tx, () => tx.query('SELECT 1'));
        await tx.query('UPDATE journal_line SET description = NULL WHERE entry_id = $1', [id]);
      })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: string },
      );
    expect(error?.code).toBe('BIL03');
  });

  it('maps BIL03 to 409 document_posting', () => {
    const mapped = fromDatabaseError({ code: 'BIL03', message: 'journal entry 7 was posted by bill 12: change it through its document' });
    expect(mapped).toMatchObject({ statusCode: 409, extra: { code: 'document_posting' } });
  });
});

describe('the documents keep working', () => {
  it('pays and denies invoices, cancels an approved bill (reversal), pays a bill: each posts and balances', async () => {
    const entriesBefore = (await snapshot(entries.invoice.id)).counts.entries;
    const toPay = await sentInvoice();
    const paid = await post('/api/invoice/status/change', { uuid: toPay.uuid, status: 3, ledgerDate: '2025-03-25' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const toDeny = await sentInvoice();
    const denied = await post('/api/invoice/status/change', { uuid: toDeny.uuid, status: 4, ledgerDate: '2025-03-26' });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    const bill = await approvedBill('30.00');
    const cancelled = await post('/api/payable/update', { uuid: bill.uuid, data: { status: 5, statusDate: '2025-03-27' } });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    // Two sent, one paid, one denied, one bill approved and reversed.
    expect((await snapshot(entries.invoice.id)).counts.entries).toBe(entriesBefore + 6);
    // The reversal names the bill it reverses.
    const [reversal] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ id: number }>("SELECT id FROM journal_entry WHERE source = 'bill' AND source_ref = $1", [String(bill.bookingEntry.id)]),
    );
    const detail = await post('/api/accounting/entry/detail', { id: reversal!.id });
    expect(detail.body.document).toMatchObject({ type: 'bill', uuid: bill.uuid });
    const check = await w.api.get('/api/accounting/balance/check');
    expect(check.body).toMatchObject({ ok: true });
    expect(check.body.checks.length).toBeGreaterThan(0);
  });
});

describe('pain.002 rejection', () => {
  it("reverses a paid group's payment; the reversal names the bill and the journal routes refuse it", async () => {
    const created = await post('/api/payable/insert', {
      data: { company: { uuid: creditor.uuid }, companyFinance: { id: creditor.qrProfile }, date: '2025-11-03', amount: '12.00', referenceNumber: QR_REF },
    });
    expect((await post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } })).status).toBe(200);
    const group = await post('/api/transaction-group/insert', { payable: { uuids: [created.body.uuid] }, executionDate: '2025-11-25' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    await post('/api/transaction-group/status/change', { id: group.body.id, status: 4 });
    const paid = await post('/api/transaction-group/status/change', { id: group.body.id, status: 2, date: '2025-12-01' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const report = pain002({ version: '10', original: group.body.uuid.replace(/-/g, ''), group: 'RJCT', groupReason: 'DU01', blocks: [], messageId: 'STS-DOC-1' });
    const imported = await w.api.request('POST', '/api/banking/integrations/transactions', report, { 'content-type': 'application/xml' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ rejected: 1 });
    const [reversal] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ id: number }>("SELECT id FROM journal_entry WHERE description LIKE '%rejected by the bank%' ORDER BY id DESC LIMIT 1"),
    );
    const before = await snapshot(reversal!.id);
    expect(before.entry.document).toMatchObject({ type: 'bill', uuid: created.body.uuid });
    const refused = await post('/api/accounting/entry/delete', { id: reversal!.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'document_posting', document: { type: 'bill', uuid: created.body.uuid } });
    expect(await snapshot(reversal!.id)).toEqual(before);
  });
});

describe('manual entries stay editable, audited, and locked on or before the lock date', () => {
  async function audits(event: string) {
    return server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ user_id: string; occurred_at: string | Date; detail: any }>('SELECT user_id, occurred_at, detail FROM audit_event WHERE event = $1 ORDER BY id', [event]),
    );
  }

  it('writes before and after of update, account/update, merge and delete to the audit trail', async () => {
    const [bank, revenue, other] = [await w.account('1020'), await w.account('3200'), await w.account('3400')];
    const id = await manualEntry('2025-04-01', '40.00');
    const updated = await post('/api/accounting/entry/update', { id, ...simple('2025-04-01', bank, revenue, '45.00', 'corrected') });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const [update] = (await audits('journal_entry.updated')).filter((a) => a.detail.entryId === id);
    expect(update).toMatchObject({ user_id: w.userId, detail: { before: { description: 'manual entry', debitTotal: '40.00' }, after: { description: 'corrected', debitTotal: '45.00' } } });
    expect(Math.abs(Date.now() - new Date(update!.occurred_at).getTime())).toBeLessThan(60_000);

    const line = updated.body.entryAccounts[1];
    expect((await post('/api/accounting/entry/account/update', { id: line.id, data: { account: { id: other } } })).status).toBe(200);
    const [move] = (await audits('journal_line.updated')).filter((a) => a.detail.lineId === line.id);
    expect(move!.detail).toMatchObject({ entryId: id, before: { account: { id: revenue } }, after: { account: { id: other } } });

    const second = await manualEntry('2025-04-01', '5.00');
    expect((await post('/api/accounting/entry/merge', { entry1: id, entry2: second })).status).toBe(200);
    const [merge] = (await audits('journal_entry.merged')).filter((a) => a.detail.entryId === id);
    expect(merge!.detail.before.map((e: { id: number }) => e.id)).toEqual([id, second]);
    expect(merge!.detail.after.entryAccounts).toHaveLength(4);

    expect((await post('/api/accounting/entry/delete', { id })).status).toBe(200);
    const [deletion] = (await audits('journal_entry.deleted')).filter((a) => a.detail.entryId === id);
    expect(deletion!.detail).toMatchObject({ before: { id, debitTotal: '50.00' }, after: null });
  });

  it('refuses changes on or before the lock date (409) and audits nothing then', async () => {
    const id = await manualEntry('2025-01-15');
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-01-31')`, [w.instanceId]));
    const before = await snapshot(id);
    const refused = await post('/api/accounting/entry/delete', { id });
    expect(refused.status).toBe(409);
    expect(refused.body.fields.dateLedger).toMatch(/lock date 2025-01-31/);
    const update = await post('/api/accounting/entry/update', { id, ...simple('2025-02-15', await w.account('1020'), await w.account('3200'), '1.00') });
    expect(update.status).toBe(409);
    expect(await snapshot(id)).toEqual(before);
  });
});
