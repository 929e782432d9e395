/**
 * The client's IP (issue 11 §5): the public sign-in start is limited per IP *and* workplace, so
 * strangers cannot lock the owner out; X-Forwarded-For is believed only from BILAN_TRUSTED_PROXIES,
 * so a client cannot pick its own IP past the per-IP limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Client, createWorkplace, startTestServer, type TestServer } from '../helpers.js';

/** Documentation addresses (RFC 5737): injected as peers or forwarded-for values, never contacted. */
const STRANGER = '203.0.113.7';
const OWNER = '198.51.100.20';

/** `count` sign-in starts for the workplace in turn, each with its own forged X-Forwarded-For; answers the statuses. */
async function starts(server: TestServer, instance: string, count: number): Promise<number[]> {
  const client = new Client(server.baseUrl);
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await client.request('GET', `/napi/auth/google/url?instance=${instance}`, undefined, { 'x-forwarded-for': `192.0.2.${i + 1}` });
    out.push(response.status);
  }
  return out;
}

describe('without trusted proxies (the default), in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Production: the X-Forwarded-For of anyone used to be believed there.
    server = await startTestServer({ NODE_ENV: 'production', BILAN_LOCAL_IDP: '1' });
  });
  afterAll(async () => server?.close());

  it('limits the sign-in start per IP and workplace: a stranger hammering it does not lock the owner out', async () => {
    const { instanceId } = await createWorkplace(server, { onboard: false });
    const start = (remoteAddress: string) => server.app.inject({ method: 'GET', url: `/napi/auth/google/url?instance=${instanceId}`, remoteAddress });
    const stranger: number[] = [];
    for (let i = 0; i < 25; i += 1) stranger.push((await start(STRANGER)).statusCode);
    expect(stranger.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(stranger.slice(20)).toEqual([429, 429, 429, 429, 429]);
    expect((await start(OWNER)).statusCode).toBe(200);
  });

  it('ignores a forged X-Forwarded-For: 25 calls with 25 forged addresses are still one client', async () => {
    const { instanceId } = await createWorkplace(server, { onboard: false });
    const statuses = await starts(server, instanceId, 25);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429]);
  });
});

describe('behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ BILAN_TRUSTED_PROXIES: '127.0.0.1, ::1/128' });
  });
  afterAll(async () => server?.close());

  it('takes the client IP from the proxy’s X-Forwarded-For', async () => {
    const { instanceId } = await createWorkplace(server, { onboard: false });
    // 25 different clients behind the proxy: none reaches the per-client limit of 20.
    const statuses = await starts(server, instanceId, 25);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // From a peer that is not the proxy, the header is ignored again.
    const forged = (i: number) =>
      server.app.inject({ method: 'GET', url: `/napi/auth/google/url?instance=${instanceId}`, remoteAddress: STRANGER, headers: { 'x-forwarded-for': `192.0.2.${i}` } });
    const direct: number[] = [];
    for (let i = 0; i < 21; i += 1) direct.push((await forged(i)).statusCode);
    expect(direct[20]).toBe(429);
  });
});

describe('BILAN_TRUSTED_PROXIES', () => {
  it('takes IPs and CIDRs, defaults to none, and refuses anything else at start-up', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ BILAN_TRUSTED_PROXIES: ' 10.0.0.1,192.168.0.0/16, ::1 ' }).trustedProxies).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
    for (const bad of ['*', 'proxy.example.ch', '10.0.0.0/33', '10.0.0.1/8/8', 'true']) {
      expect(() => loadConfig({ BILAN_TRUSTED_PROXIES: bad })).toThrow(/BILAN_TRUSTED_PROXIES/);
    }
  });
});
