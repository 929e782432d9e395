/**
 * Hardening (issue #3 §5): rate limits, security headers, closed CORS, and a generated bad-input
 * sweep over every operation of the OpenAPI document (no 5xx, every 4xx names the problem, nothing
 * written by a refused request, SQL-injection probes inert).
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
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

  it('limits the single sign-on URL per workplace (20) and per IP (60)', async () => {
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
// The sweep.
// --------------------------------------------------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
}

const SQLI = ["' OR '1'='1", "'; DROP TABLE app_user; --", '1; SELECT pg_sleep(5)', '$$; DROP TABLE instance; $$', '\\x27 UNION SELECT * FROM server_secret --'];

/** A plausible value for a schema (the "valid-ish" base that single fields are then broken in). */
function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  const pick = schema.anyOf ?? schema.oneOf;
  if (pick?.length) return plausible(pick[0], depth + 1);
  if (schema.allOf?.length) return plausible(schema.allOf[0], depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(schema.properties ?? {})) out[key] = plausible(value, depth + 1);
      return out;
    }
    case 'array':
      return [plausible(schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'email') return 'someone@example.ch';
      if (schema.format === 'date') return '2026-01-15';
      return 'x';
    default:
      return null;
  }
}

/** Dotted paths of every property (two levels deep) with its schema. */
function fieldPaths(schema: JsonSchema | undefined, prefix: string[] = [], depth = 0): { path: string[]; schema: JsonSchema }[] {
  if (!schema || depth > 2 || !schema.properties) return [];
  return Object.entries(schema.properties).flatMap(([key, value]) => [
    { path: [...prefix, key], schema: value },
    ...fieldPaths(value, [...prefix, key], depth + 1),
  ]);
}

function withField(base: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  target[path[path.length - 1]!] = value;
  return copy;
}

const BROKEN_VALUES: unknown[] = [null, -1, 0, 1.5, 2 ** 53, 'x'.repeat(5000), '', ' ', {}, [], true, 'not-a-uuid', '2026-02-30', 'a\u0000b', '💥', ...SQLI];

/** Bodies for one operation: random JSON (fast-check), whole-body shapes, and each field broken in turn. */
function bodiesFor(schema: JsonSchema | undefined, seed: number): unknown[] {
  const random = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 8, seed });
  const base = plausible(schema);
  const bodies: unknown[] = [...random, {}, [], 'text', 42, base, { ...(base as object), unexpected: 1 }];
  for (const { path } of fieldPaths(schema)) {
    for (const value of BROKEN_VALUES) bodies.push(withField(base, path, value));
  }
  return bodies;
}

/** Row counts of the tables a refused request must not touch. */
async function fingerprint(): Promise<string> {
  const tables = [
    'app_user', 'instance', 'instance_member', 'instance_invitation', 'company', 'address', 'ledger_account', 'account_group', 'journal_entry',
    'journal_line', 'payment_profile', 'user_totp', 'webauthn_credential', 'second_factor_login',
    'additional_property', 'invoice', 'invoice_item', 'invoice_share', 'payable', 'transaction_group', 'bank_file', 'bank_transaction', 'inbox_file',
  ];
  const [row] = await server.db.asOwner((tx) =>
    tx.query<Record<string, string>>(`SELECT ${tables.map((t) => `(SELECT count(*) FROM ${t}) AS ${t}`).join(', ')}`),
  );
  return JSON.stringify(row);
}

// Calls that end or reshape the sweeping session itself, and binary/CSV endpoints.
const SKIP = new Set(['GET /napi/auth/logout', 'POST /napi/profile/sessions/revoke-all', 'POST /napi/profile/instance/change']);

describe('bad-input sweep over the OpenAPI document', () => {
  it('answers no 5xx, names the problem in every 4xx and writes nothing when it refuses', async () => {
    const doc = (await anonymous.get('/api/docs/json')).body as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: { in: string; name: string }[] }>>;
    };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
    const problems: string[] = [];
    let requests = 0;
    let seed = 1;
    for (const [rawPath, operations] of Object.entries(doc.paths)) {
      if (!rawPath.startsWith('/api/') && !rawPath.startsWith('/napi/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${rawPath}`;
        if (SKIP.has(name)) continue;
        const json = operation.requestBody?.content?.['application/json']?.schema;
        const isCsv = Boolean(operation.requestBody?.content?.['text/csv']);
        const paths = [rawPath.replace(/\{[^}]+\}/g, '1'), rawPath.replace(/\{[^}]+\}/g, encodeURIComponent(SQLI[0]!))];
        const cases: { path: string; body?: unknown }[] = [];
        if (method === 'get') {
          const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
          for (const path of paths) {
            cases.push({ path });
            for (const value of ['-1', 'x'.repeat(3000), SQLI[1]!, '0', '1.5', '']) {
              if (query.length) cases.push({ path: `${path}?${query.map((q) => `${q}=${encodeURIComponent(value)}`).join('&')}` });
            }
          }
        } else if (isCsv) {
          cases.push({ path: paths[0]!, body: 'number,name\n' + SQLI.join(',') }, { path: paths[0]!, body: '' });
        } else {
          for (const body of bodiesFor(json, (seed += 1))) cases.push({ path: paths[0]!, body: body ?? null });
        }
        for (const { path, body } of cases) {
          const before = await fingerprint();
          const response =
            body === undefined
              ? await owner.api.request(method.toUpperCase(), path)
              : typeof body === 'string' && isCsv
                ? await owner.api.request(method.toUpperCase(), path, body, { 'content-type': 'text/csv' })
                : await owner.api.request(method.toUpperCase(), path, JSON.stringify(body), { 'content-type': 'application/json' });
          requests += 1;
          const label = `${name} ${path} ${JSON.stringify(body)?.slice(0, 120)} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`;
          // 503 `configured: false` is the documented answer of an optional outside service (Zefix) that is not set up.
          if (response.status >= 500 && !(response.status === 503 && (response.body as { configured?: boolean } | undefined)?.configured === false)) problems.push(`5xx: ${label}`);
          if (response.status >= 400 && response.status < 500) {
            const error = (response.body as { error?: unknown } | undefined)?.error;
            if (typeof error !== 'string' || !error.trim()) problems.push(`4xx without a message: ${label}`);
            if ((await fingerprint()) !== before) problems.push(`refused but wrote: ${label}`);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(500);
    expect(problems).toEqual([]);
    // The probes were inert: the tables they named are still there and the owner still works.
    expect((await owner.api.get('/napi/profile')).status).toBe(200);
  }, 600_000);
});
