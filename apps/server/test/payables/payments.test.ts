/**
 * Payments of bills and expenses (issue 14 §3, decision 021) over HTTP on both engines: part
 * payments, two part payments → paid, cash discount within and above the tolerance with the input
 * tax reduced, small difference, bank fee, reversal reopening the bill, defaults of /payable/pay,
 * the one-time token of /payable/pay and /transaction-group/pay under 20 parallel calls
 * (PostgreSQL), bad input naming the field, creditors with open amounts, and the VAT return on both
 * bases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { payablesWorkplace, QR_REF, type PayablesWorkplace } from './setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function ok(w: PayablesWorkplace, path: string, body: unknown) {
  const answer = await w.api.post(path, body);
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}
/** An approved bill of 1081.00 incl. 81.00 VAT (8.1 %) on 4400, dated 2024-04-03. */
async function approved(w: PayablesWorkplace, over: Record<string, unknown> = {}) {
  const created = await ok(w, '/api/payable/insert', {
    data: {
      company: { uuid: w.supplier.uuid },
      companyFinance: { id: w.supplier.qrProfile },
      referenceNumber: QR_REF,
      date: '2024-04-03',
      amount: '1081.00',
      vatRate: '0.081',
      expenseAccount: { id: await w.account('4400') },
      ...over,
    },
  });
  return ok(w, '/api/payable/update', { uuid: created.uuid, data: { status: 2 } });
}
async function lines(w: PayablesWorkplace, id: number): Promise<[string, string, number, string | null][]> {
  const entry = await ok(w, '/api/accounting/entry/detail', { id });
  return (entry.entryAccounts as { account: { number: string }; amount: string; direction: number; vat: { code: string; role: string } | null }[])
    .map((l) => [l.account.number, l.amount, l.direction, l.vat ? `${l.vat.code}/${l.vat.role}` : null] as [string, string, number, string | null])
    .sort((a, b) => a[0].localeCompare(b[0]));
}
async function balance(w: PayablesWorkplace, number: string): Promise<string> {
  const response = await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' });
  return response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}
async function entryCount(w: PayablesWorkplace): Promise<number> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}
const pay = (w: PayablesWorkplace, uuid: string, body: Record<string, unknown>) => w.api.post('/api/payable/pay', { uuid, ...body });

