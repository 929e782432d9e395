/**
 * Onboarding over HTTP (spec §2.9, §5 "Extra info", §7.1 Onboarding): every refusal names its field
 * with the spec's message and writes nothing; a second run is a conflict; another instance's company
 * is not found; the proposed bank code 1000 keeps the Swiss SME chart's cash account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const company = { name: 'Muster AG' };
const address = { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } };
const extra = { vat: '8.1', currency: 'CHF' };
const bank = (ledgerCode: number, name = 'Bank') => ({ ledgerCode, name, iban: 'CH9300762011623852957', bic: 'POFICHBEXXX', type: 1 });

/** What onboarding may have written for an instance, as the owner sees it (no row security). */
async function footprint(workplace: Workplace) {
  return server.db.asOwner(async (tx) => {
    const [row] = await tx.query<{ companies: string; accounts: string; profiles: string; initialized: boolean; own: string | null }>(
      `SELECT (SELECT count(*) FROM company WHERE instance_id = $1) AS companies,
              (SELECT count(*) FROM ledger_account WHERE instance_id = $1) AS accounts,
              (SELECT count(*) FROM payment_profile WHERE instance_id = $1) AS profiles,
              i.initialized_at IS NOT NULL AS initialized, i.own_company_uuid::text AS own
         FROM instance i WHERE i.id = $1`,
      [workplace.instanceId],
    );
    return row!;
  });
}

async function startedWorkplace(): Promise<Workplace & { companyUuid: string }> {
  const workplace = await createWorkplace(server, { onboard: false });
  const init = await workplace.api.post('/api/instance/init', { company, address, extra });
  expect(init.status).toBe(200);
  return { ...workplace, companyUuid: init.body.company.uuid as string };
}

describe('POST /api/instance/init', () => {
  it.each([
    ['company.name', { company: { name: '' }, address, extra }, 'This field must be given'],
    ['address.street', { company, address: { ...address, street: '' }, extra }, 'This field must be given'],
    ['address.zip', { company, address: { ...address, zip: '' }, extra }, 'This field must be given'],
    ['address.city', { company, address: { ...address, city: '' }, extra }, 'This field must be given'],
    ['extra.vat', { company, address, extra: { ...extra, vat: '99.5' } }, "VAT can't exceed 99%"],
    ['extra.vat', { company, address, extra: { ...extra, vat: '0.5' } }, "VAT can't be lower than 1%"],
    ['extra.currency', { company, address, extra: { vat: '8.1' } }, 'Default currency must be given'],
  ])('refuses a bad %s with the spec message and writes nothing', async (field, body, message) => {
    const workplace = await createWorkplace(server, { onboard: false });
    const before = await footprint(workplace);
    const answer = await workplace.api.post('/api/instance/init', body);
    expect(answer.status).toBe(400);
    expect(answer.body.fields[field]).toBe(message);
    expect(await footprint(workplace)).toEqual(before);
  });

  it('refuses an unknown key with the spec message', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const answer = await workplace.api.post('/api/instance/init', { company, address, extra, admin: true });
    expect(answer.status).toBe(400);
    expect(answer.body.fields.admin).toBe('this key cannot be included');
  });

  it('answers 401 without a session', async () => {
    const answer = await new Client(server.baseUrl).post('/api/instance/init', { company, address, extra });
    expect(answer.status).toBe(401);
  });

  it('is a conflict once onboarding has finished, and changes nothing', async () => {
    const workplace = await createWorkplace(server);
    const before = await footprint(workplace);
    const answer = await workplace.api.post('/api/instance/init', { company: { name: 'Other AG' }, address, extra });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/already/i);
    expect(await footprint(workplace)).toEqual(before);
  });
});

