/**
 * Server-side session limits (issue #3 §3; ASVS 5 V7.3.1 inactivity, V7.3.2 absolute lifetime):
 * the server, not only the web, refuses a session idle for more than 30 minutes or older than 12
 * hours, and revokes it. Time is advanced by moving the session row's timestamps back in the test
 * database (as owner), not by touching our code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer } from '../helpers.js';
import { browse, signInThroughLocalIdp, type CookieJar } from '../sso-flow.js';

const IDLE = 'Inactivity exceeded 30min; you were automatically signed out';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** The session family id (`sid`) of an access token. */
const familyOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;

async function signedIn(): Promise<{ jar: CookieJar; token: string; family: string }> {
  const workplace = await createWorkplace(server, { onboard: false });
  const login = await signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'Sam Session' });
  expect(login.status).toBe(200);
  return { jar: login.jar, token: login.body.token, family: familyOf(login.body.token) };
}

/** Moves the family's clock: `set` is an SQL SET list over auth_session, e.g. "last_active_at = now() - interval '31 minutes'". */
const age = (family: string, set: string) =>
  server.db.asOwner((tx) => tx.query(`UPDATE auth_session SET ${set} WHERE family_id = $1`, [family]));

const refresh = (jar: CookieJar, query = '') => browse(jar, `${server.baseUrl}/napi/auth/refresh${query}`);

async function liveRow(family: string) {
  const [row] = await server.db.asOwner((tx) =>
    tx.query<{ seconds_since_active: number; seconds_left: number; seconds_to_family_end: number }>(
      `SELECT extract(epoch FROM now() - last_active_at)::float8 AS seconds_since_active,
              extract(epoch FROM expires_at - now())::float8 AS seconds_left,
              extract(epoch FROM family_started_at + interval '12 hours' - now())::float8 AS seconds_to_family_end
         FROM auth_session WHERE family_id = $1 AND rotated_at IS NULL AND revoked_at IS NULL`,
      [family],
    ),
  );
  return row;
}

async function expectRevoked(family: string) {
  const rows = await server.db.asOwner((tx) => tx.query<{ revoked: boolean }>('SELECT revoked_at IS NOT NULL AS revoked FROM auth_session WHERE family_id = $1', [family]));
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((row) => row.revoked)).toBe(true);
}

describe('idle limit (30 minutes without activity)', () => {
  it('refuses and revokes a family idle for more than 30 minutes, with the spec message and reason idle', async () => {
    const { jar, token, family } = await signedIn();
    await age(family, "last_active_at = now() - interval '31 minutes'");
    const response = await refresh(jar, '?idleMs=1860000');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: IDLE, reason: 'idle' });
    await expectRevoked(family);
    // The access token of the family ends with it, and the cookie was cleared.
    expect((await new Client(server.baseUrl, token).get('/napi/profile')).status).toBe(401);
    expect(jar.get('bilan_refresh')).toBeUndefined();
    const [audit] = await server.db.asOwner((tx) =>
      tx.query<{ detail: { reason: string; family: string } | string }>(`SELECT detail FROM audit_event WHERE event = 'session.expired' ORDER BY id DESC LIMIT 1`),
    );
    const detail = typeof audit!.detail === 'string' ? JSON.parse(audit!.detail) : audit!.detail;
    expect(detail).toMatchObject({ reason: 'idle', family });
  });

  it('keeps an active family: the reported activity moves the last activity forward', async () => {
    const { jar, family } = await signedIn();
    await age(family, "last_active_at = now() - interval '25 minutes'");
    const response = await refresh(jar, '?idleMs=60000');
    expect(response.status).toBe(200);
    const row = await liveRow(family);
    expect(row!.seconds_since_active).toBeGreaterThan(55);
    expect(row!.seconds_since_active).toBeLessThan(90);
    // Then 29 minutes idle (reported as such, e.g. the 8-minute refresh of an idle tab): still in.
    await age(family, "last_active_at = now() - interval '29 minutes'");
    expect((await refresh(jar, `?idleMs=${29 * 60_000}`)).status).toBe(200);
  });

  it('does not count a refresh without an activity report as activity, and never moves activity back', async () => {
    const { jar, family } = await signedIn();
    await age(family, "last_active_at = now() - interval '20 minutes'");
    expect((await refresh(jar)).status).toBe(200);
    expect((await liveRow(family))!.seconds_since_active).toBeGreaterThan(20 * 60 - 5);
    // An older report than what the server knows changes nothing.
    expect((await refresh(jar, `?idleMs=${60 * 60_000}`)).status).toBe(200);
    expect((await liveRow(family))!.seconds_since_active).toBeLessThan(20 * 60 + 30);
    // The 8-minute refreshes of a tab left open, without activity, end the session after 30 minutes.
    await age(family, "last_active_at = last_active_at - interval '11 minutes'");
    const idle = await refresh(jar);
    expect(idle.status).toBe(401);
    expect(((await idle.json()) as { reason: string }).reason).toBe('idle');
    await expectRevoked(family);
  });

  it('refuses a refresh token that outlived its own 30 minutes, whatever activity it claims (a copy used after the browser went quiet)', async () => {
    const { jar, family } = await signedIn();
    expect((await liveRow(family))!.seconds_left).toBeGreaterThan(29 * 60);
    expect((await liveRow(family))!.seconds_left).toBeLessThanOrEqual(30 * 60);
    await age(family, "expires_at = now() - interval '1 second'");
    const response = await refresh(jar, '?idleMs=0');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { reason: string }).reason).toBe('idle');
    await expectRevoked(family);
  });

  it('refuses a bad activity report naming the field, and leaves the session as it was', async () => {
    const { jar, family } = await signedIn();
    for (const query of ['?idleMs=-1', '?idleMs=abc', '?idleMs=1.5', '?other=1']) {
      const response = await refresh(jar, query);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: string; fields: Record<string, string> };
      expect(body.error, query).toBeTruthy();
      expect(Object.keys(body.fields), query).toHaveLength(1);
    }
    expect((await refresh(jar, '?idleMs=0')).status).toBe(200);
    expect((await liveRow(family))!.seconds_since_active).toBeLessThan(10);
  });
});

describe('absolute limit (12 hours after sign-in)', () => {
  it('refuses and revokes a family older than 12 hours even when active', async () => {
    const { jar, token, family } = await signedIn();
    await age(family, "family_started_at = now() - interval '12 hours 1 minute'");
    const response = await refresh(jar, '?idleMs=0');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ reason: 'expired', error: 'Your session is older than 12 hours; please sign in again' });
    await expectRevoked(family);
    expect((await new Client(server.baseUrl, token).get('/napi/profile')).status).toBe(401);
  });

  it('keeps the family start through rotations and never issues a token beyond the 12 hours', async () => {
    const { jar, family } = await signedIn();
    await age(family, "family_started_at = now() - interval '11 hours 50 minutes'");
    const response = await refresh(jar, '?idleMs=0');
    expect(response.status).toBe(200);
    const row = await liveRow(family);
    // The rotated token carries the old start: it ends with the family (10 minutes), not 30 minutes from now.
    expect(row!.seconds_to_family_end).toBeLessThan(10 * 60 + 5);
    expect(row!.seconds_left).toBeLessThanOrEqual(row!.seconds_to_family_end + 1);
    expect(row!.seconds_left).toBeGreaterThan(9 * 60);
    // The cookie lives until the family's end, so a later refresh can still say why it is refused.
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith('bilan_refresh='))!;
    const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!).getTime();
    expect(Math.abs(expires - (Date.now() + row!.seconds_to_family_end * 1000))).toBeLessThan(5_000);
  });
});