describe('part payments of bills', () => {
  let w: PayablesWorkplace;
  beforeAll(async () => {
    w = await payablesWorkplace(server);
  });

  it('a part payment leaves the bill approved with its open amount; the second pays it; creditors show what is open', async () => {
    const bill = await approved(w);
    expect(bill.openAmount).toBe('1081.00');
    // No account, no date: the first bank account (1020) and today.
    const first = await pay(w, bill.uuid, { amount: '600.00' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 2, openAmount: '481.00', payments: [{ amount: '600.00', bankAccount: { number: '1020' }, reversed: null }] });
    expect(first.body.payments[0].date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await lines(w, first.body.payments[0].entryId)).toEqual([
      ['1020', '600.00', -1, null],
      ['2000', '600.00', 1, null],
    ]);
    // Part paid: the booking stays (no back to pending, no cancel) while payments rest on it.
    for (const status of [1, 5]) {
      const refused = await w.api.post('/api/payable/update', { uuid: bill.uuid, data: { status } });
      expect(refused.status).toBe(409);
    }
    const creditors = await w.api.get('/api/payable/creditors');
    expect(creditors.body.data[0]).toMatchObject({ openAmount: '481.00', openAmountBase: '481.00', bills: 1 });
    expect(creditors.body.total).toBe(creditors.body.payablesAccount.balance);
    const second = await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '481.00', date: '2024-04-20', account: { id: await w.account('1020') } });
    expect(second).toMatchObject({ status: 4, statusName: 'paid', openAmount: '0.00' });
    // By payment date: the second is dated 2024-04-20, the first today.
    expect(second.payments.map((p: { amount: string }) => p.amount)).toEqual(['481.00', '600.00']);
    expect(await balance(w, '2000')).toBe('0.00');
    const again = await pay(w, bill.uuid, { amount: '1.00' });
    expect(again.status).toBe(409);
  });

  it('refuses bad input with 400 naming the field and books nothing; 409 for a pending bill', async () => {
    const bill = await approved(w);
    const before = await entryCount(w);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: '1081.01' }, 'amount'],
      [{ amount: '-1' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ amount: '1.234' }, 'amount'],
      [{ amount: '100', fee: 'x' }, 'fee'],
      [{ amount: '100', date: '2024-13-01' }, 'date'],
      [{ amount: '100', account: { id: await w.account('4400') } }, 'account.id'],
      [{ amount: '100', account: { id: await w.account('2000') } }, 'account.id'],
      [{ amount: '1000.00', writeOff: 'discount' }, 'amount'],
      [{ amount: '1000.00', writeOff: 'nope' }, 'writeOff'],
    ];
    for (const [body, field] of cases) {
      const answer = await pay(w, bill.uuid, body);
      expect(answer.status, JSON.stringify({ body, answer: answer.body })).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    expect(await entryCount(w)).toBe(before);
    const pending = await ok(w, '/api/payable/insert', { data: { company: { uuid: w.supplier.uuid }, date: '2024-04-03', amount: '10.00' } });
    expect((await pay(w, pending.uuid, { amount: '1.00' })).status).toBe(409);
    expect((await w.api.post('/api/payable/payment/reverse', { uuid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });
});

describe('differences on bills: cash discount, small difference, bank fee', () => {
  let w: PayablesWorkplace;
  beforeAll(async () => {
    w = await payablesWorkplace(server);
  });

  it('a 2 % cash discount credits 4900 and reduces the input tax with the bill\'s code (M81)', async () => {
    const bill = await approved(w);
    const paid = await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '1059.38', date: '2024-04-12', writeOff: 'discount' });
    expect(paid).toMatchObject({ status: 4, openAmount: '0.00' });
    const payment = paid.payments[0];
    expect(payment).toMatchObject({ amount: '1059.38', writeOff: '21.62', writeOffKind: 'discount' });
    expect(await lines(w, payment.writeOffEntryId)).toEqual([
      ['1170', '1.62', -1, 'M81/tax'],
      ['2000', '21.62', 1, null],
      ['4900', '20.00', -1, 'M81/base'],
    ]);
    expect(await balance(w, '2000')).toBe('0.00');
    expect(await balance(w, '1170')).toBe('79.38');
  });

  it('refuses a discount beyond the tolerance; a small difference goes to 6953; a bank fee to 6940', async () => {
    const bill = await approved(w);
    const refused = await pay(w, bill.uuid, { amount: '1040.00', writeOff: 'discount', date: '2024-04-12' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.amount).toMatch(/tolerance/);
    const paid = await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '1078.00', fee: '1.50', date: '2024-04-12', writeOff: 'difference' });
    const payment = paid.payments[0];
    expect(payment).toMatchObject({ amount: '1078.00', fee: '1.50', writeOff: '3.00', writeOffKind: 'difference' });
    expect(await lines(w, payment.entryId)).toEqual([
      ['1020', '1079.50', -1, null],
      ['2000', '1078.00', 1, null],
      ['6940', '1.50', 1, null],
    ]);
    expect(await lines(w, payment.writeOffEntryId)).toEqual([
      ['2000', '3.00', 1, null],
      ['6953', '3.00', -1, null],
    ]);
    expect(paid.status).toBe(4);
  });
});

describe('reversal of a bill payment', () => {
  it('counter-books the payment and its write-off, reopens the bill, reverses once; history shows it', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approved(w);
    await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '81.00', date: '2024-04-05' });
    const paid = await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '980.00', date: '2024-04-09', writeOff: 'discount' });
    expect(paid.status).toBe(4);
    const last = paid.payments.find((p: { amount: string }) => p.amount === '980.00');
    const early = await w.api.post('/api/payable/payment/reverse', { uuid: last.uuid, date: '2024-04-01' });
    expect(early.status).toBe(400);
    expect(early.body.fields.date).toBeDefined();
    const reversed = await ok(w, '/api/payable/payment/reverse', { uuid: last.uuid, date: '2024-04-30' });
    expect(reversed).toMatchObject({ status: 2, openAmount: '1000.00', paymentEntry: null });
    expect(await balance(w, '2000')).toBe('-1000.00');
    expect(await balance(w, '4900')).toBe('0.00');
    expect((await w.api.post('/api/payable/payment/reverse', { uuid: last.uuid })).status).toBe(409);
    const history = await ok(w, '/api/payable/history', { uuid: bill.uuid });
    expect(history.entries.filter((e: { role: string }) => e.role === 'reversal')).toHaveLength(2);
    // Open again: it can be paid anew.
    expect((await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '1000.00', date: '2024-05-02' })).status).toBe(4);
  });
});

