/**
 * Issue #5 §2 "the supplier company and its payment profile are matched or created on
 * confirmation": `/payable/insert` with `supplier` does it in the bill's transaction (match by IBAN,
 * by UID, by name, or create; a failure leaves nothing). Also the bill's history (`/payable/history`)
 * and the bills list's paging and filters the bills page uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeIban } from '@bilan/domain';
import { createCompany } from '../../src/modules/companies/companies.service.js';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { IBAN, QR_IBAN, QR_REF, payablesWorkplace, type PayablesWorkplace } from './setup.js';

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

const NEW_QR_IBAN = makeIban('CH', '30808000000123456');
const NEW_IBAN = makeIban('CH', '00700110000123456');
const address = { street: 'Seestrasse', houseNumber: '5', zip: '6004', city: 'Luzern', country: { id: 1 } };

async function counts(instanceId = wp.instanceId) {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ companies: string; addresses: string; profiles: string; payables: string }>(
      `SELECT (SELECT count(*) FROM company) AS companies, (SELECT count(*) FROM address) AS addresses,
              (SELECT count(*) FROM payment_profile) AS profiles, (SELECT count(*) FROM payable) AS payables`,
    ),
  );
  return row!;
}

const plus = (before: Awaited<ReturnType<typeof counts>>, delta: Partial<Record<keyof typeof before, number>>) =>
  Object.fromEntries(Object.entries(before).map(([key, value]) => [key, String(Number(value) + (delta[key as keyof typeof before] ?? 0))]));

describe('QR-bill confirmation in one call', () => {
  it('matches the supplier by the IBAN of an existing payment profile, whatever the name says', async () => {
    const before = await counts();
    const response = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-01', amount: '100.00', referenceNumber: QR_REF },
      supplier: { name: 'Muster Lieferant (Filiale Bern)', iban: 'ch44 3199 9123 0008 8901 2' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      company: { uuid: wp.supplier.uuid, name: 'Muster Lieferant AG' },
      companyFinance: { id: wp.supplier.qrProfile, iban: QR_IBAN, type: 2 },
      supplier: { matchedBy: 'iban', profileCreated: false, paymentProfile: { id: wp.supplier.qrProfile } },
    });
    expect(await counts()).toEqual(plus(before, { payables: 1 }));
  });

  it('matches by name (trimmed, any case) and adds the IBAN as a payment profile', async () => {
    const uuid = await server.db.withInstance(wp.instanceId, (tx) => createCompany(tx, wp.instanceId, { name: 'Druckerei Gutenberg AG' }));
    const before = await counts();
    const response = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-02', amount: '250.00' },
      supplier: { name: '  druckerei gutenberg ag ', iban: NEW_IBAN, address },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ company: { uuid }, companyFinance: { iban: NEW_IBAN, type: 1 }, supplier: { matchedBy: 'name', profileCreated: true } });
    // The address of a matched company is left as it is.
    expect(await counts()).toEqual(plus(before, { profiles: 1, payables: 1 }));
    const profile = (await wp.api.post('/api/payment-profile/list', { filters: { company: { uuid } } })).body.data[0];
    expect(profile).toMatchObject({ type: 1, iban: NEW_IBAN, account: { number: '2000' } });
  });

  it('matches by UID before the name', async () => {
    const byName = await server.db.withInstance(wp.instanceId, (tx) => createCompany(tx, wp.instanceId, { name: 'Holzbau Meier GmbH' }));
    const byUid = await server.db.withInstance(wp.instanceId, (tx) => createCompany(tx, wp.instanceId, { name: 'Meier Holzbau', uid: 'CHE-109.322.551' }));
    const response = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-03', amount: '80.00' },
      supplier: { name: 'Holzbau Meier GmbH', uid: 'CHE109322551', iban: makeIban('CH', '00700110000999999') },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.company.uuid).toBe(byUid);
    expect(response.body.company.uuid).not.toBe(byName);
    expect(response.body.supplier.matchedBy).toBe('uid');
  });

  it('creates company, address and QR-bill profile when nothing matches, and attaches the voucher', async () => {
    const file = await fetch(`${server.baseUrl}/api/file/upload?name=qr.pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${wp.token}`, 'content-type': 'application/pdf' },
      body: Buffer.from('%PDF-1.4\n%%EOF\n'),
    }).then((r) => r.json() as Promise<any>);
    const before = await counts();
    const response = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-04', dueDate: '2025-05-04', amount: '1081.00', vatAmount: '81.00', referenceNumber: QR_REF, message: 'Rechnung 4711' },
      supplier: { name: 'Neu Elektro AG', iban: NEW_QR_IBAN, address },
      file: { uuid: file.uuid },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      company: { name: 'Neu Elektro AG' },
      companyFinance: { iban: NEW_QR_IBAN, type: 2 },
      referenceNumber: QR_REF,
      supplier: { matchedBy: 'created', profileCreated: true },
    });
    expect(await counts()).toEqual(plus(before, { companies: 1, addresses: 1, profiles: 1, payables: 1 }));
    const company = await wp.api.post('/api/company/detail', { id: response.body.company.uuid });
    expect(company.body.address).toMatchObject({ street: 'Seestrasse', houseNumber: '5', zip: '6004', city: 'Luzern' });
    const files = await wp.api.post('/api/file/list', { filters: { payable: { id: response.body.id } } });
    expect(files.body.data.map((f: any) => f.uuid)).toEqual([file.uuid]);

    // The same voucher cannot become a second bill: 409, and the supplier made for it is rolled back.
    const twice = await counts();
    const again = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-04', amount: '1081.00', referenceNumber: QR_REF },
      supplier: { name: 'Noch Neuer AG', iban: makeIban('CH', '30808000000777777') },
      file: { uuid: file.uuid },
    });
    expect(again.status).toBe(409);
    expect(again.body.fields).toHaveProperty(['file.uuid']);
    expect(await counts()).toEqual(twice);
  });

  it('leaves nothing behind when the bill is refused', async () => {
    const before = await counts();
    // A QR-IBAN needs a QR reference (SIX IG QR-bill §3.3): the bill fails after the supplier was made.
    const noReference = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-05', amount: '50.00' },
      supplier: { name: 'Fehlschlag AG', iban: makeIban('CH', '30808000000555555'), address },
    });
    expect(noReference.status).toBe(400);
    expect(noReference.body.fields).toEqual({ 'data.referenceNumber': 'a QR-IBAN needs a QR reference (27 digits)' });
    const badIban = await wp.api.post('/api/payable/insert', { data: { date: '2025-04-05', amount: '50.00' }, supplier: { name: 'X AG', iban: 'CH00 1234' } });
    expect(badIban.status).toBe(400);
    expect(badIban.body.fields).toHaveProperty(['supplier.iban'], 'The IBAN is wrongly formatted');
    const badAddress = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-05', amount: '50.00' },
      supplier: { name: 'X AG', iban: NEW_IBAN, address: { ...address, city: '' } },
    });
    expect(badAddress.status).toBe(400);
    expect(Object.keys(badAddress.body.fields)).toEqual(['supplier.address.city']);
    const both = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-05', amount: '50.00', company: { uuid: wp.supplier.uuid } },
      supplier: { name: 'X AG', iban: NEW_IBAN },
    });
    expect(both.status).toBe(400);
    expect(both.body.fields).toHaveProperty(['data.company.uuid']);
    const expense = await wp.api.post('/api/payable/insert', { data: { isExpense: true, date: '2025-04-05', amount: '50.00' }, supplier: { name: 'X AG', iban: NEW_IBAN } });
    expect(expense.body.fields).toHaveProperty(['data.type']);
    const unknownFile = await wp.api.post('/api/payable/insert', {
      data: { date: '2025-04-05', amount: '50.00' },
      supplier: { name: 'Y AG', iban: makeIban('CH', '00700110000444444') },
      file: { uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d' },
    });
    expect(unknownFile.status).toBe(400);
    expect(unknownFile.body.fields).toHaveProperty(['file.uuid']);
    expect(await counts()).toEqual(before);
  });

  it('answers 401 and 403 for a viewer', async () => {
    const body = { data: { date: '2025-04-05', amount: '50.00' }, supplier: { name: 'Z AG', iban: IBAN } };
    expect((await new Client(server.baseUrl).post('/api/payable/insert', body)).status).toBe(401);
    expect((await viewer.api.post('/api/payable/insert', body)).status).toBe(403);
  });
});

describe('bill history', () => {
  it('records every status with the entries that booked and reversed the bill', async () => {
    const created = await wp.api.post('/api/payable/insert', {
      data: { company: { uuid: wp.supplier.uuid }, companyFinance: { id: wp.supplier.ibanProfile }, date: '2025-05-10', amount: '540.50', vatAmount: '40.50' },
    });
    const { uuid } = created.body;
    const approved = await wp.api.post('/api/payable/update', { uuid, data: { status: 2 } });
    await wp.api.post('/api/payable/update', { uuid, data: { status: 5, statusDate: '2025-05-20' } });
    const history = await wp.api.post('/api/payable/history', { uuid });
    expect(history.status).toBe(200);
    expect(history.body.events.map((e: any) => [e.fromStatus, e.status, e.statusName])).toEqual([
      [null, 1, 'pending'],
      [1, 2, 'approved'],
      [2, 5, 'cancelled'],
    ]);
    const booking = approved.body.bookingEntry.id;
    expect(history.body.events[1].bookingEntry).toEqual({ id: booking });
    expect(history.body.entries.map((e: any) => [e.role, e.reverses?.id ?? null, e.dateLedger])).toEqual([
      ['booking', null, '2025-05-10'],
      ['reversal', booking, '2025-05-20'],
    ]);
    expect(history.body.entries[0].id).toBe(booking);
    expect(history.body.entries[0].entryAccounts.map((l: any) => [l.account.number, l.amount, l.direction])).toEqual([
      ['4000', '500.00', 1],
      ['1170', '40.50', 1],
      ['2000', '540.50', -1],
    ]);
    expect(history.body.entries[1].entryAccounts.map((l: any) => l.direction)).toEqual([-1, -1, 1]);
    expect(history.body.files).toEqual([]);

    expect((await other.api.post('/api/payable/history', { uuid })).status).toBe(404);
    expect((await viewer.api.post('/api/payable/history', { uuid })).status).toBe(404);
    expect((await new Client(server.baseUrl).post('/api/payable/history', { uuid })).status).toBe(401);
    expect((await wp.api.post('/api/payable/history', { uuid: 'nope' })).body.fields).toHaveProperty('uuid');
  });
});

describe('bills list paging and filters', () => {
  it('pages on the server and filters by company and date range', async () => {
    const mine = await payablesWorkplace(server);
    const second = await server.db.withInstance(mine.instanceId, (tx) => createCompany(tx, mine.instanceId, { name: 'Zweiter Lieferant AG' }));
    const dates = ['2025-01-05', '2025-01-20', '2025-02-03', '2025-02-17', '2025-03-01'];
    for (const [i, date] of dates.entries()) {
      const response = await mine.api.post('/api/payable/insert', {
        data: { company: { uuid: i === 4 ? second : mine.supplier.uuid }, date, amount: `${100 + i}.00` },
      });
      expect(response.status).toBe(200);
    }
    const page1 = await mine.api.post('/api/payable/list', { filters: {}, page: 1, pageSize: 2 });
    const page3 = await mine.api.post('/api/payable/list', { filters: {}, page: 3, pageSize: 2 });
    expect(page1.body.total).toBe(5);
    expect(page1.body.data.map((b: any) => b.date)).toEqual(['2025-03-01', '2025-02-17']);
    expect(page3.body.data.map((b: any) => b.date)).toEqual(['2025-01-05']);
    const range = await mine.api.post('/api/payable/list', { filters: { dateFrom: '2025-01-20', dateTo: '2025-02-17', company: { uuid: mine.supplier.uuid } } });
    expect(range.body.data.map((b: any) => b.date)).toEqual(['2025-02-17', '2025-02-03', '2025-01-20']);
    const company = await mine.api.post('/api/payable/list', { filters: { company: { uuid: second } } });
    expect(company.body.data.map((b: any) => b.amount)).toEqual(['104.00']);
    expect((await mine.api.post('/api/payable/list', { filters: { dateFrom: '2025-13-01' } })).body.fields).toHaveProperty(['filters.dateFrom']);
  });
});
