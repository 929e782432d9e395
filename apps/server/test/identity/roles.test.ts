/**
 * Role sweep (issue #3 §4; ASVS 5 V8.2.1 function-level access): every route the server declares
 * with an access level is tried with a role that is one step too low. A viewer gets 403 from every
 * `write` and `admin` route, an accountant from every `admin` route, a member who is not platform
 * support from every `superadmin` route — each with a message that says why, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@bilan/domain';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { signInThroughLocalIdp } from '../sso-flow.js';
import { loadConfig, ConfigError } from '../../src/config.js';

let server: TestServer;
let owner: Workplace;

beforeAll(async () => {
  server = await startTestServer({ BILAN_DEV_SUPERADMINS: 'Support@Example.ch' });
  owner = await createWorkplace(server);
});
afterAll(async () => server?.close());

/** A member of the owner's workplace with `role`, signed in through the real session service. */
async function member(role: RoleName): Promise<Client> {
  const email = `${role}.${Math.random().toString(36).slice(2, 8)}@example.ch`;
  const token = await server.db.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(`INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'R', 'Ole') RETURNING id`, [email]);
    await tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [owner.instanceId, user!.id, role]);
    return (await server.app.sessions.start(tx, user!.id, owner.instanceId, {})).accessToken;
  });
  return new Client(server.baseUrl, token);
}

/** Row counts of every table, as owner: a refused call must leave them all as they were. */
async function tableCounts(): Promise<string> {
  const tables = await server.db.asOwner((tx) =>
    tx.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'audit_event' ORDER BY 1`),
  );
  const [row] = await server.db.asOwner((tx) => tx.query(`SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t.name}") AS "${t.name}"`).join(', ')}`));
  return JSON.stringify(row);
}

const concrete = (url: string) => url.replace(/:([a-zA-Z]+)/g, '1');

async function sweep(client: Client, levels: string[], expected: (route: { url: string; access: string }) => RegExp) {
  const routes = server.app.guardedRoutes.filter((route) => levels.includes(route.access));
  const before = await tableCounts();
  const problems: string[] = [];
  for (const route of routes) {
    const response = await client.request(route.method, concrete(route.url), route.method === 'GET' ? undefined : {});
    if (response.status !== 403 || !expected(route).test(String(response.body?.error))) {
      problems.push(`${route.method} ${route.url} (${route.access}) → ${response.status} ${JSON.stringify(response.body).slice(0, 160)}`);
    }
  }
  expect(problems).toEqual([]);
  expect(await tableCounts()).toBe(before);
  return routes.length;
}

describe('role sweep over every guarded route', () => {
  it('refuses a viewer on every write and admin route with 403 and a clear message', async () => {
    const viewer = await member('viewer');
    // By the route's own level: one path may be read by GET and written by POST (reconcile).
    const count = await sweep(viewer, ['write', 'admin'], (route) =>
      route.access === 'write'
        ? /^Your role \(viewer\) may only read in this workplace$/
        : /^Only an owner or admin may do this \(your role: viewer\)$/,
    );
    // The sweep covers the whole writing surface (books, invoices, bills, companies, settings, staff).
    expect(count).toBeGreaterThan(50);
    // The same viewer may read: the refusals are about the role, not a broken token.
    expect((await viewer.get('/api/profile')).status).toBe(200);
  });

  it('refuses an accountant on every admin route', async () => {
    const accountant = await member('accountant');
    const count = await sweep(accountant, ['admin'], () => /^Only an owner or admin may do this \(your role: accountant\)$/);
    expect(count).toBeGreaterThan(5);
    // An accountant may write: a well-formed write is judged on its merits, not refused by role.
    const accounts = await accountant.post('/api/accounting/account/list', {});
    expect(accounts.status).toBe(200);
  });

  it('refuses every superadmin route to members who are not platform support, owners included', async () => {
    for (const client of [owner.api, await member('admin')]) {
      const count = await sweep(client, ['superadmin'], () => /^Only platform support \(superadmin\) may do this$/);
      expect(count).toBeGreaterThanOrEqual(4);
    }
  });

  it('lists every guarded route with a known access level', () => {
    const levels = new Set(server.app.guardedRoutes.map((route) => route.access));
    expect([...levels].every((level) => ['public', 'session', 'read', 'write', 'admin', 'superadmin'].includes(level))).toBe(true);
    for (const level of ['write', 'admin', 'superadmin']) expect(levels.has(level as never), level).toBe(true);
  });
});

describe('superadmins for browser tests (BILAN_DEV_SUPERADMINS, never in production)', () => {
  it('makes a listed e-mail superadmin at sign-in, and nobody else', async () => {
    const support = await signInThroughLocalIdp(server.baseUrl, { instance: 'Support Desk', isSignup: true, email: 'support@example.ch', name: 'Sue Port' });
    expect(support.status).toBe(200);
    const other = await signInThroughLocalIdp(server.baseUrl, { instance: 'Not Support', isSignup: true, email: 'nobody@example.ch', name: 'No Body' });
    const flags = await server.db.asOwner((tx) =>
      tx.query<{ email: string; is_superadmin: boolean }>(`SELECT email, is_superadmin FROM app_user WHERE email IN ('support@example.ch', 'nobody@example.ch') ORDER BY email`),
    );
    expect(flags).toEqual([
      { email: 'nobody@example.ch', is_superadmin: false },
      { email: 'support@example.ch', is_superadmin: true },
    ]);
    expect((await new Client(server.baseUrl, support.body.token).get('/napi/admin/analytics')).status).toBe(200);
    expect((await new Client(server.baseUrl, other.body.token).get('/napi/admin/analytics')).status).toBe(403);
  });

  it('refuses to start in production with the setting', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', BILAN_DEV_SUPERADMINS: 'support@example.ch' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', BILAN_DEV_SUPERADMINS: 'support@example.ch' })).toThrow(/BILAN_DEV_SUPERADMINS/);
    expect(loadConfig({ NODE_ENV: 'production' }).devSuperadmins).toEqual([]);
  });
});
