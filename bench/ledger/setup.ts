/**
 * A fresh database per engine (PGlite in a temporary directory, or a PostgreSQL database created
 * and dropped by the benchmark), migrated, with the real app built by buildApp() listening on a
 * random port of 127.0.0.1, exactly as apps/server/test/helpers.ts does for the API tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp, type App } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openPglite, openPostgres, type Database } from '../../apps/server/src/db/database.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { log } from './measure.js';

export type Engine = 'pglite' | 'postgres';

export interface BenchEnv {
  engine: Engine;
  db: Database;
  app: App;
  baseUrl: string;
  /** `SELECT version()` of the engine. */
  serverVersion: string;
  /** Server settings that matter for the figures. */
  settings: Record<string, string>;
  /**
   * PostgreSQL only: a plain `pg` client on the bench database as the owner, for what the Database
   * interface cannot do (COPY inside a transaction, VACUUM).
   */
  direct?: pg.Client;
  /** PostgreSQL only: the bench database's URL, for a second process on it (bench/ledger/api-child.ts). */
  databaseUrl?: string;
  close(): Promise<void>;
}

const SETTINGS = ['shared_buffers', 'work_mem', 'synchronous_commit', 'fsync', 'max_parallel_workers_per_gather', 'jit'];

async function openEngine(
  engine: Engine,
  pgUrl: string,
): Promise<{ db: Database; direct?: pg.Client; drop: () => Promise<void>; where: string }> {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'bilan-bench-pglite-'));
    const db = await openPglite(join(dir, 'db'));
    return {
      db,
      where: dir,
      drop: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `bilan_bench_${process.pid}`;
  const admin = new pg.Client(pgUrl);
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`the PostgreSQL benchmark needs a server at ${pgUrl} (--pg-url or BILAN_BENCH_PG_URL): ${(error as Error).message}`, {
      cause: error,
    });
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString());
  const direct = new pg.Client(url.toString());
  await direct.connect();
  return {
    db,
    direct,
    where: url.toString(),
    drop: async () => {
      await direct.end();
      await db.close();
      // As the test harness: wait until the pool's connections are gone before the forced drop.
      for (let wait = 0; wait < 200; wait += 1) {
        const { rows } = await admin.query<{ open: number }>('SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0]?.open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** The app's configuration in the benchmark, in this process and in a server child process alike. */
export function benchConfig() {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    BILAN_PUBLIC_URL: 'http://127.0.0.1',
    BILAN_DATA_DIR: join(tmpdir(), 'bilan-bench-unused'),
    BILAN_WEB_DIST: join(tmpdir(), 'bilan-bench-no-web'),
    BILAN_LOCAL_IDP: 'false',
    // Measure what production runs: the compiled serializer alone (decision 040).
    BILAN_CHECK_ANSWERS: 'false',
    LOG_LEVEL: 'silent',
  });
}

/** Opens a fresh database of `engine`, migrates it and starts the app on it. */
export async function startEnv(engine: Engine, pgUrl: string): Promise<BenchEnv> {
  const { db, direct, drop, where } = await openEngine(engine, pgUrl);
  log(`${engine}: fresh database at ${where}`);
  let app: App | undefined;
  try {
    await migrate(db);
    app = await buildApp({ config: benchConfig(), db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const [version] = await db.asOwner((tx) => tx.query<{ version: string }>('SELECT version()'));
    const settings: Record<string, string> = {};
    for (const name of SETTINGS) {
      const [row] = await db.asOwner((tx) => tx.query<{ setting: string }>('SELECT current_setting($1, true) AS setting', [name]));
      if (row?.setting != null) settings[name] = row.setting;
    }
    const started = app;
    // Idempotent: Ctrl-C and the normal end may both close.
    let closing: Promise<void> | undefined;
    return {
      engine,
      db,
      app: started,
      baseUrl: `http://127.0.0.1:${port}`,
      serverVersion: version?.version ?? 'unknown',
      settings,
      ...(direct ? { direct, databaseUrl: where } : {}),
      close: () =>
        (closing ??= (async () => {
          await started.close();
          await drop();
        })()),
    };
  } catch (error) {
    await app?.close();
    await drop();
    throw error;
  }
}

/** A JSON/CSV client for the app, with a bearer token that is minted again before it expires. */
export class Api {
  private token = '';
  private mintedAt = 0;

  constructor(
    private readonly env: BenchEnv,
    readonly instanceId: string,
    readonly userId: string,
    /** The server asked: the app of this process by default, or a server child process (api-child.ts). */
    readonly baseUrl: string = env.baseUrl,
  ) {}

  /** The same user and instance on another server on the same database (the token is shared: its key is in the database). */
  at(baseUrl: string): Api {
    return new Api(this.env, this.instanceId, this.userId, baseUrl);
  }

  /** A current access token of the user (minted again before it expires). */
  async bearer(): Promise<string> {
    // Access tokens live 15 minutes; a full run takes longer.
    if (Date.now() - this.mintedAt > 5 * 60_000) {
      const session = await this.env.db.withAuth((tx) => this.env.app.sessions.start(tx, this.userId, this.instanceId, {}));
      this.token = session.accessToken;
      this.mintedAt = Date.now();
    }
    return this.token;
  }

  /**
   * fetch, tried once more when the connection fails before an answer. On PGlite the database runs
   * synchronously in this process: a long bulk load blocks the event loop past the keep-alive
   * timeouts, and then the server closes the idle socket just as the client reuses it ("fetch
   * failed", the request never reached the app; seen on the first request after a 1M-line load).
   */
  private async fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(this.baseUrl + path, init);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      return fetch(this.baseUrl + path, init);
    }
  }

  /** GETs `path` and returns the parsed answer; throws unless 200. */
  async get<T = any>(path: string): Promise<T> {
    const response = await this.fetch(path, { headers: { authorization: `Bearer ${await this.bearer()}` } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /** POSTs XML text (a bank file) and returns the parsed answer; throws unless 200. */
  async postXml<T = any>(path: string, xml: string): Promise<T> {
    const response = await this.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${await this.bearer()}`, 'content-type': 'application/xml' }, body: xml });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  /** POSTs JSON (or CSV text when `body` is a string) and returns the parsed answer; throws unless 200. */
  async post<T = any>(path: string, body: unknown = {}): Promise<T> {
    const csv = typeof body === 'string';
    const response = await this.fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${await this.bearer()}`, 'content-type': csv ? 'text/csv' : 'application/json' },
      body: csv ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }
}

export interface Workplace {
  instanceId: string;
  userId: string;
  api: Api;
  /** Ledger accounts of the seeded Swiss SME chart: id by number. */
  accounts: Map<string, number>;
  currencyId: number;
}

let workplaces = 0;

/**
 * A user and an onboarded instance (Swiss SME chart, bank account 1020), created as the API tests
 * do: user, instance and membership in the database, the session from the real session service,
 * onboarding through the real API.
 */
export async function createWorkplace(env: BenchEnv, label: string): Promise<Workplace> {
  workplaces += 1;
  const suffix = `${process.pid}-${workplaces}`;
  const { instanceId, userId } = await env.db.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(
      `INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'Bench', 'User') RETURNING id`,
      [`bench.${suffix}@example.ch`],
    );
    const [instance] = await tx.query<{ id: string }>('INSERT INTO instance (name) VALUES ($1) RETURNING id', [`Bench ${label} ${suffix}`]);
    await tx.query(`INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, 'owner')`, [instance!.id, user!.id]);
    return { instanceId: instance!.id, userId: user!.id };
  });
  const api = new Api(env, instanceId, userId);
  const init = await api.post<{ company: { uuid: string } }>('/api/instance/init', {
    company: { name: `Bench ${label} AG` },
    address: { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } },
    extra: { vat: '8.1', currency: 'CHF' },
  });
  await api.post('/api/instance/init/accounts', {
    company: { uuid: init.company.uuid },
    accounts: [{ ledgerCode: 1020, name: 'Bank', iban: 'CH9300762011623852957', bic: '', type: 1 }],
    currency: 'CHF',
  });
  const rows = await env.db.withInstance(instanceId, (tx) =>
    tx.query<{ id: number; number: string }>('SELECT id, number FROM ledger_account WHERE instance_id = $1', [instanceId]),
  );
  const [currency] = await env.db.withInstance(instanceId, (tx) =>
    tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]),
  );
  return { instanceId, userId, api, accounts: new Map(rows.map((r) => [r.number, r.id])), currencyId: currency!.currency_id };
}

/** Reserves `count` ids of `kind` for the instance through the schema's own next_ids(); returns the first. */
export async function reserveIds(env: BenchEnv, instanceId: string, kind: 'journal_entry' | 'journal_line', count: number): Promise<number> {
  const [row] = await env.db.withInstance(instanceId, (tx) =>
    tx.query<{ last: number }>('SELECT next_ids($1, $2, $3) AS last', [instanceId, kind, count]),
  );
  return row!.last - count + 1;
}
