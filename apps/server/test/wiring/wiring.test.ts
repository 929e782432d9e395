/**
 * Cross-module wiring (src/modules/wiring/wiring.ts): company ap-ar from invoices and bills, bank
 * credits paying invoices through their QR reference, company delete refused while documents
 * point at it. Real server, both engines.
 */
import { toFixedAmount, toMoney } from '@bilan/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { camt054 as camt054Of, isoFixture, xsdErrors } from '../banking/xsd.js';
import { QR_IBAN } from '../invoicing/support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
let other: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
  other = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

async function balance(w: InvoicingWorkplace, number: string, date = '2099-12-31'): Promise<string> {
  const response = await w.api.post('/api/accounting/balance/get', { date });
  return response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}

/** A sent invoice (total 269.55, see invoiceData) of `w`'s customer. */
async function sentInvoice(w: InvoicingWorkplace) {
  const created = await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sent = await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body as { uuid: string; id: number; refNumber: string; paymentReference: string; totals: { total: string } };
}

async function bill(w: InvoicingWorkplace, data: Record<string, unknown>) {
  const created = await w.api.post('/api/payable/insert', { data: { company: { uuid: w.customer }, date: '2025-04-02', ...data } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as { uuid: string; id: number };
}

/**
 * The Swiss camt.054 fixture (two QRR credits on the QR-IBAN of invoicingWorkplace) with its first
 * credit turned into the payment of `reference` over `amount`, under message id `messageId`.
 */
function camt054(reference: string, amount: string, messageId = 'NTF-20251125-0001'): string {
  const xml = isoFixture('camt/camt.054.001.08_ch_qrr_example.xml');
  const batch = toFixedAmount(toMoney(amount).plus('1000.00'));
  return xml
    .replace('<Ref>210000000003139471430009017</Ref>', `<Ref>${reference}</Ref>`)
    .replace('<Amt Ccy="CHF">1949.75</Amt>', `<Amt Ccy="CHF">${amount}</Amt>`)
    .replaceAll('2949.75', batch)
    .replaceAll('NTF-20251125-0001', messageId);
}

const importFile = (w: InvoicingWorkplace, xml: string) =>
  w.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml' });

async function entryCount(w: InvoicingWorkplace): Promise<number> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}

describe('POST /api/company/ap-ar', () => {
  it('lists the sent invoices and open bills of the company with totals in CHF', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await w.api.post('/api/invoice/insert', { data: invoiceData(w) }); // pending: not open
    const chf = await bill(w, { amount: '500.00', dueDate: '2025-05-02', referenceNumber: null });
    const eur = await bill(w, { amount: '100.00', currency: 'EUR', exchangeRate: '0.95', date: '2025-04-05' });
    const cancelled = await bill(w, { amount: '70.00' });
    expect((await w.api.post('/api/payable/update', { uuid: cancelled.uuid, data: { status: 5 } })).status).toBe(200);

    const res = await w.api.post('/api/company/ap-ar', { uuid: w.customer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.receivables).toEqual([
      {
        kind: 'receivable',
        document: 'invoice',
        uuid: invoice.uuid,
        id: invoice.id,
        reference: invoice.refNumber,
        date: '2025-03-01',
        dueDate: '2025-03-31',
        amount: '269.55',
        currency: 'CHF',
        link: `/invoice/${invoice.uuid}/detail`,
      },
    ]);
    expect(res.body.payables).toEqual([
      expect.objectContaining({ kind: 'payable', document: 'bill', uuid: chf.uuid, id: chf.id, dueDate: '2025-05-02', amount: '500.00', currency: 'CHF', link: '/bill?filterStatus=true&text=Simon+Muster+AG' }),
      expect.objectContaining({ kind: 'payable', document: 'bill', uuid: eur.uuid, date: '2025-04-05', amount: '95.00', currency: 'CHF' }),
    ]);
    expect(res.body.totals).toEqual({ receivable: '269.55', payable: '595.00', net: '-325.45' });
  });

  it('is empty for a company without documents; 401 without a token, 404 across instances', async () => {
    const res = await other.api.post('/api/company/ap-ar', { uuid: other.customer });
    expect(res.body).toMatchObject({ receivables: [], payables: [], totals: { receivable: '0.00', payable: '0.00', net: '0.00' } });
    expect((await new Client(server.baseUrl).post('/api/company/ap-ar', { uuid: wp.customer })).status).toBe(401);
    expect((await other.api.post('/api/company/ap-ar', { uuid: wp.customer })).status).toBe(404);
  });
});

describe('bank credits pay invoices', () => {
  it('a camt.054 credit with the QR reference and amount marks the invoice paid once', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    expect(invoice.paymentReference).toMatch(/^\d{27}$/);
    expect(await balance(w, '1100')).toBe('269.55');
    const bankBefore = await balance(w, '1020');
    const entries = await entryCount(w);

    const xml = camt054(invoice.paymentReference, invoice.totals.total);
    const first = await importFile(w, xml);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ kind: 'camt.054', imported: 2, duplicates: 0, matched: 1 });

    const paid = (await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body;
    expect(paid).toMatchObject({ status: 3, bankRef: 'TX-1', ledgerDate: '2025-11-25' });
    const paidEntry = paid.entries.find((e: { kind: string }) => e.kind === 'paid');
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: paidEntry.id })).body;
    expect(entry).toMatchObject({ source: 'invoice', dateLedger: '2025-11-25' });
    expect(entry.entryAccounts.map((l: { account: { number: string }; amount: string; direction: number }) => [l.account.number, l.amount, l.direction])).toEqual([
      ['1020', '269.55', 1],
      ['1100', '269.55', -1],
    ]);
    expect(await balance(w, '1100')).toBe('0.00');
    expect(await balance(w, '1020')).toBe(toFixedAmount(toMoney(bankBefore).plus('269.55')));
    expect(await entryCount(w)).toBe(entries + 1);
    const [tx] = await server.db.withInstance(w.instanceId, (t) =>
      t.query<{ matched_invoice_uuid: string; entry_id: number }>("SELECT matched_invoice_uuid, entry_id FROM bank_transaction WHERE dedup_key = 'TX-1'"),
    );
    expect(tx).toEqual({ matched_invoice_uuid: invoice.uuid, entry_id: paidEntry.id });

    // The same file, and the same credits under another message id: nothing booked twice.
    expect((await importFile(w, xml)).body).toMatchObject({ duplicateFile: true, imported: 0, matched: 0 });
    expect((await importFile(w, camt054(invoice.paymentReference, invoice.totals.total, 'NTF-AGAIN'))).body).toMatchObject({ imported: 0, duplicates: 2, matched: 0 });
    expect(await entryCount(w)).toBe(entries + 1);
    expect(await balance(w, '1100')).toBe('0.00');
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(3);
  });

  it('leaves a credit of another amount, or for another instance, unmatched', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const partial = await importFile(w, camt054(invoice.paymentReference, '200.00', 'NTF-PARTIAL'));
    expect(partial.body).toMatchObject({ imported: 2, matched: 0 });
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
    expect(await balance(w, '1100')).toBe('269.55');

    // A statement of another bank account (the onboarding IBAN, on 1020) while the invoice's profile
    // now books on 1000: the money did not reach the invoice's account, so no match.
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query("UPDATE payment_profile SET account_id = (SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '1000') WHERE instance_id = $1 AND id = $2", [
        w.instanceId,
        w.qrProfile,
      ]),
    );
    const elsewhere = camt054(invoice.paymentReference, invoice.totals.total, 'NTF-ELSEWHERE')
      .replace('CH4431999123000889012', 'CH9300762011623852957')
      .replace(/<AcctSvcrRef>(TX-\d)<\/AcctSvcrRef>/g, '<AcctSvcrRef>$1-E</AcctSvcrRef>');
    expect((await importFile(w, elsewhere)).body).toMatchObject({ imported: 2, matched: 0 });
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);

    // The other instance's statement carries this instance's reference: its invoices only.
    const foreign = await importFile(other, camt054(invoice.paymentReference, invoice.totals.total, 'NTF-OTHER'));
    expect(foreign.body).toMatchObject({ imported: 2, matched: 0 });
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
  });

  it('leaves the credit unmatched when the booking date is locked, and still imports the file', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-12-31')`, [w.instanceId]),
    );
    const res = await importFile(w, camt054(invoice.paymentReference, invoice.totals.total, 'NTF-LOCKED'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ imported: 2, matched: 0 });
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
  });
});

