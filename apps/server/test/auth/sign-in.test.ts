import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestServer, type TestServer } from '../helpers.js';
import { browse, CookieJar, signInThroughLocalIdp } from '../sso-flow.js';
import { encodeState } from '../../src/modules/auth/sso.service.js';

let server: TestServer;
let anonymous: Client;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
});
afterAll(async () => server?.close());

const onboard = async (api: Client) => {
  const init = await api.post('/api/instance/init', {
    company: { name: 'Muster AG' },
    address: { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } },
    extra: { vat: '8.1', currency: 'CHF' },
  });
  expect(init.status).toBe(200);
  const accounts = await api.post('/api/instance/init/accounts', {
    company: { uuid: init.body.company.uuid },
    accounts: [{ ledgerCode: 1000, name: 'Bank', iban: 'CH93 0076 2011 6238 5295 7', bic: 'POFICHBEXXX', type: 1 }],
    currency: 'CHF',
  });
  expect(accounts.status).toBe(200);
};

describe('sign-up through the built-in OpenID provider', () => {
  const name = 'Muster AG Sign-up';
  let token: string;
  let jar: CookieJar;
  let instanceUuid: string;

  it('finds the name free, signs up, and makes the user the owner', async () => {
    expect((await anonymous.post('/napi/instance/exists', { name })).status).toBe(404);
    const result = await signInThroughLocalIdp(server.baseUrl, { instance: name, isSignup: true, email: 'Anna.Muster@Example.CH', name: 'Anna Muster' });
    expect(result.status).toBe(200);
    expect(result.body.instance.name).toBe(name);
    expect(result.body.user.email).toBe('anna.muster@example.ch');
    token = result.body.token;
    jar = result.jar;
    instanceUuid = result.body.instance.uuid;
    expect(jar.get('bilan_refresh')).toBeTruthy();
    const exists = await anonymous.post('/napi/instance/exists', { name: name.toUpperCase() });
    expect(exists.status).toBe(200);
    expect(exists.body).toEqual({ uuid: instanceUuid, name });
  });

  it('answers 409 on the profile until onboarding is done, then the owner profile', async () => {
    const api = new Client(server.baseUrl, token);
    const before = await api.get('/napi/profile');
    expect(before.status).toBe(409);
    expect(before.body.onboarding).toBe(true);
    await onboard(api);
    const after = await api.get('/napi/profile');
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      email: 'anna.muster@example.ch',
      firstName: 'Anna',
      lastName: 'Muster',
      role: 'owner',
      permissions: ['read', 'write', 'admin'],
      instance: { uuid: instanceUuid, name, currency: 'CHF', initialized: true },
    });
    expect((await api.get('/api/profile')).body).toEqual(after.body);
  });

  it('refuses a second sign-up with the same name, whatever its case', async () => {
    const response = await anonymous.get(`/napi/auth/google/url?instance=${encodeURIComponent(name.toLowerCase())}&isSignup=true`);
    expect(response.status).toBe(409);
    expect(response.body.error).toBe('Instance name already taken');
  });

  it('rotates the refresh token and revokes the family when a rotated token is replayed', async () => {
    const oldRefresh = jar.get('bilan_refresh')!;
    const first = await browse(jar, `${server.baseUrl}/napi/auth/refresh`);
    expect(first.status).toBe(200);
    const newRefresh = jar.get('bilan_refresh')!;
    expect(newRefresh).not.toBe(oldRefresh);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(first.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const { token: fresh } = (await first.json()) as { token: string };
    expect((await new Client(server.baseUrl, fresh).get('/napi/profile')).status).toBe(200);

    const thief = new CookieJar();
    thief.set('bilan_refresh', oldRefresh);
    expect((await browse(thief, `${server.baseUrl}/napi/auth/refresh`)).status).toBe(401);
    // The replay revoked the whole family: the legitimate, newer token is dead too.
    expect((await browse(jar, `${server.baseUrl}/napi/auth/refresh`)).status).toBe(401);
  });

  it('signs in again to the existing workplace and logs out', async () => {
    const login = await signInThroughLocalIdp(server.baseUrl, {
      provider: 'microsoft',
      instance: instanceUuid,
      email: 'anna.muster@example.ch',
      name: 'Anna Muster',
    });
    expect(login.status).toBe(200);
    expect(login.body.instance.uuid).toBe(instanceUuid);
    const logout = await browse(login.jar, `${server.baseUrl}/napi/auth/logout`);
    expect(logout.status).toBe(200);
    const stolen = new CookieJar();
    // The cookie was cleared in the jar; a copy kept elsewhere no longer works either.
    expect(login.jar.get('bilan_refresh')).toBeUndefined();
    expect((await browse(stolen, `${server.baseUrl}/napi/auth/refresh`)).status).toBe(401);
  });

  it('refuses a user who is not a member with "Could not log you in"', async () => {
    const login = await signInThroughLocalIdp(server.baseUrl, { instance: instanceUuid, email: 'mallory@example.ch', name: 'Mallory' });
    expect(login.status).toBe(403);
    expect(login.body.error).toBe('Could not log you in');
  });
});

