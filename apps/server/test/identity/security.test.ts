/**
 * Hardening (issue #3 §5): rate limits, security headers, closed CORS, and a generated bad-input
 * sweep over every operation of the OpenAPI document (no 5xx, every 4xx names the problem, nothing
 * written by a refused request, SQL-injection probes inert).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import {
  BROKEN,
  changedTables,
  createFixtures,
  isDestructive,
  isText,
  leaves,
  SESSION_PLACEHOLDER,
  SQLI,
  tableChecksums,
  validValue,
  withLeaf,
  type Fixtures,
  type JsonSchema,
  type Leaf,
} from './sweep.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { browse, signInThroughLocalIdp } from '../sso-flow.js';
import { encodeState } from '../../src/modules/auth/sso.service.js';
import { SoftAuthenticator } from './soft-authenticator.js';

let server: TestServer;
let anonymous: Client;
let owner: Workplace;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
  owner = await createWorkplace(server);
});
afterAll(async () => server?.close());

describe('rate limits', () => {
  /** Sends `count` requests made by `make(i)` in turn; answers their statuses. */
  async function statuses(count: number, make: (i: number) => Promise<{ status: number }>): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < count; i += 1) out.push((await make(i)).status);
    return out;
  }
  /** The 1-based position of the first 429, or 0. */
  const first429 = (list: number[]) => list.indexOf(429) + 1;

  it('limits instance-exists per name (10) and per IP (60) with a 429 that says what to do', async () => {
    const perName = await statuses(11, () => anonymous.post('/napi/instance/exists', { name: 'Hammered Name' }));
    expect(perName.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(perName[10]).toBe(429);
    // The same name in another case is the same workplace name.
    expect((await anonymous.post('/napi/instance/exists', { name: 'HAMMERED name' })).status).toBe(429);
    expect((await anonymous.post('/napi/instance/exists', { name: 'Another Name' })).status).toBe(404);
    // 13 calls so far; distinct names until the IP's 60 a minute are spent.
    const perIp = await statuses(50, (i) => anonymous.post('/napi/instance/exists', { name: `Nope ${i}` }));
    expect(first429(perIp)).toBe(60 - 13 + 1);
    const limited = await anonymous.post('/napi/instance/exists', { name: 'Fresh Name' });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatch(/Too many attempts; please wait/);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });

  // Before the single sign-on tests, which spend the IP's budget of those calls.
  it('limits two-factor codes per user across sign-ins (10) and per IP (30)', async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const { body } = await workplace.api.get('/napi/profile/2fa/url');
    const secret = new URL(body.url).searchParams.get('secret')!;
    const code = execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    expect((await workplace.api.post('/napi/profile/2fa/set', { secretUrl: body.url, code })).status).toBe(200);
    const payload = async () => {
      const login = await signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'Two Factor' });
      expect(login.body.action).toBe('2FA');
      return login.body.payload as string;
    };
    const [a, b] = [await payload(), await payload()];
    const wrong = code === '123456' ? '654321' : '123456';
    // Two sign-ins of one user share one budget: 6 codes on the first, 4 on the second, then 429.
    const perUser = [
      ...(await statuses(6, () => anonymous.post('/napi/auth/2fa', { code: wrong, payload: a }))),
      ...(await statuses(5, () => anonymous.post('/napi/auth/2fa', { code: wrong, payload: b }))),
    ];
    expect(first429(perUser)).toBe(11);
    // (The 5-attempt block struck first: wrong codes 1–5 are 400, the 6th blocks the account and
    // ends its pending sign-ins, so the second payload is unknown from then on — yet still counted.)
    expect(perUser.slice(0, 10)).toEqual([400, 400, 400, 400, 400, 403, 401, 401, 401, 401]);
    // Unknown payloads name no user: only the IP's 30 a minute.
    const perIp = await statuses(25, (i) => anonymous.post('/napi/auth/2fa', { code: '123456', payload: `unknown-${i}` }));
    expect(first429(perIp)).toBe(30 - 11 + 1);
  });

  it('limits the single sign-on URL per IP and workplace (20) and per IP (60)', async () => {
    const other = await createWorkplace(server, { onboard: false });
    const url = (instance: string, signup = false) =>
      anonymous.get(`/napi/auth/google/url?instance=${encodeURIComponent(instance)}${signup ? '&isSignup=true' : ''}`);
    const perWorkplace = await statuses(21, () => url(owner.instanceId));
    expect(perWorkplace.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(perWorkplace[20]).toBe(429);
    expect((await url(other.instanceId)).status).toBe(200);
    // 2 sign-ins of the two-factor test and 22 calls here so far.
    const perIp = await statuses(45, (i) => url(`Free Name ${i}`, true));
    expect(first429(perIp)).toBe(60 - 24 + 1);
  });

  it('limits the single sign-on return per workplace of the state (20) and per IP (60)', async () => {
    const redirect = (instance: string) => anonymous.get(`/napi/auth/google/redirect?code=abc&state=${encodeState('00000000-0000-4000-8000-000000000000', instance)}`);
    const perWorkplace = await statuses(21, () => redirect(owner.instanceId));
    // Refused (no binding cookie) but counted: the per-workplace limit stops the 21st.
    expect(perWorkplace.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(perWorkplace[20]).toBe(429);
    expect((await redirect('00000000-0000-4000-8000-00000000000b')).status).toBe(401);
    const perIp = await statuses(45, (i) => redirect(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    expect(first429(perIp)).toBe(60 - 24 + 1);
  });

  it('limits passkey prelogin and login per user (10) before the per-IP limit (30)', async () => {
    const rpId = new URL(server.baseUrl).hostname;
    const withPasskey = async () => {
      const workplace = await createWorkplace(server, { onboard: false });
      const authenticator = new SoftAuthenticator(rpId, new URL(server.baseUrl).origin);
      const start = await workplace.api.get('/napi/profile/webauthn/register');
      expect((await workplace.api.post('/napi/profile/webauthn/register', { jwt: start.body.jwt, ...authenticator.register(start.body.challenge) })).status).toBe(200);
      const pre = await anonymous.post('/napi/auth/webauthn/prelogin', { uuid: workplace.userId, instance: workplace.instanceId });
      expect(pre.status).toBe(200);
      return { workplace, authenticator, jwt: pre.body.authenticators[0].jwt as string, challenge: pre.body.challenge as string };
    };
    const first = await withPasskey();
    const second = await withPasskey();
    // Login per user: the first call uses the challenge, the next ones are refused as expired, all counted.
    const login = (who: typeof first) => anonymous.post('/napi/auth/webauthn/login', { jwt: who.jwt, ...who.authenticator.assert('AAAA') });
    const perUser = await statuses(11, () => login(first));
    expect(perUser.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(perUser[10]).toBe(429);
    expect((await login(second)).status).toBe(401);
    // Forged ceremony tokens name nobody: only the IP's 30 a minute apply.
    const forged = { jwt: 'forged', ...first.authenticator.assert('AAAA') };
    const perIp = await statuses(25, () => anonymous.post('/napi/auth/webauthn/login', forged));
    expect(first429(perIp)).toBe(30 - 12 + 1);

    // Prelogin per user, then per IP.
    const uuid = '00000000-0000-4000-8000-000000000001';
    const prelogin = await statuses(11, () => anonymous.post('/napi/auth/webauthn/prelogin', { uuid, instance: owner.instanceId }));
    expect(prelogin.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(prelogin[10]).toBe(429);
    // 2 prelogins above and 11 here; another user from the same IP is not affected until the IP's 30.
    const preloginIp = await statuses(20, (i) =>
      anonymous.post('/napi/auth/webauthn/prelogin', { uuid: `00000000-0000-4000-8000-${String(i + 100).padStart(12, '0')}`, instance: owner.instanceId }),
    );
    expect(first429(preloginIp)).toBe(30 - 13 + 1);
  });

});

describe('security headers and CORS', () => {
  it('sends a CSP with frame-ancestors none, no HSTS outside production, and no CORS grant', async () => {
    const response = await fetch(`${server.baseUrl}/api/meta/version`, { headers: { origin: 'https://evil.example' } });
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // WebAssembly may be compiled (the inbox's QR reader, decision 010), JavaScript eval may not.
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.baseUrl}/api/profile`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends HSTS and Secure cookies in production', async () => {
    const production = await startTestServer({ NODE_ENV: 'production', BILAN_LOCAL_IDP: '1' });
    try {
      const response = await fetch(`${production.baseUrl}/api/meta/version`);
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      const start = await fetch(`${production.baseUrl}/napi/auth/google/url?instance=Prod%20Test&isSignup=true`);
      expect(start.headers.get('set-cookie')).toMatch(/HttpOnly/i);
      expect(start.headers.get('set-cookie')).toMatch(/Secure/i);
      expect((await new Client(production.baseUrl).get('/napi/auth/settings')).body.testOverrides).toBe(false);
      // The refresh cookie of a real sign-in: Secure, httpOnly, SameSite=Strict, scoped to /napi/auth.
      const login = await signInThroughLocalIdp(production.baseUrl, { instance: 'Prod Cookie AG', isSignup: true, email: 'prod@example.ch', name: 'Pro Duction' });
      expect(login.status).toBe(200);
      const refresh = login.setCookies.find((cookie) => cookie.startsWith('bilan_refresh='));
      expect(refresh).toMatch(/; Secure/i);
      expect(refresh).toMatch(/; HttpOnly/i);
      expect(refresh).toMatch(/; SameSite=Strict/i);
      expect(refresh).toMatch(/; Path=\/napi\/auth/i);
      const rotated = await browse(login.jar, `${production.baseUrl}/napi/auth/refresh?idleMs=0`);
      expect(rotated.status).toBe(200);
      expect(rotated.headers.getSetCookie().find((cookie) => cookie.startsWith('bilan_refresh='))).toMatch(/; Secure/i);
    } finally {
      await production.close();
    }
  });
});

// --------------------------------------------------------------------------------------------
// The sweep (see sweep.ts). A fresh server of its own: no rate-limit state from the tests above.
// --------------------------------------------------------------------------------------------

interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
}

/** Calls that end or move the session that makes them: each request gets a throwaway session. */
const SESSION_ENDING = /\/napi\/auth\/logout|\/napi\/auth\/refresh|sessions\/revoke|instance\/change/;
/** Calls whose per-account limits or state belong to the user: one throwaway user per route. */
const OWN_USER = /\/napi\/profile\/2fa|\/napi\/profile\/webauthn|\/napi\/profile\/update/;
/** The sign-in surface, limited to 30 a minute per IP: fewer cases there. */
const LIMITED = /\/napi\/auth\/|\/napi\/profile\/2fa\/(set|unset)|webauthn|instance\/exists|support\/send/;

/**
 * Calls whose schema-valid request is still refused, and why: they need a secret or a ceremony the
 * schema cannot describe, a state the sweeping instance is past, or an outside service.
 */
const EXPECTED_REFUSAL: Record<string, string> = {
  'GET /napi/auth/{provider}/redirect': 'needs a code from the provider and the binding cookie',
  'POST /napi/auth/2fa': 'needs the payload of a pending sign-in',
  'POST /napi/profile/2fa/set': 'needs the secret the server proposed and its code',
  'POST /napi/profile/2fa/unset': 'needs two-factor to be set',
  'POST /napi/profile/webauthn/register': 'needs an authenticator',
  'POST /napi/auth/webauthn/login': 'needs an authenticator',
  'POST /api/instance/init': 'the instance is onboarded already',
  'POST /api/instance/init/accounts': 'the instance is onboarded already',
  'POST /api/invoice/by-entry': 'only a sent invoice has an entry',
  'POST /api/invoice/payment/reverse': 'a payment is reversed once: the first valid call reverses the fixture payment, the next find it reversed (409)',
  'POST /api/transaction-group/pay': 'a group is paid once: after a sweep body with another valid token paid it, the fixture token is refused (409)',
  'POST /api/payable/payment/reverse': 'a payment is reversed once: the first valid call reverses the fixture payment, the next find it reversed (409)',
  'POST /api/banking/integrations/transactions': 'needs a bank statement of an own account',
  'POST /api/banking/integrations/reconcile/match': 'needs an unmatched bank transaction and exactly one open invoice or bill',
  'POST /api/banking/integrations/reconcile/postings': 'needs an open bank line and an unreconciled posting of the same amount on its account',
  'POST /api/banking/integrations/reconcile/unmatch': 'needs a reconciled bank line',
  'POST /api/banking/integrations/reconcile/ignore': 'needs an open bank line',
  'POST /api/banking/integrations/reconcile/unignore': 'needs an ignored bank line',
  'POST /api/banking/integrations/file/delete': 'needs an imported bank file',
  'POST /api/accounting/statement/export': 'a balance sheet needs its date, which the schema leaves optional because kind "both" defaults it',
  'GET /api/company-register/search': 'Zefix is not configured in tests (503 configured: false)',
  'GET /api/company-register/detail': 'Zefix is not configured in tests (503 configured: false)',
  'POST /api/profile/mail-sync/connect': 'needs a reachable IMAP server that accepts the login; the sweep has none (400 host), and its probes use up the connect limit (429)',
  'POST /api/profile/mail-sync/disconnect': 'the sweep can connect no mailbox (no IMAP server), so there is none to disconnect (404)',
  'POST /api/profile/mail-sync/sync': 'the sweep can connect no mailbox (no IMAP server), so there is none to poll (404)',
  'POST /api/outbox/retry': 'no mail server is configured in the sweep (409), and only a failed message is queued again',
};

/** Valid query values by parameter name (GET and query-string parameters). */
function queryValue(route: string, name: string, f: Fixtures): string {
  const values: Record<string, string> = {
    instance: f.instanceId,
    isSignup: 'false',
    idleMs: '0',
    year: '2026',
    page: '1',
    pageSize: '10',
    event: 'signup',
    format: 'json',
    token: f.shareToken,
    lang: 'en',
    s: 'Muster',
    ehraid: '1',
    text: 'Sweep',
    sort: 'name',
    order: 'asc',
    account: String(f.bank),
    name: 'sweep.pdf',
    as: 'bill',
    openAmounts: 'true',
    withProfile: 'true',
    // The reconciliation summary's date.
    date: '2026-06-30',
  };
  if (name === 'uuid' && route.includes('/support/')) return f.supportRequest;
  return route.includes('/auth/') && name === 'instance' ? f.instanceId : (values[name] ?? '1');
}

/** A valid path parameter: the first of its enum when the schema has one (`/accounting/analytics/{kind}`). */
function pathValue(name: string, operation: Operation, f: Fixtures): string {
  const declared = operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema?.enum?.[0];
  if (typeof declared === 'string') return declared;
  return ({ provider: 'google', id: f.file, token: 'pain001' } as Record<string, string>)[name] ?? '1';
}

interface Case {
  path: string;
  body?: string;
  contentType?: string;
  /** Expected to be valid (counts toward "valid bodies reach SQL"). */
  valid?: boolean;
  label: string;
}

/** The cases of one operation: shapes and random JSON, each leaf broken, SQL-injection probes in text leaves, the valid body last. */
function casesFor(method: string, rawPath: string, operation: Operation, f: Fixtures, seed: number): Case[] {
  const pathParams = [...rawPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const concrete = rawPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValue(name, operation, f)));
  const injected = rawPath.replace(/\{([^}]+)\}/g, () => encodeURIComponent(SQLI[0]!));
  const route = `${method} ${rawPath}`;
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query' && !['type', 'additionalProperties'].includes(p.name)).map((p) => p.name);
  const cases: Case[] = [];
  const withQuery = (path: string, values: Record<string, string>) => {
    const search = new URLSearchParams(values).toString();
    return search ? `${path}?${search}` : path;
  };
  // A cursor is opaque: only a list's own answer hands out a valid one, so the valid query goes without.
  const validQuery = Object.fromEntries(query.filter((name) => name !== 'cursor').map((name) => [name, queryValue(rawPath, name, f)]));
  if (rawPath.endsWith('/redirect')) Object.assign(validQuery, { code: 'sweep', state: encodeState('00000000-0000-4000-8000-000000000000', f.instanceId) });
  if (pathParams.length) cases.push({ path: withQuery(injected, validQuery), label: 'SQL-injection path parameter' });
  query.forEach((name, i) => {
    for (const value of [SQLI[i % SQLI.length]!, '-1', 'x'.repeat(3000), '', '1.5']) cases.push({ path: withQuery(concrete, { ...validQuery, [name]: value }), label: `query ${name}=${value.slice(0, 20)}` });
  });
  const content = operation.requestBody?.content ?? {};
  const json = content['application/json']?.schema;
  if (method === 'get' || (!json && !Object.keys(content).length && method !== 'post')) {
    cases.push({ path: withQuery(concrete, validQuery), valid: true, label: 'valid query' });
    return cases;
  }
  const path = withQuery(concrete, validQuery);
  if (!json || json.type === 'string') {
    // CSV imports and uploads: hostile text, an empty body, then a valid one.
    const [bank, revenue] = f.accountNumbers;
    const valid = rawPath.endsWith('/import/chart')
      ? 'number,name,type\n9991,Sweep CSV,4\n'
      : rawPath.endsWith('/import/journal')
        ? `date,entry,description,account,amount,currency\n2026-01-16,1,Sweep CSV,${bank},10.00,CHF\n2026-01-16,1,Sweep CSV,${revenue},-10.00,CHF\n`
        : rawPath.endsWith('/file/upload')
          ? '%PDF-1.4\n%%EOF\n'
          : rawPath.endsWith('/mail/import')
            ? 'date,supplier,amount\n2026-01-15,Sweep Lieferant AG,10.00\n'
            : '<?xml version="1.0"?><Document><Ntry>Sweep</Ntry></Document>';
    const type = rawPath.endsWith('/file/upload') ? 'application/pdf' : rawPath.includes('/integrations/transactions') ? 'application/xml' : (Object.keys(content)[0] ?? 'text/csv');
    cases.push(
      { path, body: `number,name,type\n${SQLI.map((p) => `9992,"${p}",4`).join('\n')}`, contentType: type, label: 'SQL-injection CSV' },
      { path, body: '', contentType: type, label: 'empty body' },
      { path, body: valid, contentType: type, valid: true, label: 'valid body' },
    );
    return cases;
  }
  // A fresh valid body per case: numbers and e-mails that must be unique stay unique.
  const fresh = () => validValue(`${method.toUpperCase()} ${rawPath}`, json, f);
  const base = fresh();
  const add = (body: unknown, label: string, valid = false) => cases.push({ path, body: typeof body === 'string' && label === 'not JSON' ? body : JSON.stringify(body), contentType: 'application/json', label, valid });
  add('{"unterminated', 'not JSON');
  for (const shape of [{}, [], 'text', 42, null]) add(shape, `shape ${JSON.stringify(shape)}`);
  if (base && typeof base === 'object' && !Array.isArray(base)) add({ ...(base as object), unexpected: 1 }, 'unknown key');
  for (const random of fc.sample(fc.jsonValue({ maxDepth: 2 }), { numRuns: 2, seed })) add(random, 'random JSON');
  const all = leaves(base, json);
  const limit = LIMITED.test(rawPath) ? 10 : 18;
  // Spread the broken values over the leaves: every leaf gets some, every value is used somewhere.
  const broken: { leaf: Leaf; value: unknown }[] = [];
  all.forEach((leaf, i) => {
    for (let j = 0; j < 2; j += 1) broken.push({ leaf, value: BROKEN[(i * 2 + j + seed) % BROKEN.length] });
  });
  const step = Math.max(1, broken.length / limit);
  for (let k = 0; k < broken.length && cases.length < 200; k += step) {
    const { leaf, value } = broken[Math.floor(k)]!;
    add(withLeaf(fresh(), leaf.path, value), `${leaf.path.join('.')} = ${JSON.stringify(value)?.slice(0, 20)}`);
  }
  // Every probe in the first text leaf, then one probe in each other text leaf.
  const text = all.filter(isText);
  text.forEach((leaf, i) => {
    const probes = i === 0 ? SQLI : [SQLI[i % SQLI.length]!];
    for (const probe of probes) add(withLeaf(fresh(), leaf.path, probe), `SQL injection in ${leaf.path.join('.')}`);
  });
  if (route) add(fresh(), 'valid body', true);
  return cases;
}

describe('bad-input sweep over the OpenAPI document', () => {
  let sweep: TestServer;
  let sweeper: Workplace;
  let fixtures: Fixtures;

  beforeAll(async () => {
    // No job polling: a recurring invoice falling due in the background would change tables while a
    // refused request is being checked for having changed none.
    sweep = await startTestServer({ BILAN_JOB_POLL_SECONDS: '0' });
    sweeper = await createWorkplace(sweep);
    // Platform support too, so the superadmin calls are swept past their access check.
    await sweep.db.asOwner((tx) => tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1', [sweeper.userId]));
    const second = await createWorkplace(sweep, { onboard: false });
    fixtures = await createFixtures(sweep, sweeper, second.instanceId);
  }, 120_000);
  afterAll(async () => sweep?.close());

  /** A new user, owner of the sweeping instance and member of the second one, with a fresh session. */
  async function throwaway(): Promise<{ client: Client; cookie: string; session: string }> {
    const session = await sweep.db.withAuth(async (tx) => {
      const [user] = await tx.query<{ id: string }>(`INSERT INTO app_user (email) VALUES ('throwaway.' || gen_random_uuid() || '@example.ch') RETURNING id`);
      await tx.query(`INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $3, 'owner'), ($2, $3, 'viewer')`, [fixtures.instanceId, fixtures.instance2, user!.id]);
      return sweep.app.sessions.start(tx, user!.id, fixtures.instanceId, {});
    });
    const family = JSON.parse(Buffer.from(session.accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
    return { client: new Client(sweep.baseUrl, session.accessToken), cookie: `bilan_refresh=${session.refreshToken}`, session: family };
  }

  it('answers no 5xx, names the problem in every 4xx, changes no table when it refuses, and lets valid bodies through', async () => {
    const doc = (await new Client(sweep.baseUrl).get('/api/docs/json')).body as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/') || path.startsWith('/napi/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
      // Calls that delete or end something go last, so the others find their fixtures.
      .sort((a, b) => Number(isDestructive(a.path) || SESSION_ENDING.test(a.path)) - Number(isDestructive(b.path) || SESSION_ENDING.test(b.path)));
    expect(operations.length).toBeGreaterThan(100);

    const problems: string[] = [];
    const refusedValid: string[] = [];
    const timings: { route: string; ms: number; requests: number }[] = [];
    let requests = 0;
    let limited = 0;
    let writesReachedSql = 0;
    let baseline: Record<string, string> | null = null;
    let seed = 0;

    for (const { path: rawPath, method, operation } of operations) {
      const route = `${method.toUpperCase()} ${rawPath}`;
      const started = Date.now();
      let own = OWN_USER.test(rawPath) ? await throwaway() : undefined;
      if (own) baseline = null;
      const cases = casesFor(method, rawPath, operation, fixtures, (seed += 1));
      for (const item of cases) {
        let caller = own ?? { client: sweeper.api, cookie: '', session: '00000000-0000-4000-8000-000000000000' };
        if (SESSION_ENDING.test(rawPath)) {
          caller = own = await throwaway();
          baseline = null;
        }
        baseline ??= await tableChecksums(sweep);
        const headers: Record<string, string> = {};
        if (item.contentType) headers['content-type'] = item.contentType;
        if (caller.cookie) headers.cookie = caller.cookie;
        const sent = Date.now();
        // The caller's own session where the body names one (sessions/revoke).
        const body = item.body?.replaceAll(SESSION_PLACEHOLDER, caller.session);
        const response = await caller.client.request(method.toUpperCase(), item.path, body, headers);
        const took = Date.now() - sent;
        requests += 1;
        const label = `${route} [${item.label}] ${item.path === rawPath ? '' : item.path.slice(0, 80)} ${item.body?.slice(0, 100) ?? ''} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 160)}`;
        if (took > 3000) problems.push(`slow (${took} ms; pg_sleep?): ${label}`);
        const answer = response.body as { error?: unknown; fields?: Record<string, string>; configured?: boolean } | undefined;
        // 503 `configured: false` is the documented answer of an optional outside service (Zefix) that is not set up.
        if (response.status >= 500 && !(response.status === 503 && answer?.configured === false)) problems.push(`5xx: ${label}`);
        if (response.status >= 400 && response.status < 500) {
          if (response.status === 429) limited += 1;
          if (typeof answer?.error !== 'string' || !answer.error.trim()) problems.push(`4xx without a message: ${label}`);
          if (response.status === 400 && (!answer?.fields || !Object.keys(answer.fields).length)) problems.push(`400 without fields: ${label}`);
          const after = await tableChecksums(sweep);
          const changed = changedTables(baseline, after);
          if (changed.length) problems.push(`refused but changed ${changed.join(', ')}: ${label}`);
          baseline = after;
        } else {
          // It may have written: measure again before the next refusal.
          baseline = null;
          if (response.status < 300 && method === 'post' && !/list|detail|get|check|pdf|by-/.test(rawPath)) writesReachedSql += 1;
        }
        if (item.valid && response.status >= 400 && !(route in EXPECTED_REFUSAL)) refusedValid.push(label);
      }
      timings.push({ route, ms: Date.now() - started, requests: cases.length });
    }

    const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5);
    const average = timings.reduce((sum, t) => sum + t.ms, 0) / timings.length;
    console.info(
      `sweep: ${operations.length} operations, ${requests} requests, ${Math.round(average)} ms per operation, ${writesReachedSql} accepted writes, ${limited} rate-limited; ` +
        `valid bodies refused: ${refusedValid.length}; slowest: ${slowest.map((t) => `${t.route} ${t.ms} ms/${t.requests}`).join(', ')}`,
    );
    if (refusedValid.length) console.info(`valid bodies refused:\n${refusedValid.join('\n')}`);
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(1500);
    // Valid bodies reach SQL: all are accepted but those of EXPECTED_REFUSAL (a little slack for a
    // business rule another module adds; each is printed above), and the writes among them changed data.
    expect(refusedValid.length).toBeLessThanOrEqual(3);
    expect(writesReachedSql).toBeGreaterThan(60);
    // Rate limits stay an exception in the sweep (only the sign-in surface has them).
    expect(limited).toBeLessThan(requests * 0.05);
    // The time per operation is printed above, not asserted: speed targets live in bench/, and a
    // timed assertion here only measured how busy the machine was.
    // The probes were inert: the tables they named are still there and the sweeper still works.
    expect((await sweeper.api.get('/napi/profile')).status).toBe(200);
    const [secrets] = await sweep.db.asOwner((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM server_secret'));
    expect(secrets!.n).toBeGreaterThan(0);
  }, 600_000);
});