describe('bank credits matched by amount and debtor name, and by hand', () => {
  const match = (w: InvoicingWorkplace, body: unknown) => w.api.post('/api/banking/integrations/reconcile/match', body);
  async function bankTx(w: InvoicingWorkplace, ref: string) {
    const [row] = await server.db.withInstance(w.instanceId, (tx) =>
      tx.query<{ id: number; matched_invoice_uuid: string | null; entry_id: number | null; unmatched_reason: string | null }>(
        "SELECT id, matched_invoice_uuid, entry_id, unmatched_reason FROM bank_transaction WHERE split_part(dedup_key, '#', 1) = $1",
        [ref],
      ),
    );
    return row!;
  }

  it('pays the one open invoice of that amount whose customer is the debtor (name compared loosely), without a reference', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const entries = await entryCount(w);
    const xml = camt054Of('NTF-NAME-1', QR_IBAN, [
      // Banks write names their way: upper case, no legal form, umlauts spelled out.
      { direction: 'CRDT', amount: '269.55', bankRef: 'NAME-1', name: 'SIMON MUSTER', date: '2025-11-26' },
      // Same amount, another debtor: not this invoice.
      { direction: 'CRDT', amount: '269.55', bankRef: 'NAME-2', name: 'Beispiel Treuhand GmbH', date: '2025-11-26' },
    ]);
    expect(await xsdErrors(xml, 'camt.054.001.08.xsd')).toEqual([]);
    const imported = await importFile(w, xml);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 2, matched: 1 });
    expect(imported.body.transactions.map((t: any) => t.invoice?.uuid ?? null)).toEqual([invoice.uuid, null]);
    const paid = (await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body;
    expect(paid).toMatchObject({ status: 3, bankRef: 'NAME-1', ledgerDate: '2025-11-26' });
    expect(await entryCount(w)).toBe(entries + 1);
    expect(await balance(w, '1100')).toBe('0.00');
  });

  it('leaves a credit two invoices could take unmatched with the reason; the manual match books the chosen one as the automatic match would', async () => {
    const w = await invoicingWorkplace(server);
    const first = await sentInvoice(w);
    const second = await sentInvoice(w);
    const imported = await importFile(w, camt054Of('NTF-AMB-1', QR_IBAN, [{ direction: 'CRDT', amount: '269.55', bankRef: 'AMB-IN', name: 'Simon Muster AG' }]));
    expect(imported.body).toMatchObject({ imported: 1, matched: 0 });
    expect(imported.body.transactions[0].reason).toBe(`2 open invoices (${first.refNumber}, ${second.refNumber}) match amount and debtor name: match by hand`);

    const bank = await w.account('1020');
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${bank}`);
    const [unmatched] = view.body.unmatched;
    expect(unmatched).toMatchObject({ amount: '269.55', counterparty: 'Simon Muster AG', reason: expect.stringContaining('match by hand') });
    expect(unmatched.suggestions.map((s: any) => [s.kind, s.uuid, s.amount])).toEqual([
      ['invoice', first.uuid, '269.55'],
      ['invoice', second.uuid, '269.55'],
    ]);

    const entries = await entryCount(w);
    const matched = await match(w, { bankTransaction: { id: unmatched.id }, invoice: { uuid: second.uuid } });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    expect(matched.body.unmatched).toEqual([]);
    const paid = (await w.api.post('/api/invoice/detail', { id: second.uuid })).body;
    expect(paid).toMatchObject({ status: 3, bankRef: 'AMB-IN', ledgerDate: '2025-11-25' });
    const paidEntry = paid.entries.find((e: { kind: string }) => e.kind === 'paid');
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: paidEntry.id })).body;
    expect(entry.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction])).toEqual([
      ['1020', '269.55', 1],
      ['1100', '269.55', -1],
    ]);
    expect(await bankTx(w, 'AMB-IN')).toMatchObject({ matched_invoice_uuid: second.uuid, entry_id: paidEntry.id, unmatched_reason: null });
    expect(await entryCount(w)).toBe(entries + 1);
    expect((await w.api.post('/api/invoice/detail', { id: first.uuid })).body.status).toBe(2);
  });

  it('refuses a manual match to an invoice of another amount, one not sent, or one paid to another account (409), writing nothing', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    const draft = await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
    await importFile(
      w,
      camt054Of('NTF-REF-1', QR_IBAN, [
        { direction: 'CRDT', amount: '200.00', bankRef: 'PART-IN' },
        { direction: 'CRDT', amount: '269.55', bankRef: 'FULL-IN' },
      ]),
    );
    const partial = await bankTx(w, 'PART-IN');
    const full = await bankTx(w, 'FULL-IN');
    const entries = await entryCount(w);
    const otherAmount = await match(w, { bankTransaction: { id: partial.id }, invoice: { uuid: invoice.uuid } });
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.body.error).toMatch(/200\.00 CHF.*269\.55 CHF/);
    expect((await match(w, { bankTransaction: { id: full.id }, invoice: { uuid: draft.body.uuid } })).status).toBe(409);
    await server.db.withInstance(w.instanceId, (tx) =>
      tx.query("UPDATE payment_profile SET account_id = (SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '1000') WHERE instance_id = $1 AND id = $2", [
        w.instanceId,
        w.qrProfile,
      ]),
    );
    const elsewhere = await match(w, { bankTransaction: { id: full.id }, invoice: { uuid: invoice.uuid } });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error).toMatch(/another bank account/);
    // The other instance cannot reach this instance's invoice or bank transaction.
    expect((await match(other, { bankTransaction: { id: full.id }, invoice: { uuid: invoice.uuid } })).status).toBe(404);
    expect(await entryCount(w)).toBe(entries);
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
  });

  it('shows why a credit on a locked date stayed unmatched', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentInvoice(w);
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`INSERT INTO accounting_lock (instance_id, lock_date) VALUES ($1, '2025-12-31')`, [w.instanceId]));
    const imported = await importFile(w, camt054(invoice.paymentReference, invoice.totals.total, 'NTF-LOCKED-REASON'));
    expect(imported.status).toBe(200);
    expect(imported.body.transactions[0].reason).toMatch(new RegExp(`^invoice ${invoice.refNumber}: .*2025-11-25.*lock date 2025-12-31`));
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${await w.account('1020')}`);
    expect(view.body.unmatched.find((t: any) => t.amount === '269.55')).toMatchObject({ reason: expect.stringContaining('lock date 2025-12-31') });
  });
});

