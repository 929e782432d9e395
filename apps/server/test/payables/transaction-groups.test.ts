/** /api/transaction-group*: grouping approved bills, status rules, payment bookings, the pain.001 download. */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { xsdErrors } from '../banking/xsd.js';
import { createPaymentProfile } from '../../src/modules/companies/companies.service.js';
import { payableCounts, payablesWorkplace, QR_REF, type PayablesWorkplace } from './setup.js';

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

async function approvedBill(w: PayablesWorkplace, over: Record<string, unknown> = {}) {
  const created = await w.api.post('/api/payable/insert', {
    data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, date: '2025-06-02', amount: '1081.00', vatAmount: '81.00', referenceNumber: QR_REF, ...over },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const approved = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { status: 2 } });
  expect(approved.status).toBe(200);
  return approved.body;
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['PmtInf', 'CdtTrfTxInf'].includes(name) });

describe('transaction groups', () => {
  it('groups approved bills, downloads the pain.001, initiates and pays them with bookings', async () => {
    const qr = await approvedBill(wp);
    const scor = await approvedBill(wp, { companyFinance: { id: wp.supplier.ibanProfile }, referenceNumber: 'RF18539007547034', amount: '540.50', vatAmount: '0' });
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: [qr.uuid, scor.uuid] }, executionDate: '2025-06-30' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body).toMatchObject({
      status: 1,
      statusName: 'pending',
      bankStatus: 1,
      count: 2,
      total: '1621.50',
      executionDate: '2025-06-30',
      debtor: { iban: 'CH9300762011623852957', account: { number: '1020' } },
    });
    expect(group.body.Payable.map((p: any) => [p.status, p.transactionGroup])).toEqual([
      [3, { id: group.body.id, status: 1 }],
      [3, { id: group.body.id, status: 1 }],
    ]);
    const id = group.body.id;

    const file = await wp.api.post('/api/transaction-group/pain001', { id });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="TG${id}-pain001.xml"`);
    expect(await xsdErrors(file.body)).toEqual([]);
    const doc = parser.parse(file.body).Document.CstmrCdtTrfInitn;
    expect(doc.GrpHdr).toMatchObject({ NbOfTxs: '2', CtrlSum: '1621.50' });
    const txs = doc.PmtInf[0].CdtTrfTxInf;
    expect(txs.map((t: any) => t.PmtId.EndToEndId).sort()).toEqual([qr.uuid, scor.uuid].map((u: string) => u.replace(/-/g, '')).sort());
    expect(txs.find((t: any) => t.RmtInf.Strd.CdtrRefInf.Ref === QR_REF).Cdtr.PstlAdr).toEqual({ StrtNm: 'Musterstrasse', BldgNb: '12', PstCd: '8000', TwnNm: 'Zürich', Ctry: 'CH' });

    expect((await wp.api.post('/api/transaction-group/status/change', { id, status: 2 })).status).toBe(409);
    expect((await wp.api.post('/api/transaction-group/status/change', { id, status: 4 })).body.statusName).toBe('initiated');
    const paid = await wp.api.post('/api/transaction-group/status/change', { id, status: 2, date: '2025-07-01' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 2, paidDate: '2025-07-01' });
    expect(paid.body.Payable.every((p: any) => p.status === 4 && p.paymentEntry)).toBe(true);
    const balance = await wp.api.post('/api/accounting/balance/get', { date: '2025-12-31' });
    const byNumber = (n: string) => balance.body.accounts.find((a: any) => a.number === n)?.balance;
    expect(byNumber('1020')).toBe('-1621.50');
    expect(byNumber('2000')).toBe('0.00');
    expect(byNumber('1170')).toBe('81.00');

    const denied = await wp.api.post('/api/transaction-group/status/change', { id, status: 3 });
    expect([denied.status, denied.body.code]).toEqual([409, 'status_transition']);
    const deleted = await wp.api.post('/api/transaction-group/delete', { id });
    expect([deleted.status, deleted.body.code]).toEqual([409, 'transaction_group_not_pending']);

    const list = await wp.api.get('/api/transaction-group/list');
    expect(list.body.data[0]).toMatchObject({ id, status: 2 });
    const withAccounts = await wp.api.get('/api/transaction-group/list-w-accounts');
    expect(withAccounts.body.data[0].Payable).toHaveLength(2);
    const counts = await wp.api.get('/api/analytics/counts');
    expect(counts.body).toMatchObject({ Payable: 2, TransactionGroup: 1 });

    const csv = await wp.api.get('/api/payable/list?format=csv');
    expect(csv.body).toContain(`${qr.id},2025-06-02,1081.00,Muster Lieferant AG,false,paid,paid`);
  });

  it('pays from the chosen own bank account, with one PmtInf block per execution date', async () => {
    const w = await payablesWorkplace(server);
    const second = await server.db.withInstance(w.instanceId, async (tx) => {
      const [bank2] = await tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '1021'", [w.instanceId]);
      await createPaymentProfile(tx, w.instanceId, { companyUuid: w.companyUuid!, accountId: bank2!.id, typeId: 1, iban: 'CH5604835012345678009', bic: null });
      return bank2!.id;
    });
    const accounts = await w.api.get('/api/transaction-group/debtor-accounts');
    expect(accounts.status).toBe(200);
    expect(accounts.body.data.map((a: any) => [a.account.number, a.iban])).toEqual([
      ['1020', 'CH9300762011623852957'],
      ['1021', 'CH5604835012345678009'],
    ]);
    const bills = [await approvedBill(w, { amount: '100.00', vatAmount: '0' }), await approvedBill(w, { amount: '200.00', vatAmount: '0' }), await approvedBill(w, { amount: '300.00', vatAmount: '0' })];
    const group = await w.api.post('/api/transaction-group/insert', {
      payable: { uuids: bills.map((b) => b.uuid), executionDates: ['2025-07-01', null, '2025-07-15'] },
      executionDate: '2025-07-01',
      debtor: { account: { id: second } },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body).toMatchObject({
      executionDate: '2025-07-01',
      executionDates: ['2025-07-01', '2025-07-15'],
      debtor: { iban: 'CH5604835012345678009', account: { id: second, number: '1021' } },
    });
    expect(Object.fromEntries(group.body.Payable.map((p: any) => [p.amount, p.executionDate]))).toEqual({ '100.00': '2025-07-01', '200.00': '2025-07-01', '300.00': '2025-07-15' });

    const file = await w.api.post('/api/transaction-group/pain001', { id: group.body.id });
    expect(await xsdErrors(file.body)).toEqual([]);
    const doc = parser.parse(file.body).Document.CstmrCdtTrfInitn;
    expect(doc.GrpHdr).toMatchObject({ NbOfTxs: '3', CtrlSum: '600.00' });
    expect(doc.PmtInf.map((b: any) => [b.ReqdExctnDt.Dt, b.NbOfTxs, b.CtrlSum, b.DbtrAcct.Id.IBAN])).toEqual([
      ['2025-07-01', '2', '300.00', 'CH5604835012345678009'],
      ['2025-07-15', '1', '300.00', 'CH5604835012345678009'],
    ]);

    await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 });
    const paid = await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 2, date: '2025-07-15' });
    expect(paid.body.status).toBe(2);
    const balance = await w.api.post('/api/accounting/balance/get', { date: '2025-12-31' });
    const byNumber = (n: string) => balance.body.accounts.find((a: any) => a.number === n)?.balance ?? '0.00';
    expect([byNumber('1020'), byNumber('1021')]).toEqual(['0.00', '-600.00']);

    const before = await payableCounts(server, w.instanceId);
    const expense = await w.account('4000');
    const more = await approvedBill(w);
    const after = await payableCounts(server, w.instanceId);
    for (const [body, field] of [
      [{ payable: { uuids: [more.uuid] }, debtor: { account: { id: expense } } }, 'debtor.account.id'],
      [{ payable: { uuids: [more.uuid], executionDates: ['2025-07-01', '2025-07-02'] } }, 'payable.executionDates'],
      [{ payable: { uuids: [more.uuid], executionDates: ['2025-02-30'] } }, 'payable.executionDates.0'],
    ] as const) {
      const response = await w.api.post('/api/transaction-group/insert', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.fields)).toContain(field);
    }
    expect(await payableCounts(server, w.instanceId)).toEqual(after);
    expect(Number(after.payables)).toBe(Number(before.payables) + 1);
  });

  it('denies and deletes groups, putting the bills back to approved', async () => {
    const a = await approvedBill(wp);
    const first = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: [a.uuid] } });
    expect((await wp.api.post('/api/transaction-group/delete', { id: first.body.id })).body).toEqual({ ok: true });
    expect((await wp.api.post('/api/payable/detail', { uuid: a.uuid })).body).toMatchObject({ status: 2, transactionGroup: null });
    expect((await wp.api.post('/api/transaction-group/detail', { id: first.body.id })).status).toBe(404);

    const second = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: [a.uuid] } });
    await wp.api.post('/api/transaction-group/status/change', { id: second.body.id, status: 4 });
    const denied = await wp.api.post('/api/transaction-group/status/change', { id: second.body.id, status: 3 });
    expect(denied.body).toMatchObject({ status: 3, statusName: 'denied', count: 0 });
    expect((await wp.api.post('/api/payable/detail', { uuid: a.uuid })).body).toMatchObject({ status: 2, transactionGroup: null });
  });

  it('answers 400 naming the bill, and writes nothing', async () => {
    const pending = await wp.api.post('/api/payable/insert', {
      data: { company: { uuid: wp.supplier.uuid }, companyFinance: { id: wp.supplier.qrProfile }, date: '2025-06-02', amount: '10.00', referenceNumber: QR_REF },
    });
    const ok = await approvedBill(wp);
    const before = await payableCounts(server, wp.instanceId);
    for (const [body, field] of [
      [{ payable: { uuids: [ok.uuid, pending.body.uuid] } }, 'payable.uuids.1'],
      [{ payable: { uuids: ['6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'] } }, 'payable.uuids.0'],
      [{ payable: { uuids: [ok.uuid, ok.uuid] } }, 'payable.uuids.1'],
      [{ payable: { uuids: [] } }, 'payable.uuids'],
      [{ payable: { uuids: [ok.uuid] }, debtor: { account: { id: 99999 } } }, 'debtor.account.id'],
      [{ payable: { uuids: ['x'] } }, 'payable.uuids.0'],
    ] as const) {
      const response = await wp.api.post('/api/transaction-group/insert', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.fields)).toContain(field);
    }
    expect((await wp.api.post('/api/transaction-group/status/change', { id: 1, status: 7 })).status).toBe(400);
    expect(await payableCounts(server, wp.instanceId)).toEqual(before);
  });

  it('answers 401, 403 for a viewer and 404 across instances', async () => {
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.get('/api/transaction-group/list')).status).toBe(401);
    expect((await anonymous.post('/api/transaction-group/insert', { payable: { uuids: [] } })).status).toBe(401);
    expect((await viewer.api.get('/api/transaction-group/list')).status).toBe(200);
    expect((await viewer.api.post('/api/transaction-group/insert', { payable: { uuids: ['6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d'] } })).status).toBe(403);
    const bill = await approvedBill(wp);
    const group = await wp.api.post('/api/transaction-group/insert', { payable: { uuids: [bill.uuid] } });
    for (const path of ['/api/transaction-group/detail', '/api/transaction-group/delete', '/api/transaction-group/pain001']) {
      expect((await other.api.post(path, { id: group.body.id })).status).toBe(404);
    }
    expect((await other.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 })).status).toBe(404);
    expect((await other.api.post('/api/transaction-group/insert', { payable: { uuids: [bill.uuid] } })).status).toBe(400);
  });
});
