import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProfileType } from '@bilan/domain';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';

let server: TestServer;
let wp: Workplace;
let other: Workplace;
let viewer: Workplace;
let bankId: number;
beforeAll(async () => {
  server = await startTestServer();
  wp = await createWorkplace(server);
  other = await createWorkplace(server);
  viewer = await createWorkplace(server, { role: 'viewer', onboard: false });
  const accounts = await wp.api.post('/api/accounting/account/list', { filters: { text: '1020' } });
  bankId = accounts.body.data[0].id;
});
afterAll(async () => server?.close());

const post = (path: string, body: unknown) => wp.api.post(`/api/payment-profile${path}`, body);
const QR_IBAN = 'CH44 3199 9123 0008 8901 2';
const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

async function activeCount(w: Workplace = wp): Promise<number> {
  return (await w.api.post('/api/payment-profile/list', {})).body.total;
}

describe('POST /api/payment-profile/insert, list, by-account, archive, delete', () => {
  it('lists the onboarding profile, adds a QR-IBAN and an Ethereum profile, archives and deletes', async () => {
    const initial = await post('/list', { filters: { company: { uuid: wp.companyUuid } } });
    expect(initial.status).toBe(200);
    expect(initial.body.data).toEqual([
      expect.objectContaining({ type: PaymentProfileType.Iban, iban: 'CH9300762011623852957', account: expect.objectContaining({ number: '1020' }), logIsLog: false }),
    ]);

    const qr = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.QrBill, iban: QR_IBAN, bic: 'pofichbexxx'.toUpperCase() } });
    expect(qr.status).toBe(200);
    expect(qr.body).toMatchObject({
      company: { uuid: wp.companyUuid },
      account: { id: bankId, number: '1020' },
      type: 2,
      iban: 'CH4431999123000889012',
      bic: 'POFICHBEXXX',
      logIsLog: false,
      archivable: true,
      explorerLink: null,
    });

    const eth = await post('/insert', { data: { company: { uuid: wp.companyUuid }, account: { id: bankId }, type: PaymentProfileType.Ethereum, iban: ETH } });
    expect(eth.status).toBe(200);
    expect(eth.body).toMatchObject({ type: 3, iban: ETH, bic: null, explorerLink: `https://etherscan.io/address/${ETH}` });

    const byAccount = await post('/by-account', { account: { id: bankId } });
    expect(byAccount.body.data.map((p: { id: number }) => p.id)).toEqual([initial.body.data[0].id, qr.body.id, eth.body.id]);

    const archived = await post('/archive', { id: qr.body.id });
    expect(archived.body).toMatchObject({ id: qr.body.id, logIsLog: true, archivable: false });
    const visible = await post('/list', { filters: { company: { uuid: wp.companyUuid } } });
    expect(visible.body.data.map((p: { id: number }) => p.id)).not.toContain(qr.body.id);
    const all = await post('/list', { filters: { includeArchived: true } });
    expect(all.body.data.map((p: { id: number }) => p.id)).toContain(qr.body.id);

    expect((await post('/delete', { id: eth.body.id })).body).toEqual({ ok: true });
    expect((await post('/delete', { id: eth.body.id })).status).toBe(404);
  });

  it('gives the exact spec §5 messages and writes nothing', async () => {
    const before = await activeCount();
    const cases: [unknown, Record<string, string>][] = [
      [{ type: 1, iban: 'CH9300762011623852957' }, { 'data.account': 'Account must not be empty' }],
      [{ account: { id: bankId }, iban: 'CH9300762011623852957' }, { 'data.type': 'Type must be given' }],
      [{ account: { id: bankId }, type: 0, iban: '' }, { 'data.type': 'Type must be given' }],
      [{ account: { id: bankId }, type: 1, iban: '' }, { 'data.iban': 'IBAN must not be empty' }],
      [{ account: { id: bankId }, type: 4, iban: ' ' }, { 'data.iban': 'Public address must not be empty' }],
      [{ account: { id: bankId }, type: 1, iban: 'CH9300762011623852958' }, { 'data.iban': 'The IBAN is wrongly formatted' }],
      [{ account: { id: bankId }, type: 2, iban: 'CH9300762011623852957' }, { 'data.iban': 'The QR IBAN is invalid' }],
      [{ account: { id: bankId }, type: 1, iban: 'CH9300762011623852957', bic: 'POFI' }, { 'data.bic': 'The BIC is wrongly formatted' }],
      [{ account: { id: bankId }, type: 3, iban: ETH.replace('aA', 'Aa') }, { 'data.iban': 'The public address is invalid' }],
      [{ account: { id: bankId }, type: 4, iban: ETH }, { 'data.iban': 'The public address is invalid' }],
      [{ account: { id: bankId }, type: 10, iban: 'x' }, { 'data.type': 'type not supported' }],
    ];
    for (const [data, fields] of cases) {
      const res = await post('/insert', { data });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.fields, JSON.stringify(data)).toEqual(fields);
    }
    const unknownAccount = await post('/insert', { data: { account: { id: 99999 }, type: 1, iban: 'CH9300762011623852957' } });
    expect(unknownAccount.status).toBe(404);
    expect(unknownAccount.body.fields).toEqual({ 'data.account.id': 'ledger account 99999 not found' });
    expect(await activeCount()).toBe(before);
  });

  it('accepts Solana keys and each EVM chain with its explorer', async () => {
    const sol = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.Solana, iban: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' } });
    expect(sol.body.explorerLink).toBe('https://explorer.solana.com/address/TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    const poly = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.Polygon, iban: ETH.toLowerCase() } });
    expect(poly.body.explorerLink).toBe(`https://polygonscan.com/address/${ETH.toLowerCase()}`);
    const upper = `0x${ETH.slice(2).toUpperCase()}`;
    const arb = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.Arbitrum, iban: upper } });
    expect(arb.status, JSON.stringify(arb.body)).toBe(200);
    expect(arb.body.explorerLink).toBe(`https://arbiscan.io/address/${upper}`);
    const sepolia = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.Sepolia, iban: ETH } });
    expect(sepolia.body.explorerLink).toBe(`https://sepolia.etherscan.io/address/${ETH}`);
    // Goerli stays a type (spec §3) but the testnet and its explorers are shut down: no link.
    const goerli = await post('/insert', { data: { account: { id: bankId }, type: PaymentProfileType.Goerli, iban: ETH } });
    expect(goerli.status).toBe(200);
    expect(goerli.body.explorerLink).toBeNull();
  });

  it('401 without a token, 403 for a viewer, 404 across instances', async () => {
    const anonymous = new Client(server.baseUrl);
    expect((await anonymous.post('/api/payment-profile/list', {})).status).toBe(401);
    const data = { account: { id: bankId }, type: 1, iban: 'CH9300762011623852957' };
    expect((await viewer.api.post('/api/payment-profile/insert', { data })).status).toBe(403);
    const mine = (await post('/insert', { data })).body.id;
    expect((await other.api.post('/api/payment-profile/archive', { id: mine })).status).toBe(404);
    expect((await other.api.post('/api/payment-profile/delete', { id: mine })).status).toBe(404);
    expect((await other.api.post('/api/payment-profile/list', { filters: { company: { uuid: wp.companyUuid } } })).status).toBe(404);
    expect((await other.api.post('/api/payment-profile/insert', { data: { ...data, company: { uuid: wp.companyUuid } } })).status).toBe(404);
    expect((await post('/archive', { id: mine })).status).toBe(200);
  });
});