describe('EUR invoices paid in CHF: the realized exchange difference (docs/decisions/012)', () => {
  /** A sent EUR invoice: 269.53 EUR at 0.93 = 250.66 CHF (see invoiceData). */
  async function sentEurInvoice(w: InvoicingWorkplace) {
    const created = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), currency: 'EUR', fxRate: '0.93' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sent = await w.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-03-01' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ totals: { total: '269.53' }, totalBase: '250.66' });
    return sent.body as { uuid: string; refNumber: string; paymentReference: string };
  }
  const paidLines = async (w: InvoicingWorkplace, uuid: string) => {
    const paid = (await w.api.post('/api/invoice/detail', { id: uuid })).body;
    expect(paid.status).toBe(3);
    const entry = (await w.api.post('/api/accounting/entry/detail', { id: paid.entries.find((e: { kind: string }) => e.kind === 'paid').id })).body;
    return entry.entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction]);
  };

  it('a CHF credit with the QR reference of an EUR invoice pays it for what arrived and books the gain on 6952', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentEurInvoice(w);
    const imported = await importFile(w, camt054Of('NTF-FX-1', QR_IBAN, [{ direction: 'CRDT', amount: '254.10', bankRef: 'FX-IN-1', reference: invoice.paymentReference }]));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 1, matched: 1 });
    expect(await paidLines(w, invoice.uuid)).toEqual([
      ['1020', '254.10', 1],
      ['1100', '250.66', -1],
      ['6952', '3.44', -1],
    ]);
    expect(await balance(w, '1100')).toBe('0.00');
  });

  it('a CHF credit with the reference but more than 5 % short (a part payment?) stays unmatched with the reason; by hand beyond 25 % is a 409', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentEurInvoice(w);
    const entries = await entryCount(w);
    const imported = await importFile(
      w,
      camt054Of('NTF-FX-5', QR_IBAN, [
        { direction: 'CRDT', amount: '200.00', bankRef: 'FX-IN-5', reference: invoice.paymentReference },
        { direction: 'CRDT', amount: '150.00', bankRef: 'FX-IN-6', reference: invoice.paymentReference },
      ]),
    );
    expect(imported.body).toMatchObject({ imported: 2, matched: 0 });
    expect(imported.body.transactions[0].reason).toBe(
      `invoice ${invoice.refNumber} (269.53 EUR) is booked at 250.66 CHF, the credit is 200.00 CHF: more than 5 % apart, a part payment? Match by hand or book against an account`,
    );
    expect(await entryCount(w)).toBe(entries);
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${await w.account('1020')}`);
    const farOff = view.body.unmatched.find((t: any) => t.amount === '150.00');
    const refused = await w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: farOff.id }, invoice: { uuid: invoice.uuid } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/150\.00 CHF.*250\.66 CHF: more than 25 % apart/);
    expect(await entryCount(w)).toBe(entries);
    expect((await w.api.post('/api/invoice/detail', { id: invoice.uuid })).body.status).toBe(2);
  });

  it('a CHF credit without reference is not matched to an EUR invoice by name, but offered within 5 % and booked by hand with the loss on 6942', async () => {
    const w = await invoicingWorkplace(server);
    const invoice = await sentEurInvoice(w);
    const imported = await importFile(
      w,
      camt054Of('NTF-FX-2', QR_IBAN, [
        { direction: 'CRDT', amount: '245.00', bankRef: 'FX-IN-2', name: 'Simon Muster AG' },
        // 20 % off the booked 250.66: not offered.
        { direction: 'CRDT', amount: '200.00', bankRef: 'FX-IN-3', name: 'Simon Muster AG' },
      ]),
    );
    expect(imported.body).toMatchObject({ imported: 2, matched: 0 });
    const view = await w.api.get(`/api/banking/integrations/reconcile?account=${await w.account('1020')}`);
    const byAmount = Object.fromEntries(view.body.unmatched.map((t: any) => [t.amount, t]));
    expect(byAmount['245.00'].suggestions.map((s: any) => [s.kind, s.uuid, s.amount, s.currency])).toEqual([['invoice', invoice.uuid, '269.53', 'EUR']]);
    expect(byAmount['200.00'].suggestions).toEqual([]);
    const matched = await w.api.post('/api/banking/integrations/reconcile/match', { bankTransaction: { id: byAmount['245.00'].id }, invoice: { uuid: invoice.uuid } });
    expect(matched.status, JSON.stringify(matched.body)).toBe(200);
    expect(await paidLines(w, invoice.uuid)).toEqual([
      ['1020', '245.00', 1],
      ['1100', '250.66', -1],
      ['6942', '5.66', 1],
    ]);
  });
});

describe('POST /api/company/delete with documents', () => {
  it('answers 409 naming the invoices and the bills', async () => {
    const w = await invoicingWorkplace(server);
    await w.api.post('/api/invoice/insert', { data: invoiceData(w) });
    const withInvoice = await w.api.post('/api/company/delete', { id: w.customer });
    expect(withInvoice.status).toBe(409);
    expect(withInvoice.body.error).toMatch(/has 1 invoice; it cannot be deleted/);

    const supplier = await w.api.post('/api/company/insert', { data: { name: 'Lieferant GmbH' } });
    expect(supplier.status, JSON.stringify(supplier.body)).toBe(200);
    const supplierUuid: string = supplier.body.uuid;
    await w.api.post('/api/payable/insert', { data: { company: { uuid: supplierUuid }, date: '2025-04-02', amount: '10.00' } });
    const withBill = await w.api.post('/api/company/delete', { id: supplierUuid });
    expect(withBill.status).toBe(409);
    expect(withBill.body.error).toMatch(/Lieferant GmbH has 1 bill; it cannot be deleted/);
    expect((await w.api.post('/api/company/detail', { id: supplierUuid })).status).toBe(200);
    expect((await w.api.post('/api/company/detail', { id: w.customer })).status).toBe(200);
  });
});