describe('POST /api/instance/init/accounts', () => {
  it('keeps the chart cash account when the proposed 1000 "Bank" is taken (spec §2.9, Swiss SME chart)', async () => {
    const workplace = await startedWorkplace();
    const answer = await workplace.api.post('/api/instance/init/accounts', {
      company: { uuid: workplace.companyUuid },
      accounts: [bank(1000), bank(1001, 'Bank 2')],
      currency: 'CHF',
    });
    expect(answer.status).toBe(200);
    const list = await workplace.api.post('/api/accounting/account/list', { filters: {} });
    const byNumber = new Map<string, { name: string; functionType: { id: number } | null }>(
      list.body.data.map((account: { number: string; name: string; functionType: { id: number } | null }) => [account.number, account]),
    );
    expect(byNumber.get('1000')).toMatchObject({ name: 'Bank', functionType: { id: 1 } });
    expect(byNumber.get('1001')).toMatchObject({ name: 'Bank 2', functionType: { id: 1 } });
    expect(byNumber.get('1002')?.name).toBe('Kasse');
    expect(byNumber.get('1020')?.name).toBe('Postfinance oder Bank1');
  });

  it('takes over a chart bank account (1020) under the new name', async () => {
    const workplace = await startedWorkplace();
    const answer = await workplace.api.post('/api/instance/init/accounts', {
      company: { uuid: workplace.companyUuid },
      accounts: [bank(1020, 'UBS Geschäftskonto')],
      currency: 'CHF',
    });
    expect(answer.status).toBe(200);
    const list = await workplace.api.post('/api/accounting/account/list', { filters: {} });
    const numbers = list.body.data.map((account: { number: string; name: string }) => `${account.number} ${account.name}`);
    expect(numbers).toContain('1000 Kasse');
    expect(numbers).toContain('1020 UBS Geschäftskonto');
  });

  it('refuses a number the chart uses for something else, naming the account, and writes nothing', async () => {
    const workplace = await startedWorkplace();
    const before = await footprint(workplace);
    const answer = await workplace.api.post('/api/instance/init/accounts', {
      company: { uuid: workplace.companyUuid },
      accounts: [bank(1020), bank(1100)],
      currency: 'CHF',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fields['accounts.1.ledgerCode']).toMatch(/^1100 is already 'Forderungen aus Lieferungen und Leistungen'/);
    expect(await footprint(workplace)).toEqual(before);
  });

  it.each([
    ['accounts.0.iban', [{ ...bank(1020), iban: 'CH9300762011623852958' }], 'The IBAN is wrongly formatted'],
    ['accounts.0.bic', [{ ...bank(1020), bic: 'POFI' }], undefined],
    ['accounts.1.ledgerCode', [bank(1020), bank(1020)], 'ledger code already used'],
  ])('refuses a bad %s and writes nothing', async (field, accounts, message) => {
    const workplace = await startedWorkplace();
    const before = await footprint(workplace);
    const answer = await workplace.api.post('/api/instance/init/accounts', { company: { uuid: workplace.companyUuid }, accounts, currency: 'CHF' });
    expect(answer.status).toBe(400);
    expect(answer.body.fields[field]).toBeTruthy();
    if (message) expect(answer.body.fields[field]).toBe(message);
    expect(await footprint(workplace)).toEqual(before);
  });

  it("does not find another instance's company, and writes nothing", async () => {
    const other = await startedWorkplace();
    const workplace = await startedWorkplace();
    const before = await footprint(workplace);
    const answer = await workplace.api.post('/api/instance/init/accounts', {
      company: { uuid: other.companyUuid },
      accounts: [bank(1020)],
      currency: 'CHF',
    });
    expect([400, 404]).toContain(answer.status);
    expect(JSON.stringify(answer.body)).toMatch(/company/i);
    expect(await footprint(workplace)).toEqual(before);
    expect((await footprint(other)).initialized).toBe(false);
  });

  it('is a conflict the second time', async () => {
    const workplace = await createWorkplace(server);
    const answer = await workplace.api.post('/api/instance/init/accounts', {
      company: { uuid: workplace.companyUuid },
      accounts: [bank(1021, 'Second')],
      currency: 'CHF',
    });
    expect(answer.status).toBe(409);
  });
});