describe('audit trail', () => {
  it('records sign-up, sign-in, refused sign-in, refresh-token replay and logout with IP and user agent', async () => {
    const rows = await server.db.withAuth((tx) =>
      tx.query<{ event: string; ip: string | null; user_agent: string | null }>('SELECT event, ip, user_agent FROM audit_event ORDER BY id'),
    );
    const events = rows.map((row) => row.event);
    for (const event of ['signup', 'signin.success', 'signin.failure', 'refresh.reuse_detected', 'logout']) {
      expect(events, event).toContain(event);
    }
    expect(rows.every((row) => row.ip)).toBe(true);
  });
});

describe('single sign-on return validation (spec §5)', () => {
  it('refuses an unknown provider', async () => {
    const response = await anonymous.get('/napi/auth/facebook/redirect?code=x&state=y');
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('SSO provider not recognized');
    expect((await anonymous.get('/napi/auth/facebook/url?instance=x')).body.error).toBe('SSO provider not recognized');
  });

  it('asks for code and state', async () => {
    for (const query of ['', '?code=abc', '?state=abc']) {
      const response = await anonymous.get(`/napi/auth/google/redirect${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('Code expected');
    }
  });

  it('refuses a state without an instance', async () => {
    const state = Buffer.from(JSON.stringify({ id: 'x' })).toString('base64url');
    for (const bad of [state, 'not-base64-json']) {
      const response = await anonymous.get(`/napi/auth/google/redirect?code=abc&state=${bad}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('instance wrong');
    }
  });

  it('refuses a callback from another browser (no binding cookie) with "Could not log you in"', async () => {
    const state = encodeState('00000000-0000-0000-0000-000000000000', 'Whatever');
    const response = await anonymous.get(`/napi/auth/google/redirect?code=abc&state=${state}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Could not log you in' });
  });

  it('does not accept the same callback twice', async () => {
    const result = await signInThroughLocalIdp(server.baseUrl, { instance: 'Replay GmbH', isSignup: true, email: 'r@example.ch', name: 'R Eplay' });
    expect(result.status).toBe(200);
    result.jar.set('bilan_sso', JSON.parse(Buffer.from(result.callbackUrl.searchParams.get('state')!, 'base64url').toString()).id);
    const again = await browse(result.jar, `${server.baseUrl}/napi/auth/google/redirect${result.callbackUrl.search}`);
    expect(again.status).toBe(401);
  });
});

describe('protected routes', () => {
  it('answer 401 without a token and with a forged one', async () => {
    expect((await anonymous.get('/napi/profile')).status).toBe(401);
    expect((await new Client(server.baseUrl, 'eyJhbGciOiJIUzI1NiJ9.e30.x').get('/api/profile')).status).toBe(401);
  });

  it('every non-public /api and /napi route answers 401 without a token', async () => {
    const routes = server.app.guardedRoutes.filter((route) => route.access !== 'public');
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const path = route.url.replace(/:([a-zA-Z]+)/g, '1');
      const response = await anonymous.request(route.method, path, route.method === 'GET' ? undefined : {});
      expect(response.status, `${route.method} ${route.url}`).toBe(401);
    }
  });
});
