/**
 * Two-factor authentication (issue #3 §1; spec §4, §7.2, §8, §9). Codes come from Debian's
 * `oathtool` — an implementation independent of the `otpauth` library the server uses.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { browse, signInThroughLocalIdp } from '../sso-flow.js';

const BLOCKED =
  'Due to multiple login attempts, your account has been temporarily blocked for security reasons. Please contact our support team for assistance in restoring access. Thank you for your cooperation.';

/** The TOTP code of `secret` (base32) at `offsetSteps` 30-second steps from now, by oathtool. */
function oathtool(secret: string, offsetSteps = 0): string {
  const at = Math.floor(Date.now() / 1000) + offsetSteps * 30;
  return execFileSync('oathtool', ['--totp', '-b', '-N', `@${at}`, secret], { encoding: 'utf8' }).trim();
}

const secretOf = (url: string) => new URL(url).searchParams.get('secret')!;

/**
 * Waits until the clock is at least 2 s into a 30-second step and 8 s before its end, so codes
 * computed now and checked by the server a moment later belong to the same step.
 */
async function awayFromStepEdge(): Promise<void> {
  const into = Date.now() % 30_000;
  if (into < 2_000) await new Promise((resolve) => setTimeout(resolve, 2_000 - into));
  else if (into > 22_000) await new Promise((resolve) => setTimeout(resolve, 32_000 - into));
}

let server: TestServer;
let anonymous: Client;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
});
afterAll(async () => server?.close());

/** A workplace whose owner has 2FA set; answers the secret. */
async function withTwoFactor(workplace: Workplace): Promise<string> {
  const { body } = await workplace.api.get('/napi/profile/2fa/url');
  const secret = secretOf(body.url);
  const set = await workplace.api.post('/napi/profile/2fa/set', { secretUrl: body.url, code: oathtool(secret) });
  expect(set.status).toBe(200);
  return secret;
}

// The last step the server accepted is that of `oathtool(secret)` above; wait for the next step
// would be slow, so sign-ins in these tests use the code of the next step (allowed: ±1 step).
const signIn = (workplace: Workplace) =>
  signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'Test User' });

describe('profile two-factor settings', () => {
  let workplace: Workplace;
  /** The code that set 2FA: the unset test shows it is not accepted a second time. */
  let setCode: string;

  beforeAll(async () => {
    workplace = await createWorkplace(server);
  });

  it('starts unset, proposes an otpauth URL (SHA-1, 6 digits, 30 s) and sets it after a valid code', async () => {
    expect((await workplace.api.get('/napi/profile/2fa')).body).toEqual({ status: false });
    const proposed = await workplace.api.get('/napi/profile/2fa/url');
    expect(proposed.status).toBe(200);
    const url = new URL(proposed.body.url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(url.searchParams.get('issuer')).toBe('Bilan');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(secretOf(proposed.body.url)).toMatch(/^[A-Z2-7]{32}$/);

    const wrong = await workplace.api.post('/napi/profile/2fa/set', { secretUrl: proposed.body.url, code: '000000' === oathtool(secretOf(proposed.body.url)) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.code).toBeTruthy();
    expect(wrong.body.code).toBe('two_factor_code_invalid');

    // A secret the server did not propose is refused, even with its valid code.
    const forged = 'otpauth://totp/Bilan:x?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Bilan';
    const own = await workplace.api.post('/napi/profile/2fa/set', { secretUrl: forged, code: oathtool('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP') });
    expect(own.status).toBe(400);
    expect(own.body.fields.secretUrl).toBeTruthy();
    expect(own.body.code).toBe('totp_secret_unknown');

    // Early in a step: the unset test below replays this code within the server's ±1 step.
    await awayFromStepEdge();
    setCode = oathtool(secretOf(proposed.body.url));
    const set = await workplace.api.post('/napi/profile/2fa/set', { secretUrl: proposed.body.url, code: setCode });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ verified: true });
    expect((await workplace.api.get('/napi/profile/2fa')).body).toEqual({ status: true });
    const again = await workplace.api.get('/napi/profile/2fa/url');
    expect([again.status, again.body.code]).toEqual([409, 'two_factor_set']);
  });

  it('refuses non-numeric and short codes naming the field, and unknown keys', async () => {
    for (const code of ['abcdef', '12345', '1234567', '', ' 12 34 ']) {
      const response = await workplace.api.post('/napi/profile/2fa/unset', { code });
      expect(response.status, code).toBe(400);
      expect(response.body.fields.code, code).toBeTruthy();
    }
    const extra = await workplace.api.post('/napi/profile/2fa/unset', { code: '123456', admin: true });
    expect(extra.status).toBe(400);
    expect((await workplace.api.get('/napi/profile/2fa')).body).toEqual({ status: true });
  });

  it('unsets only with a valid, unused code', async () => {
    const secret = await server.db.withAuth(async (tx) => (await tx.query<{ secret: string }>('SELECT secret FROM user_totp WHERE user_id = $1', [workplace.userId]))[0]!.secret);
    // The code that set 2FA was used already: not accepted a second time. (Computed again here, a
    // step boundary passed since would have made it the next step's code, unused: CI 2026-11-29.)
    const reused = await workplace.api.post('/napi/profile/2fa/unset', { code: setCode });
    expect(reused.status).toBe(400);
    const unset = await workplace.api.post('/napi/profile/2fa/unset', { code: oathtool(secret, 1) });
    expect(unset.status).toBe(200);
    expect((await workplace.api.get('/napi/profile/2fa')).body).toEqual({ status: false });
    const notSet = await workplace.api.post('/napi/profile/2fa/unset', { code: oathtool(secret, 1) });
    expect([notSet.status, notSet.body.code]).toEqual([409, 'two_factor_not_set']);
  });
});

