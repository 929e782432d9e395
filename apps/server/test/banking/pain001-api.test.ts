/** POST /api/banking/{token}: the pain.001 file over HTTP, validated against the SPS schema. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { xsdErrors } from './xsd.js';

let server: TestServer;
let owner: Workplace;
let viewer: Workplace;
beforeAll(async () => {
  server = await startTestServer();
  owner = await createWorkplace(server, { onboard: false });
  viewer = await createWorkplace(server, { onboard: false, role: 'viewer' });
});
afterAll(async () => server?.close());

const body = {
  uuid: '6f1c2b9e-3d4a-4f5b-9c8d-7e6f5a4b3c2d',
  executionDate: '2025-12-01',
  creditors: [
    { name: 'Max Muster & Söhne', iban: 'CH44 3199 9123 0008 8901 2', bic: null, reference: '21 00000 00003 13947 14300 09017', amount: '1949.75' },
    { name: 'Beispiel AG', iban: 'CH5800791123000889012', bic: '', reference: 'RF18539007547034', amount: '100' },
    { name: 'Beispiel GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', reference: null, amount: '20.50', currency: 'EUR' },
  ],
  debtor: { bic: 'UBSWCHZH80A', iban: 'CH9300762011623852957', name: 'Muster AG' },
};

describe('POST /api/banking/{token}', () => {
  it('answers the pain.001.001.09.ch.03 XML text', async () => {
    const response = await owner.api.post('/api/banking/pain001', body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/xml');
    expect(await xsdErrors(response.body)).toEqual([]);
    expect(response.body).toContain('<MsgId>6f1c2b9e3d4a4f5b9c8d7e6f5a4b3c2d</MsgId>');
    expect(response.body).toContain('<NbOfTxs>3</NbOfTxs>');
    expect(response.body).toContain('<CtrlSum>2070.25</CtrlSum>');
    expect(response.body).toContain('<Prtry>QRR</Prtry>');
    expect(response.body).toContain('<Cd>SCOR</Cd>');
    expect(response.body).toContain('<Cd>SEPA</Cd>');
    expect(response.body).toContain('<Dt>2025-12-01</Dt>');
    expect((await owner.api.post('/api/banking/pain.001.001.09', body)).status).toBe(200);
  });

  it('keeps the creditor reference of a SEPA (EUR) payment, structured as SCOR', async () => {
    const sepa = { ...body, creditors: [{ ...body.creditors[2], reference: 'RF18 5390 0754 7034', message: 'ignored beside a reference' }] };
    const response = await owner.api.post('/api/banking/pain001', sepa);
    expect(response.status).toBe(200);
    expect(await xsdErrors(response.body)).toEqual([]);
    expect(response.body).toMatch(/<RmtInf>\s*<Strd>\s*<CdtrRefInf>\s*<Tp>\s*<CdOrPrtry>\s*<Cd>SCOR<\/Cd>\s*<\/CdOrPrtry>\s*<\/Tp>\s*<Ref>RF18539007547034<\/Ref>/);
    expect(response.body).not.toContain('<Ustrd>');
  });

  it.each([
    [{ ...body, creditors: [{ ...body.creditors[0], reference: null }] }, 'creditors.0.reference'],
    [{ ...body, creditors: [body.creditors[1], { ...body.creditors[1], iban: 'CH5800791123000889013' }] }, 'creditors.1.iban'],
    [{ ...body, creditors: [{ ...body.creditors[1], amount: '1.001' }] }, 'creditors.0.amount'],
    [{ ...body, creditors: [{ ...body.creditors[1], amount: '0' }] }, 'creditors.0.amount'],
    [{ ...body, creditors: [] }, 'creditors'],
    [{ ...body, debtor: { ...body.debtor, iban: 'CH00' } }, 'debtor.iban'],
    [{ ...body, debtor: { ...body.debtor, name: ' ' } }, 'debtor.name'],
    [{ ...body, uuid: 'nope' }, 'uuid'],
    [{ ...body, extra: 1 }, 'extra'],
  ])('answers 400 naming the field (%#)', async (bad, field) => {
    const response = await owner.api.post('/api/banking/pain001', bad);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.fields)).toContain(field);
  });

  it('answers 400 for an unknown format, 401 without a token and 403 for a viewer', async () => {
    expect((await owner.api.post('/api/banking/mt940', body)).status).toBe(400);
    expect((await new Client(server.baseUrl).post('/api/banking/pain001', body)).status).toBe(401);
    expect((await viewer.api.post('/api/banking/pain001', body)).status).toBe(403);
  });
});
