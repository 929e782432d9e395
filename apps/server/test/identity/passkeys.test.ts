/**
 * Passkeys (issue #3 §2; spec §4, §5, §7.2, §8, §9) with a software authenticator.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const BLOCKED =
  'Due to multiple login attempts, your account has been temporarily blocked for security reasons. Please contact our support team for assistance in restoring access. Thank you for your cooperation.';

let server: TestServer;
let anonymous: Client;
let rpId: string;
let origin: string;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
  origin = new URL(server.baseUrl).origin;
  rpId = new URL(server.baseUrl).hostname;
});
afterAll(async () => server?.close());

async function register(workplace: Workplace, authenticator = new SoftAuthenticator(rpId, origin)) {
  const start = await workplace.api.get('/napi/profile/webauthn/register');
  expect(start.status).toBe(200);
  const done = await workplace.api.post('/napi/profile/webauthn/register', { jwt: start.body.jwt, ...authenticator.register(start.body.challenge) });
  expect(done.status).toBe(200);
  expect(done.body).toEqual({ isValidSignature: true });
  return authenticator;
}

async function prelogin(workplace: Workplace) {
  const response = await anonymous.post('/napi/auth/webauthn/prelogin', { uuid: workplace.userId, instance: workplace.instanceId });
  expect(response.status).toBe(200);
  return response.body as { challenge: string; authenticators: { credentialId: string; jwt: string }[] };
}

describe('passkey registration', () => {
  it('offers ES256 and RS256, user verification preferred, any attachment, 60 s, and stores a verified passkey', async () => {
    const workplace = await createWorkplace(server);
    const start = await workplace.api.get('/napi/profile/webauthn/register');
    expect(start.body.rp).toEqual({ id: rpId, name: 'Bilan' });
    expect(start.body.options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-7, -257]);
    expect(start.body.options.timeout).toBe(60000);
    expect(start.body.options.authenticatorSelection.userVerification).toBe('preferred');
    expect(start.body.options.authenticatorSelection.authenticatorAttachment).toBeUndefined();
    const authenticator = new SoftAuthenticator(rpId, origin);
    const body = { jwt: start.body.jwt, ...authenticator.register(start.body.challenge) };
    expect((await workplace.api.post('/napi/profile/webauthn/register', body)).body).toEqual({ isValidSignature: true });
    // The challenge is single-use.
    expect((await workplace.api.post('/napi/profile/webauthn/register', body)).status).toBe(400);
    expect((await workplace.api.get('/napi/profile/webauthn/list')).body.data).toHaveLength(1);
  });

  it('refuses a wrong challenge, another origin, another user\'s ceremony and bad bodies', async () => {
    const workplace = await createWorkplace(server);
    const other = await createWorkplace(server);
    const authenticator = new SoftAuthenticator(rpId, origin);
    const start = await workplace.api.get('/napi/profile/webauthn/register');
    const wrongChallenge = await workplace.api.post('/napi/profile/webauthn/register', { jwt: start.body.jwt, ...authenticator.register('AAAA') });
    expect(wrongChallenge.status).toBe(400);
    const start2 = await workplace.api.get('/napi/profile/webauthn/register');
    const evil = await workplace.api.post('/napi/profile/webauthn/register', { jwt: start2.body.jwt, ...authenticator.register(start2.body.challenge, { origin: 'https://evil.example' }) });
    expect(evil.status).toBe(400);
    const start3 = await workplace.api.get('/napi/profile/webauthn/register');
    expect((await other.api.post('/napi/profile/webauthn/register', { jwt: start3.body.jwt, ...authenticator.register(start3.body.challenge) })).status).toBe(400);
    const bad = await workplace.api.post('/napi/profile/webauthn/register', { jwt: 'x', credentialId: 'not base64url!', attestationObject: 'A', clientDataJSON: 'A' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.credentialId).toBe('expected base64url');
    expect((await workplace.api.get('/napi/profile/webauthn/list')).body.data).toHaveLength(0);
  });
});

describe('passkey sign-in', () => {
  it('signs in with user verification, checks the counter and uses each challenge once', async () => {
    const workplace = await createWorkplace(server);
    const authenticator = await register(workplace);
    const pre = await prelogin(workplace);
    expect(pre.authenticators).toEqual([{ credentialId: authenticator.id, jwt: expect.any(String) }]);
    const assertion = authenticator.assert(pre.challenge);
    const login = await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...assertion });
    expect(login.status).toBe(200);
    expect(login.body.instance.uuid).toBe(workplace.instanceId);
    expect(login.headers.get('set-cookie')).toMatch(/bilan_refresh=.*HttpOnly.*SameSite=Strict/i);
    expect((await new Client(server.baseUrl, login.body.token).get('/napi/profile')).status).toBe(200);
    // Replaying the same assertion: the challenge is used.
    expect((await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...assertion })).status).toBe(401);

    // A counter that does not move forward (a cloned authenticator) is refused.
    const again = await prelogin(workplace);
    const cloned = await anonymous.post('/napi/auth/webauthn/login', { jwt: again.authenticators[0]!.jwt, ...authenticator.assert(again.challenge, { counter: 1 }) });
    expect(cloned.status).toBe(401);
    expect(cloned.body.error).toBe('could not match credentials');

    // User verification is required.
    const third = await prelogin(workplace);
    const noUv = await anonymous.post('/napi/auth/webauthn/login', { jwt: third.authenticators[0]!.jwt, ...authenticator.assert(third.challenge, { userVerified: false }) });
    expect(noUv.status).toBe(401);
  });

  it('lets only one of several assertions with the same counter sign in (atomic counter update)', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const authenticator = await register(workplace);
    // A cloned authenticator: each copy signs a fresh challenge with the same next count. Every one
    // verifies against the stored count 0 at the same moment; the conditional update lets one win.
    const copies = 8;
    const challenges = [];
    for (let i = 0; i < copies; i += 1) challenges.push(await prelogin(workplace));
    const assertions = challenges.map((pre) => ({ jwt: pre.authenticators[0]!.jwt, ...authenticator.assert(pre.challenge, { counter: 5 }) }));
    const answers = await Promise.all(assertions.map((body) => anonymous.post('/napi/auth/webauthn/login', body)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(copies - 1);
    for (const answer of answers.filter((a) => a.status === 401)) expect(answer.body.error).toBe('could not match credentials');
    const [stored] = await server.db.asOwner((tx) => tx.query<{ counter: string }>('SELECT counter FROM webauthn_credential WHERE id = $1', [authenticator.id]));
    expect(stored!.counter).toBe('5');
    // A stale count later (4 < 5) is refused as well.
    const stale = await prelogin(workplace);
    expect((await anonymous.post('/napi/auth/webauthn/login', { jwt: stale.authenticators[0]!.jwt, ...authenticator.assert(stale.challenge, { counter: 4 }) })).status).toBe(401);
  });

  it('refuses a blocked account with the spec message and records the attempt', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const authenticator = await register(workplace);
    await server.db.asOwner((tx) => tx.query('UPDATE app_user SET blocked_at = now() WHERE id = $1', [workplace.userId]));
    const pre = await prelogin(workplace);
    const response = await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...authenticator.assert(pre.challenge) });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ error: BLOCKED, blocked: true });
    expect(response.headers.get('set-cookie')).toBeNull();
    const [row] = await server.db.asOwner((tx) =>
      tx.query<{ instance_id: string; detail: unknown; ip: string }>(
        `SELECT instance_id, detail, ip FROM audit_event WHERE event = 'passkey.failure' AND user_id = $1 ORDER BY id DESC LIMIT 1`,
        [workplace.userId],
      ),
    );
    expect(row).toMatchObject({ instance_id: workplace.instanceId, ip: '127.0.0.1' });
    expect(JSON.stringify(row!.detail)).toContain('account blocked');
  });

  it('refuses expired challenges (60 s ceremony) at login and at registration', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const authenticator = await register(workplace);
    const pre = await prelogin(workplace);
    const expire = () =>
      server.db.asOwner((tx) =>
        tx.query(`UPDATE webauthn_challenge SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND consumed_at IS NULL`, [workplace.userId]),
      );
    const [challenge] = await server.db.asOwner((tx) =>
      tx.query<{ seconds: number }>(
        `SELECT extract(epoch FROM expires_at - created_at)::float8 AS seconds FROM webauthn_challenge
          WHERE user_id = $1 AND purpose = 'login' AND consumed_at IS NULL`,
        [workplace.userId],
      ),
    );
    // The ceremony's 60 s plus some network slack, not more (whole seconds: expires_at comes from
    // the server's clock, created_at from the database's, a millisecond apart).
    expect(Math.round(challenge!.seconds)).toBeGreaterThanOrEqual(60);
    expect(Math.round(challenge!.seconds)).toBeLessThanOrEqual(90);
    await expire();
    const late = await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...authenticator.assert(pre.challenge) });
    expect(late.status).toBe(401);
    expect(late.body.error).toBe('The passkey sign-in expired; please try again');

    const start = await workplace.api.get('/napi/profile/webauthn/register');
    await expire();
    const other = new SoftAuthenticator(rpId, origin);
    const lateRegistration = await workplace.api.post('/napi/profile/webauthn/register', { jwt: start.body.jwt, ...other.register(start.body.challenge) });
    expect(lateRegistration.status).toBe(400);
    expect(lateRegistration.body.fields.jwt).toBeTruthy();
    expect((await workplace.api.get('/napi/profile/webauthn/list')).body.data).toHaveLength(1);
  });

  it('refuses an unknown credential with "could not match credentials" and bad uuids with "Invalid UUID format"', async () => {
    const workplace = await createWorkplace(server);
    await register(workplace);
    const pre = await prelogin(workplace);
    const stranger = new SoftAuthenticator(rpId, origin);
    const response = await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...stranger.assert(pre.challenge) });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('could not match credentials');
    const bad = await anonymous.post('/napi/auth/webauthn/prelogin', { uuid: 'nope', instance: workplace.instanceId });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid UUID format');
    // An unknown user gets the same shape, just no authenticators.
    const unknown = await anonymous.post('/napi/auth/webauthn/prelogin', { uuid: '00000000-0000-4000-8000-000000000000', instance: workplace.instanceId });
    expect(unknown.status).toBe(200);
    expect(unknown.body.authenticators).toEqual([]);
  });

  it('asks a user with two-factor for the code after the passkey', async () => {
    const workplace = await createWorkplace(server);
    const authenticator = await register(workplace);
    const { body } = await workplace.api.get('/napi/profile/2fa/url');
    const secret = new URL(body.url).searchParams.get('secret')!;
    const code = execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    expect((await workplace.api.post('/napi/profile/2fa/set', { secretUrl: body.url, code })).status).toBe(200);
    const pre = await prelogin(workplace);
    const login = await anonymous.post('/napi/auth/webauthn/login', { jwt: pre.authenticators[0]!.jwt, ...authenticator.assert(pre.challenge) });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ action: '2FA', payload: expect.any(String) });
  });

  it('records registrations, sign-ins and failures', async () => {
    const events = (await server.db.withAuth((tx) => tx.query<{ event: string }>('SELECT DISTINCT event FROM audit_event'))).map((r) => r.event);
    for (const event of ['passkey.registered', 'passkey.signin', 'passkey.failure']) expect(events, event).toContain(event);
  });
});