describe('disabling two-factor with wrong codes', () => {
  it('counts wrong codes toward the 5-attempt block, audits them, and blocks the account after more than 5', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const secret = await withTwoFactor(workplace);
    const valid = new Set([-1, 0, 1].map((offset) => oathtool(secret, offset)));
    const wrong = ['123456', '654321', '111111'].find((code) => !valid.has(code))!;
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await workplace.api.post('/napi/profile/2fa/unset', { code: wrong });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'Invalid two-factor code.', attempt, maxAttempts: 5, fields: { code: expect.any(String) } });
    }
    const blocked = await workplace.api.post('/napi/profile/2fa/unset', { code: wrong });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ error: BLOCKED, blocked: true, code: 'account_blocked' });
    // Blocked: the session is over and 2FA is still set.
    expect((await workplace.api.get('/napi/profile/2fa')).status).toBe(401);
    const [user] = await server.db.asOwner((tx) =>
      tx.query<{ blocked: boolean; totp: boolean }>(
        'SELECT blocked_at IS NOT NULL AS blocked, EXISTS (SELECT 1 FROM user_totp WHERE user_id = $1) AS totp FROM app_user WHERE id = $1',
        [workplace.userId],
      ),
    );
    expect(user).toEqual({ blocked: true, totp: true });
    const events = await server.db.asOwner((tx) =>
      tx.query<{ event: string; instance_id: string; detail: unknown }>(
        `SELECT event, instance_id, detail FROM audit_event WHERE user_id = $1 AND event LIKE 'twofactor.%' ORDER BY id`,
        [workplace.userId],
      ),
    );
    expect(events.map((e) => e.event)).toEqual(['twofactor.enabled', ...Array(5).fill('twofactor.failure'), 'twofactor.blocked']);
    expect(events.slice(1).every((e) => e.instance_id === workplace.instanceId && JSON.stringify(e.detail).includes('"method":"unset"'))).toBe(true);
  });

  it('resets the count after a valid code', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const secret = await withTwoFactor(workplace);
    const valid = new Set([-1, 0, 1].map((offset) => oathtool(secret, offset)));
    const wrong = ['123456', '654321', '111111'].find((code) => !valid.has(code))!;
    expect((await workplace.api.post('/napi/profile/2fa/unset', { code: wrong })).body.attempt).toBe(1);
    expect((await workplace.api.post('/napi/profile/2fa/unset', { code: oathtool(secret, 1) })).status).toBe(200);
    const [user] = await server.db.asOwner((tx) => tx.query<{ failed_second_factor: number }>('SELECT failed_second_factor FROM app_user WHERE id = $1', [workplace.userId]));
    expect(user!.failed_second_factor).toBe(0);
  });
});