describe('transaction groups pay the open amount', () => {
  it('/transaction-group/pay {id, token} pays a group once; a part-paid bill is transferred for its rest', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approved(w, { companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '81.00', date: '2024-04-05' });
    const group = await ok(w, '/api/transaction-group/insert', { payable: { uuids: [bill.uuid] }, executionDate: '2024-04-30' });
    const xml = await w.api.post('/api/transaction-group/pain001', { id: group.id });
    expect(xml.status, JSON.stringify(xml.body)).toBe(200);
    expect(String(xml.body)).toContain('>1000.00<');
    const detail = await ok(w, '/api/transaction-group/detail', { id: group.id });
    expect(typeof detail.payToken).toBe('string');
    const before = await entryCount(w);
    const paid = await ok(w, '/api/transaction-group/pay', { id: group.id, token: detail.payToken });
    expect(paid.status).toBe(2);
    expect(paid.Payable[0]).toMatchObject({ status: 4, openAmount: '0.00' });
    const again = await ok(w, '/api/transaction-group/pay', { id: group.id, token: detail.payToken });
    expect(again.status).toBe(2);
    expect(await entryCount(w)).toBe(before + 1);
    expect((await w.api.post('/api/transaction-group/pay', { id: group.id, token: 'another' })).status).toBe(409);
    expect(await balance(w, '2000')).toBe('0.00');
    const bad = await w.api.post('/api/transaction-group/pay', { id: group.id });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toContain('token');
  });
});

describe.runIf(engine === 'postgres')('one-time tokens under 20 parallel calls', () => {
  it('/payable/pay with the detail token books one payment; /transaction-group/pay one group payment', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approved(w);
    const { payToken } = await ok(w, '/api/payable/detail', { uuid: bill.uuid });
    const before = await entryCount(w);
    const answers = await Promise.all(Array.from({ length: 20 }, () => pay(w, bill.uuid, { amount: '500.00', date: '2024-04-10', token: payToken })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const answer of answers) expect(answer.body.openAmount).toBe('581.00');
    expect(await entryCount(w)).toBe(before + 1);

    const other = await approved(w, { companyFinance: { id: w.supplier.ibanProfile }, referenceNumber: null });
    const group = await ok(w, '/api/transaction-group/insert', { payable: { uuids: [other.uuid] }, executionDate: '2024-04-30' });
    const { payToken: groupToken } = await ok(w, '/api/transaction-group/detail', { id: group.id });
    const middle = await entryCount(w);
    const groupAnswers = await Promise.all(Array.from({ length: 20 }, () => w.api.post('/api/transaction-group/pay', { id: group.id, token: groupToken })));
    expect(groupAnswers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await entryCount(w)).toBe(middle + 1);
  });
});

describe('the VAT return counts bill payments and cash discounts', () => {
  const settings = (basis: 'agreed' | 'received') => ({
    vatNumber: 'CHE-116.281.710 MWST',
    registrationDate: '2020-01-01',
    method: 'effective',
    basis,
    period: 'quarterly',
    netTaxRates: [],
  });
  const Q2 = { dateFrom: '2024-04-01', dateTo: '2024-06-30' };
  const Q3 = { dateFrom: '2024-07-01', dateTo: '2024-09-30' };

  it('agreed: input tax when booked, less the discount; received: as paid', async () => {
    const w = await payablesWorkplace(server);
    const bill = await approved(w);
    await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '540.50', date: '2024-06-20' });
    await ok(w, '/api/payable/pay', { uuid: bill.uuid, amount: '518.88', date: '2024-07-03', writeOff: 'discount' });
    await ok(w, '/api/accounting/vat/settings/update', { data: settings('agreed') });
    const figures = async (period: typeof Q2) => (await ok(w, '/api/accounting/vat/return/compute', period)).figures.figures;
    expect((await figures(Q2))['400']).toBe('81.00');
    // The discount's 1.62 input tax comes off in Q3.
    expect((await figures(Q3))['400']).toBe('-1.62');
    await ok(w, '/api/accounting/vat/settings/update', { data: settings('received') });
    const q2 = (await figures(Q2))['400'];
    const q3 = (await figures(Q3))['400'];
    // Half the bill paid in Q2 (40.50), the rest net of the discount in Q3 (38.88): 79.38 in all, as agreed.
    expect(q2).toBe('40.50');
    expect((Number(q2) + Number(q3)).toFixed(2)).toBe('79.38');
  });
});
