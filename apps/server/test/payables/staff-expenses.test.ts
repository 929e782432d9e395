/**
 * Staff expenses as claims of employees (issue 16 §4, decision 029): the employee named on the
 * expense (on file, or new with name and IBAN), the typed description in the journal text of the
 * booking and of the payment, the creditors' list of what is owed to staff on 2250, and expenses
 * paid in a payment run whose pain.001 validates against the SPS XSD.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { xsdErrors } from '../banking/xsd.js';
import { payableCounts, payablesWorkplace, QR_REF, type PayablesWorkplace } from './setup.js';

const ANNA_IBAN = 'CH5604835012345678009';
const BEAT_IBAN = 'CH3908704016075473007';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A pending expense; `employee` names a new person (name, IBAN), else `data` carries the company. */
async function expense(w: PayablesWorkplace, data: Record<string, unknown>, employee?: { name: string; iban: string }) {
  const created = await w.api.post('/api/payable/insert', { data: { type: 1, date: '2025-11-03', ...data }, ...(employee ? { employee } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

async function approve(w: PayablesWorkplace, uuid: string) {
  const answer = await w.api.post('/api/payable/update', { uuid, data: { status: 2 } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function entryText(w: PayablesWorkplace, id: number): Promise<string> {
  return (await w.api.post('/api/accounting/entry/detail', { id })).body.description;
}

async function balance(w: PayablesWorkplace, number: string) {
  const response = await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' });
  return (response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00') as string;
}

describe('staff expenses: the employee and the journal text', () => {
  it('creates a new employee with an IBAN profile on 2250, books and pays with the typed description in the journal', async () => {
    const w = await payablesWorkplace(server);
    const first = await expense(w, { amount: '64.80', vatRate: '0.081', description: 'Train ticket Bern', message: 'Spesen November' }, { name: 'Anna Muster', iban: ANNA_IBAN });
    expect(first).toMatchObject({
      isExpense: true,
      company: { name: 'Anna Muster' },
      companyFinance: { iban: ANNA_IBAN, type: 1 },
      employee: { company: { name: 'Anna Muster' }, matchedBy: 'created', profileCreated: true, paymentProfile: { iban: ANNA_IBAN } },
    });
    // The person's IBAN profile sits on the staff account the expense is owed on, not on trade payables.
    const profiles = await w.api.post('/api/payment-profile/list', { filters: { company: { uuid: first.company.uuid } } });
    expect(profiles.body.data).toEqual([expect.objectContaining({ id: first.companyFinance.id, iban: ANNA_IBAN, account: expect.objectContaining({ number: '2250' }) })]);

    const approved = await approve(w, first.uuid);
    expect(await entryText(w, approved.bookingEntry.id)).toBe(`Expense ${first.id} · Anna Muster · Train ticket Bern`);
    expect(approved.liabilityAccount).toMatchObject({ number: '2250' });

    const paid = await w.api.post('/api/payable/pay', { uuid: first.uuid, account: { id: await w.account('1020') }, date: '2025-11-05' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await entryText(w, paid.body.paymentEntry.id)).toBe(`Payment of expense ${first.id} · Anna Muster · Train ticket Bern`);
    expect(await balance(w, '2250')).toBe('0.00');

    // The same IBAN again finds the same person (no second company, no second profile).
    const second = await expense(w, { amount: '12.50', description: 'Parking Basel' }, { name: 'anna muster', iban: 'CH56 0483 5012 3456 7800 9' });
    expect(second.employee).toMatchObject({ company: { uuid: first.company.uuid }, matchedBy: 'iban', profileCreated: false, paymentProfile: { id: first.companyFinance.id } });

    // The expense form's employees: Anna, with the profile of her latest expense.
    const employees = await w.api.get('/api/payable/employees');
    expect(employees.status).toBe(200);
    expect(employees.body.data).toEqual([
      { company: { uuid: first.company.uuid, name: 'Anna Muster' }, paymentProfile: { id: first.companyFinance.id, iban: ANNA_IBAN }, expenses: 2, lastDate: '2025-11-03' },
    ]);
  });

  it('names an employee on file by data.company, and on update by employee { name, iban }', async () => {
    const w = await payablesWorkplace(server);
    const pending = await expense(w, { amount: '30.00', description: 'Taxi' });
    expect(pending.company).toBeNull();
    const named = await w.api.post('/api/payable/update', { uuid: pending.uuid, data: { description: 'Taxi Flughafen' }, employee: { name: 'Beat Keller', iban: BEAT_IBAN } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body).toMatchObject({ description: 'Taxi Flughafen', company: { name: 'Beat Keller' }, companyFinance: { iban: BEAT_IBAN } });
    const onFile = await expense(w, { amount: '18.00', description: 'Lunch with a client', company: { uuid: named.body.company.uuid }, companyFinance: { id: named.body.companyFinance.id } });
    const booked = await approve(w, onFile.uuid);
    expect(await entryText(w, booked.bookingEntry.id)).toBe(`Expense ${onFile.id} · Beat Keller · Lunch with a client`);
    // Once approved, the employee can no longer be changed.
    const late = await w.api.post('/api/payable/update', { uuid: onFile.uuid, data: {}, employee: { name: 'Someone Else', iban: ANNA_IBAN } });
    expect(late.status).toBe(409);
    expect((await w.api.get('/api/company/list')).body.data.map((c: { name: string }) => c.name)).not.toContain('Someone Else');
  });

  it('keeps the receipt with the expense: attached on insert, another added on update, both in the history', async () => {
    const w = await payablesWorkplace(server);
    const upload = async (name: string) => {
      const response = await fetch(`${server.baseUrl}/api/file/upload?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/pdf' },
        body: Buffer.from('%PDF-1.4\n% receipt\n%%EOF\n', 'latin1'),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { uuid: string }).uuid;
    };
    const ticket = await upload('sbb-ticket.pdf');
    const created = await w.api.post('/api/payable/insert', {
      data: { type: 1, date: '2025-11-03', amount: '64.80', description: 'Train ticket Bern' },
      employee: { name: 'Anna Muster', iban: ANNA_IBAN },
      file: { uuid: ticket },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const second = await upload('sbb-return.pdf');
    const updated = await w.api.post('/api/payable/update', { uuid: created.body.uuid, data: { amount: '129.60' }, file: { uuid: second } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const history = await w.api.post('/api/payable/history', { uuid: created.body.uuid });
    expect(history.body.files.map((f: { name: string }) => f.name).sort()).toEqual(['sbb-return.pdf', 'sbb-ticket.pdf']);
    // A receipt already kept with another expense is refused, and the update with it changes nothing.
    const other = await expense(w, { amount: '5.00', description: 'Coffee' });
    const refused = await w.api.post('/api/payable/update', { uuid: other.uuid, data: { amount: '6.00' }, file: { uuid: ticket } });
    expect(refused.status).toBe(409);
    expect(Object.keys(refused.body.fields)).toEqual(['file.uuid']);
    expect((await w.api.post('/api/payable/detail', { uuid: other.uuid })).body.amount).toBe('5.00');
  });

  it('refuses bad input naming the field, and writes nothing (no company, no profile, no expense)', async () => {
    const w = await payablesWorkplace(server);
    const before = await payableCounts(server, w.instanceId);
    const companies = (await w.api.get('/api/company/list')).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ data: { type: 1, date: '2025-11-03', amount: '10.00' }, employee: { name: 'Anna Muster', iban: ANNA_IBAN } }, 'data.description'],
      [{ data: { type: 1, date: '2025-11-03', amount: '10.00', description: '   ' } }, 'data.description'],
      [{ data: { type: 1, date: '2025-11-03', amount: '10.00', description: 'Taxi' }, employee: { name: 'Anna Muster', iban: 'CH5604835012345678008' } }, 'employee.iban'],
      [{ data: { type: 1, date: '2025-11-03', amount: '10.00', description: 'Taxi' }, employee: { name: '', iban: ANNA_IBAN } }, 'employee.name'],
      [{ data: { type: 0, company: { uuid: w.supplier.uuid }, date: '2025-11-03', amount: '10.00' }, employee: { name: 'Anna Muster', iban: ANNA_IBAN } }, 'employee'],
      [{ data: { type: 1, company: { uuid: w.supplier.uuid }, date: '2025-11-03', amount: '10.00', description: 'Taxi' }, employee: { name: 'Anna Muster', iban: ANNA_IBAN } }, 'data.company.uuid'],
    ];
    for (const [body, field] of cases) {
      const response = await w.api.post('/api/payable/insert', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.body.fields), JSON.stringify(response.body)).toContain(field);
    }
    expect(await payableCounts(server, w.instanceId)).toEqual(before);
    expect((await w.api.get('/api/company/list')).body.total).toBe(companies);
  });

  it("books an employee's expense to the account of their last expense, never to a salary claim's clearing account", async () => {
    const w = await payablesWorkplace(server);
    const travel = await expense(w, { amount: '64.80', description: 'Train ticket', expenseAccount: { id: await w.account('6200') } }, { name: 'Anna Muster', iban: ANNA_IBAN });
    await approve(w, travel.uuid);
    // A later salary claim on another account (what the salary import makes, decision 026).
    const claim = await expense(w, { date: '2025-11-25', amount: '5000.00', description: 'Net salary 2025-11', company: { uuid: travel.company.uuid }, expenseAccount: { id: await w.account('5000') } });
    await server.db.withInstance(w.instanceId, (tx) => tx.query(`UPDATE payable SET category_purpose = 'SALA' WHERE instance_id = $1 AND uuid = $2`, [w.instanceId, claim.uuid]));
    await approve(w, claim.uuid);
    const next = await expense(w, { date: '2025-11-28', amount: '9.00', description: 'Bus', company: { uuid: travel.company.uuid } });
    expect((await approve(w, next.uuid)).expenseAccount).toMatchObject({ number: '6200' });
  });
});

describe('GET /api/payable/creditors: what is owed to staff', () => {
  it('lists open approved expenses on 2250 per employee, apart from the suppliers, each total equal to its account', async () => {
    const w = await payablesWorkplace(server);
    const supplierBill = await w.api.post('/api/payable/insert', {
      data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, referenceNumber: QR_REF, date: '2025-11-01', amount: '1081.00' },
    });
    await approve(w, supplierBill.body.uuid);
    const anna1 = await expense(w, { amount: '64.80', description: 'Train ticket Bern', dueDate: '2025-11-30' }, { name: 'Anna Muster', iban: ANNA_IBAN });
    const anna2 = await expense(w, { amount: '35.20', description: 'Parking', company: { uuid: anna1.company.uuid }, companyFinance: { id: anna1.companyFinance.id } });
    const beat = await expense(w, { amount: '120.00', description: 'Hotel Lugano' }, { name: 'Beat Keller', iban: BEAT_IBAN });
    const unnamed = await expense(w, { amount: '15.00', description: 'Receipt without a name' });
    await expense(w, { amount: '999.00', description: 'Still pending' }, { name: 'Claudia Rossi', iban: 'CH2089144321842946678' });
    for (const e of [anna1, anna2, beat, unnamed]) await approve(w, e.uuid);
    // Beat is paid 20.00 by hand: 100.00 stay open.
    expect((await w.api.post('/api/payable/pay', { uuid: beat.uuid, amount: '20.00', account: { id: await w.account('1000') }, date: '2025-11-04' })).status).toBe(200);

    const creditors = await w.api.get('/api/payable/creditors');
    expect(creditors.status).toBe(200);
    // Suppliers: only the bill, agreeing with 2000.
    expect(creditors.body.data).toEqual([expect.objectContaining({ company: { uuid: w.supplier.uuid, name: 'Muster Lieferant AG' }, openAmount: '1081.00', bills: 1 })]);
    expect(creditors.body.total).toBe('1081.00');
    expect(creditors.body.payablesAccount).toMatchObject({ number: '2000', balance: '1081.00' });
    // Staff: per employee, by next due date (due date, else the date), the unnamed receipt last.
    expect(creditors.body.staff.data).toEqual([
      { company: { uuid: anna1.company.uuid, name: 'Anna Muster' }, currency: 'CHF', openAmount: '100.00', openAmountBase: '100.00', bills: 2, overdue: 2, nextDueDate: '2025-11-03' },
      { company: { uuid: beat.company.uuid, name: 'Beat Keller' }, currency: 'CHF', openAmount: '100.00', openAmountBase: '100.00', bills: 1, overdue: 1, nextDueDate: '2025-11-03' },
      { company: null, currency: 'CHF', openAmount: '15.00', openAmountBase: '15.00', bills: 1, overdue: 1, nextDueDate: '2025-11-03' },
    ]);
    expect(creditors.body.staff.total).toBe('215.00');
    expect(creditors.body.staff.account).toMatchObject({ number: '2250', balance: '215.00' });
    expect(await balance(w, '2250')).toBe('-215.00');

    // Paid in full: Anna's row goes; the staff total still equals 2250.
    for (const e of [anna1, anna2]) expect((await w.api.post('/api/payable/pay', { uuid: e.uuid, account: { id: await w.account('1000') }, date: '2025-11-06' })).status).toBe(200);
    const after = await w.api.get('/api/payable/creditors');
    expect(after.body.staff.data.map((row: { company: { name: string } | null }) => row.company?.name ?? null)).toEqual(['Beat Keller', null]);
    expect(after.body.staff).toMatchObject({ total: '115.00', account: { balance: '115.00' } });
  });
});

describe('staff expenses in a payment run', () => {
  it('pays approved expenses with a supplier bill in one run: a valid pain.001 to the employees, then 2250 cleared', async () => {
    const w = await payablesWorkplace(server);
    const bill = await w.api.post('/api/payable/insert', {
      data: { company: { uuid: w.supplier.uuid }, companyFinance: { id: w.supplier.qrProfile }, referenceNumber: QR_REF, date: '2025-11-01', amount: '1081.00' },
    });
    await approve(w, bill.body.uuid);
    const anna = await expense(w, { amount: '64.80', description: 'Train ticket Bern', message: 'Spesen November' }, { name: 'Anna Muster', iban: ANNA_IBAN });
    const beat = await expense(w, { amount: '120.00', description: 'Hotel Lugano' }, { name: 'Beat Keller', iban: BEAT_IBAN });
    for (const e of [anna, beat]) await approve(w, e.uuid);

    const group = await w.api.post('/api/transaction-group/insert', { payable: { uuids: [bill.body.uuid, anna.uuid, beat.uuid] }, executionDate: '2025-11-10' });
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body).toMatchObject({ count: 3, total: '1265.80' });
    const file = await w.api.post('/api/transaction-group/pain001', { id: group.body.id });
    expect(file.status).toBe(200);
    expect(await xsdErrors(file.body)).toEqual([]);
    const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['PmtInf', 'CdtTrfTxInf'].includes(name) });
    const doc = parser.parse(file.body).Document.CstmrCdtTrfInitn;
    // Staff expenses are no salaries: one block, no category purpose SALA.
    expect(doc.PmtInf).toHaveLength(1);
    expect(doc.PmtInf[0].PmtTpInf?.CtgyPurp).toBeUndefined();
    const byCreditor = Object.fromEntries(
      doc.PmtInf[0].CdtTrfTxInf.map((t: any) => [t.Cdtr.Nm, { iban: t.CdtrAcct.Id.IBAN, amount: t.Amt.InstdAmt['#text'], text: t.RmtInf?.Ustrd ?? null }]),
    );
    expect(byCreditor['Anna Muster']).toEqual({ iban: ANNA_IBAN, amount: '64.80', text: 'Spesen November' });
    // Without a payment note the transfer tells the employee what it refunds.
    expect(byCreditor['Beat Keller']).toEqual({ iban: BEAT_IBAN, amount: '120.00', text: 'Hotel Lugano' });

    expect((await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 4 })).status).toBe(200);
    const paid = await w.api.post('/api/transaction-group/status/change', { id: group.body.id, status: 2, date: '2025-11-10' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const annaPaid = (await w.api.post('/api/payable/detail', { uuid: anna.uuid })).body;
    expect(annaPaid.status).toBe(4);
    expect(await entryText(w, annaPaid.paymentEntry.id)).toBe(`Payment of expense ${anna.id} · Anna Muster · Train ticket Bern`);
    expect(await balance(w, '2250')).toBe('0.00');
    expect(await balance(w, '2000')).toBe('0.00');
    expect((await w.api.get('/api/payable/creditors')).body.staff).toMatchObject({ data: [], total: '0.00', account: { balance: '0.00' } });
  });
});