describe('sign-in with two-factor', () => {
  it('answers action 2FA with a payload and no session, then signs in with the code', async () => {
    const workplace = await createWorkplace(server);
    const secret = await withTwoFactor(workplace);
    const first = await signIn(workplace);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ action: '2FA', payload: expect.any(String) });
    expect(first.jar.get('bilan_refresh')).toBeUndefined();

    // One code for the whole test: computed again after a 30 s step boundary it would be a new,
    // unused code, and the reuse below would pass.
    const code = oathtool(secret, 1);
    const response = await browse(first.jar, `${server.baseUrl}/napi/auth/2fa`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, payload: first.body.payload }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; instance: { uuid: string } };
    expect(body.instance.uuid).toBe(workplace.instanceId);
    expect(first.jar.get('bilan_refresh')).toBeTruthy();
    expect((await new Client(server.baseUrl, body.token).get('/napi/profile')).status).toBe(200);

    // The payload is single-use, and so is the code.
    const again = await anonymous.post('/napi/auth/2fa', { code, payload: first.body.payload });
    expect([again.status, again.body.code]).toEqual([401, 'second_factor_expired']);
    const second = await signIn(workplace);
    const reused = await anonymous.post('/napi/auth/2fa', { code, payload: second.body.payload });
    expect(reused.status).toBe(400);
    expect(reused.body.attempt).toBe(1);
  });

  it('accepts one step of drift either way but not two (fresh secret, each code used once)', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const { body } = await workplace.api.get('/napi/profile/2fa/url');
    const secret = secretOf(body.url);
    const set = (code: string) => workplace.api.post('/napi/profile/2fa/set', { secretUrl: body.url, code });
    // All codes of one check come from the same 30-second step (see awayFromStepEdge).
    await awayFromStepEdge();
    const [minus2, minus1, plus1, plus2] = [-2, -1, 1, 2].map((offset) => oathtool(secret, offset));
    const valid = new Set([minus1, oathtool(secret, 0), plus1]);
    // Two steps off: refused (unless, one time in a million, the code equals a valid one).
    if (!valid.has(minus2)) expect((await set(minus2!)).status).toBe(400);
    if (!valid.has(plus2)) expect((await set(plus2!)).status).toBe(400);
    // One step behind: accepted, and it sets 2FA.
    expect((await set(minus1!)).status).toBe(200);

    // Sign-in: two steps ahead refused, one step ahead accepted.
    const login = await signIn(workplace);
    expect(login.body.action).toBe('2FA');
    await awayFromStepEdge();
    const ahead2 = oathtool(secret, 2);
    const ahead1 = oathtool(secret, 1);
    if (ahead2 !== ahead1 && ahead2 !== oathtool(secret, 0)) {
      const refused = await anonymous.post('/napi/auth/2fa', { code: ahead2, payload: login.body.payload });
      expect(refused.status).toBe(400);
      expect(refused.body.attempt).toBe(1);
    }
    const behind2 = oathtool(secret, -2);
    if (behind2 !== ahead1 && behind2 !== oathtool(secret, 0)) expect((await anonymous.post('/napi/auth/2fa', { code: behind2, payload: login.body.payload })).status).toBe(400);
    expect((await anonymous.post('/napi/auth/2fa', { code: ahead1, payload: login.body.payload })).status).toBe(200);
  });

  it('counts wrong codes (Attempt n/5), blocks after more than 5 with the exact message, until support unblocks', async () => {
    const workplace = await createWorkplace(server);
    const secret = await withTwoFactor(workplace);
    const login = await signIn(workplace);
    const wrong = oathtool(secret, 1) === '123456' ? '654321' : '123456';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await anonymous.post('/napi/auth/2fa', { code: wrong, payload: login.body.payload });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'Invalid two-factor code.', attempt, maxAttempts: 5, fields: { code: expect.any(String) } });
    }
    const blocked = await anonymous.post('/napi/auth/2fa', { code: wrong, payload: login.body.payload });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toBe(BLOCKED);
    expect(blocked.body.blocked).toBe(true);

    // Blocked means blocked: the right code, a new provider sign-in and the old session all fail.
    const right = await anonymous.post('/napi/auth/2fa', { code: oathtool(secret, 1), payload: login.body.payload });
    expect(right.status).not.toBe(200);
    const again = await signIn(workplace);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe(BLOCKED);
    expect((await workplace.api.get('/napi/profile')).status).toBe(401);

    // Only a superadmin unblocks.
    const support = await createWorkplace(server);
    expect((await support.api.post('/napi/admin/user/unblock', { uuid: workplace.userId })).status).toBe(403);
    await server.db.asOwner((tx) => tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1', [support.userId]));
    expect((await support.api.post('/napi/admin/user/unblock', { uuid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await support.api.post('/napi/admin/user/unblock', { uuid: workplace.userId })).status).toBe(200);

    const after = await signIn(workplace);
    expect(after.body.action).toBe('2FA');
    const ok = await anonymous.post('/napi/auth/2fa', { code: oathtool(secret, 1), payload: after.body.payload });
    expect(ok.status).toBe(200);
  });

  it('counts each attempt before checking its code: of 10 parallel wrong codes at most 5 are checked (issue 11 §5)', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const secret = await withTwoFactor(workplace);
    const login = await signIn(workplace);
    const valid = new Set([-1, 0, 1, 2].map((offset) => oathtool(secret, offset)));
    const wrong = ['123456', '654321', '111111'].find((code) => !valid.has(code))!;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => anonymous.post('/napi/auth/2fa', { code: wrong, payload: login.body.payload })),
    );
    expect(responses.filter((r) => r.status >= 500)).toEqual([]);
    const checked = responses.filter((r) => r.status === 400);
    expect(checked.map((r) => r.body.attempt).sort()).toEqual([1, 2, 3, 4, 5]);
    // The rest are refused: blocked (403), or 401 once the block has ended the pending sign-in.
    const refused = responses.filter((r) => r.status !== 400);
    expect(refused.every((r) => (r.status === 403 && r.body.blocked === true) || r.status === 401)).toBe(true);
    expect(refused.some((r) => r.status === 403)).toBe(true);
    // Every checked code is audited as a failure; the one attempt past the maximum blocks unchecked.
    const events = await server.db.asOwner((tx) =>
      tx.query<{ event: string }>(`SELECT event FROM audit_event WHERE user_id = $1 AND event LIKE 'twofactor.%' ORDER BY id`, [workplace.userId]),
    );
    expect(events.map((e) => e.event)).toEqual(['twofactor.enabled', ...Array(5).fill('twofactor.failure'), 'twofactor.blocked']);
    const [user] = await server.db.asOwner((tx) =>
      tx.query<{ blocked: boolean }>('SELECT blocked_at IS NOT NULL AS blocked FROM app_user WHERE id = $1', [workplace.userId]),
    );
    expect(user!.blocked).toBe(true);
  });

  it('refuses bad bodies naming the field, unknown payloads with 401', async () => {
    const bad = await anonymous.post('/napi/auth/2fa', { code: 'abc', payload: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.code).toBeTruthy();
    expect((await anonymous.post('/napi/auth/2fa', { payload: 'x' })).body.fields.code).toBeTruthy();
    expect((await anonymous.post('/napi/auth/2fa', { code: '123456' })).body.fields.payload).toBeTruthy();
    expect((await anonymous.post('/napi/auth/2fa', { code: '123456', payload: 'unknown' })).status).toBe(401);
  });

  it('records enabling, failures, blocking and unblocking in the audit trail', async () => {
    const events = (await server.db.withAuth((tx) => tx.query<{ event: string }>('SELECT DISTINCT event FROM audit_event'))).map((r) => r.event);
    for (const event of ['twofactor.enabled', 'twofactor.disabled', 'twofactor.failure', 'twofactor.blocked', 'account.unblocked', 'signin.second_factor_required']) {
      expect(events, event).toContain(event);
    }
  });
});
