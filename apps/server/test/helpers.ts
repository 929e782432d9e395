/**
 * Test harness: a real server on a real port, on a fresh database of the engine under test
 * (BILAN_TEST_DB = pglite | postgres). No mocks: requests go over HTTP with fetch.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { RoleName } from '@bilan/domain';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openPglite, openPostgres, type Database } from '../src/db/database.js';
import { freePort } from './free-port.js';

export { freePort };

export const engine = (process.env.BILAN_TEST_DB ?? 'pglite') as 'pglite' | 'postgres';

/** The PostgreSQL server's admin URL of this run (global-setup: BILAN_TEST_PG_URL, the local server or an embedded one). */
export const adminUrl = (): string => inject('pgAdminUrl');

/** Drops a test database once its closed pools have really gone (at most ~1 s), then by force. */
export async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  // pg's pool.end() resolves before the server has read every Terminate; a forced drop then
  // kills a closing connection with FATAL 57P01 that no listener catches (uncaught error).
  for (let wait = 0; wait < 100; wait += 1) {
    const { rows } = await admin.query('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [name]);
    if (rows[0].open === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A fresh database for one test file: a copy of the migrated template, or with `empty: true` a
 * database without any table (for tests of the migration runner itself).
 */
export async function openTestDatabase(options: { empty?: boolean } = {}): Promise<{ db: Database; url?: string; drop: () => Promise<void> }> {
  if (engine === 'postgres') {
    const template = inject('pgTemplate');
    // Named after the template even when empty: the global teardown drops what a crashed run left.
    const name = `${template}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client(adminUrl());
    await admin.connect();
    await admin.query(options.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = new URL(adminUrl());
    url.pathname = `/${name}`;
    const db = await openPostgres(url.toString());
    return {
      db,
      url: url.toString(),
      drop: async () => {
        await db.close();
        await dropDatabase(admin, name);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pglite-'));
  if (!options.empty) cpSync(inject('pgliteTemplate'), join(dir, 'db'), { recursive: true });
  const db = await openPglite(join(dir, 'db'));
  return {
    db,
    drop: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  app: App;
  db: Database;
  config: Config;
  baseUrl: string;
  /** The PostgreSQL database's URL (PostgreSQL engine only): a second pool on the same database. */
  url?: string | undefined;
  close: () => Promise<void>;
}

/** Builds the app on a fresh database and listens on a free port of 127.0.0.1. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const { db, url, drop } = await openTestDatabase();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    BILAN_PUBLIC_URL: baseUrl,
    BILAN_DATA_DIR: join(tmpdir(), 'bilan-unused'),
    BILAN_WEB_DIST: join(tmpdir(), 'bilan-no-web'),
    LOG_LEVEL: process.env.BILAN_TEST_LOG ?? 'silent',
    ...env,
  });
  const app = await buildApp({ config, db });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    db,
    config,
    baseUrl,
    url,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client bound to a server and, optionally, an access token. */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  withToken(token: string | undefined): Client {
    return new Client(this.baseUrl, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.token) (init.headers as Record<string, string>).authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      if (typeof body === 'string') {
        init.body = body;
        (init.headers as Record<string, string>)['content-type'] ??= 'text/csv';
      } else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
    }
    const response = await fetch(this.baseUrl + path, init);
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json') && text) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = any>(path: string, body: unknown = {}) {
    return this.request<T>('POST', path, body);
  }
}

export interface Workplace {
  instanceId: string;
  userId: string;
  email: string;
  token: string;
  api: Client;
  companyUuid?: string;
}

let counter = 0;

/**
 * A user and an instance they belong to, created directly in the database (the sign-in flow has its
 * own tests), with an access token from the real session service. With `onboard` (default true),
 * onboarding is completed through the real API: own company, address, one bank account 1020,
 * VAT 8.1 %, Swiss SME chart.
 */
export async function createWorkplace(
  server: TestServer,
  options: { name?: string; email?: string; role?: RoleName; currency?: string; onboard?: boolean } = {},
): Promise<Workplace> {
  counter += 1;
  const name = options.name ?? `Workplace ${counter} ${Math.random().toString(36).slice(2, 7)}`;
  const email = options.email ?? `user${counter}.${Math.random().toString(36).slice(2, 7)}@example.ch`;
  const { instanceId, userId, token } = await server.db.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(
      `INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'Test', 'User')
       ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING id`,
      [email],
    );
    const [instance] = await tx.query<{ id: string }>('INSERT INTO instance (name) VALUES ($1) RETURNING id', [name]);
    await tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [
      instance!.id,
      user!.id,
      options.role ?? 'owner',
    ]);
    const session = await server.app.sessions.start(tx, user!.id, instance!.id, {});
    return { instanceId: instance!.id, userId: user!.id, token: session.accessToken };
  });
  const api = new Client(server.baseUrl, token);
  const workplace: Workplace = { instanceId, userId, email, token, api };
  if (options.onboard ?? true) {
    const currency = options.currency ?? 'CHF';
    const init = await api.post('/api/instance/init', {
      company: { name },
      address: { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } },
      extra: { vat: '8.1', currency },
    });
    if (init.status !== 200) throw new Error(`onboarding init failed: ${init.status} ${JSON.stringify(init.body)}`);
    workplace.companyUuid = init.body.company.uuid;
    const accounts = await api.post('/api/instance/init/accounts', {
      company: { uuid: workplace.companyUuid },
      accounts: [{ ledgerCode: 1020, name: 'Bank', iban: 'CH9300762011623852957', bic: '', type: 1 }],
      currency,
    });
    if (accounts.status !== 200) throw new Error(`onboarding accounts failed: ${accounts.status} ${JSON.stringify(accounts.body)}`);
  }
  return workplace;
}
