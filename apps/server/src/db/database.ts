/**
 * One database interface over both engines (DESIGN.md "Embedded default"): PGlite (PostgreSQL in
 * WASM, in-process) and a PostgreSQL server through `pg`. Every application query runs inside a
 * transaction as a non-owner role: `bilan_app` with the instance set for row-level security, or
 * `bilan_auth` for sign-in and session work on the global tables.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** A transaction handle. `query` returns the rows; numeric and bigint columns arrive as strings, dates as YYYY-MM-DD. */
export interface Tx {
  query<R extends Row = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  readonly kind: DatabaseKind;
  /** Runs `fn` in one transaction as `bilan_app` scoped to `instanceId`; rolls back if it throws. */
  withInstance<T>(instanceId: string, fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Runs `fn` in one transaction as `bilan_auth`: global tables only (users, instances, sessions). */
  withAuth<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One read as `bilan_auth` in its own transaction, in a single round trip to a server: the
   * parameters must be UUIDs (else it throws) and travel inlined as uuid literals, so BEGIN, the
   * role, the query and COMMIT go as one simple-protocol message. For the session check that
   * every authenticated request makes (decision 005, docs/performance.md).
   */
  readAsAuth<R extends Row = Row>(text: string, uuids: readonly string[]): Promise<R[]>;
  /** Runs `fn` in one transaction as the connecting (owner) role: migrations and maintenance only. */
  asOwner<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Bulk-loads CSV text into a table with COPY FROM STDIN, as the owner (benchmark baseline). */
  copyCsv(table: string, columns: readonly string[], csv: string): Promise<void>;
  close(): Promise<void>;
}

/** How a tenant transaction plans its statements. */
export interface TransactionOptions {
  /**
   * Plan every statement with parameters once per connection, for any values
   * (`plan_cache_mode = force_generic_plan`, transaction-local, set in the message that opens the
   * transaction: no round trip of its own). For statements whose every filter is in their text
   * (a condition appended per filter given, not `$n IS NULL OR …`), where PostgreSQL's own choice
   * keeps planning each call for its values: the invoice list's first page spent 1.5 ms of its
   * 2.7 in planning (docs/performance.md, "Generic plans for the invoice lists"). Not for a
   * statement whose best plan depends on a value (a text search: `textFilter` sets its own mode).
   */
  genericPlans?: boolean;
}

/** Work that joins the end of a tenant transaction, just before its COMMIT. */
export type BeforeCommit = (tx: Tx, instanceId: string) => Promise<void>;

const beforeCommit = new AsyncLocalStorage<BeforeCommit>();

/**
 * Runs `fn` so that every `withInstance` transaction it starts (directly or through any async call
 * chain) runs `hook` as its last statement before COMMIT: what the hook writes commits or rolls
 * back with that transaction's own writes. How an idempotent request marks, atomically with its
 * write, that it has booked (http/idempotency.ts).
 */
export const runWithBeforeCommit = <T>(hook: BeforeCommit, fn: () => T): T => beforeCommit.run(hook, fn);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// One statement sets the role and the tenant for the rest of the transaction (is_local = true). It
// carries no parameters, so on a server it travels in the same simple-protocol message as BEGIN:
// one round trip saved on every transaction. The instance id is a checked UUID, safe to inline.
const enterInstance = (instanceId: string, options: TransactionOptions = {}): string => {
  // Never run a tenant transaction with an empty or malformed instance: RLS would just show nothing,
  // which hides bugs.
  if (!UUID.test(instanceId)) throw new Error(`invalid instance id "${instanceId}"`);
  const plans = options.genericPlans ? ", set_config('plan_cache_mode', 'force_generic_plan', true)" : '';
  return `SELECT set_config('role', 'bilan_app', true), set_config('bilan.instance_id', '${instanceId}', true)${plans}`;
};
const ENTER_AUTH = "SELECT set_config('role', 'bilan_auth', true), set_config('bilan.instance_id', '', true)";

/** `text` with each `$n` replaced by the n-th UUID as a literal; throws when one is not a UUID. */
function inlineUuids(text: string, uuids: readonly string[]): string {
  for (const uuid of uuids) if (!UUID.test(uuid)) throw new Error(`invalid uuid "${uuid}"`);
  return text.replace(/\$(\d+)\b/g, (_, n: string) => {
    const uuid = uuids[Number(n) - 1];
    if (uuid === undefined) throw new Error(`no value for $${n}`);
    return `'${uuid}'::uuid`;
  });
}

const OID = { int8: 20, numeric: 1700, date: 1082, timestamp: 1114, timestamptz: 1184 } as const;
const asIs = (value: string): string => value;
const isoTimestamp = (value: string): string => new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();

/**
 * PGlite's buffer pool. PostgreSQL's default of 128 MB is set up in WebAssembly memory at every
 * start, about 3 ms a megabyte here: 32 MB opens an existing data directory 0.25-0.3 s sooner
 * (issue 18 §3) and keeps ~100 MB less memory. Pages outside it are read through Node's file
 * system, which the OS caches: posting through the API was not slower (docs/performance.md).
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/** PGlite, persisted in `dataDir` (or in memory when `dataDir` is undefined). */
export async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? join(dataDir) : undefined, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    parsers: {
      [OID.int8]: asIs,
      [OID.numeric]: asIs,
      [OID.date]: asIs,
      [OID.timestamp]: isoTimestamp,
      [OID.timestamptz]: isoTimestamp,
    },
    serializers: { [pgliteTypes.DATE]: (value: unknown) => String(value) },
  });
  await db.exec("SET TIME ZONE 'UTC'");

  async function run<T>(enter: string, fn: (tx: Tx) => Promise<T>, instanceId?: string): Promise<T> {
    const hook = instanceId ? beforeCommit.getStore() : undefined;
    return db.transaction(async (raw) => {
      if (enter) await raw.query(enter);
      const tx: Tx = {
        async query<R extends Row>(text: string, values?: readonly unknown[]) {
          const result = await raw.query<R>(text, values ? [...values] : undefined);
          return result.rows;
        },
        async exec(script: string) {
          await raw.exec(script);
        },
      };
      const value = await fn(tx);
      if (hook) await hook(tx, instanceId!);
      return value;
    });
  }

  return {
    kind: 'pglite',
    withInstance: (instanceId, fn, options) => run(enterInstance(instanceId, options), fn, instanceId),
    withAuth: (fn) => run(ENTER_AUTH, fn),
    readAsAuth: (text, uuids) => run(ENTER_AUTH, (tx) => tx.query(inlineUuids(text, uuids))),
    asOwner: (fn) => run('', fn),
    async copyCsv(table, columns, csv) {
      await db.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`, [], {
        blob: new Blob([csv]),
      });
    },
    close: () => db.close(),
  };
}

/** How `openPostgres` connects. */
export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /**
   * Statements with parameters run as named prepared statements, each parsed once per connection
   * and then planned as PostgreSQL's plan cache decides (decision 038; default true). False behind a pooler that does not carry them
   * between transactions: PgBouncer before 1.21 in transaction pooling, or 1.21+ without
   * `max_prepared_statements`.
   */
  preparedStatements?: boolean;
  /**
   * Named statements one connection keeps (default 256). The connection that would prepare one
   * more runs it unnamed and is closed when its transaction ends, which frees the server's plans:
   * statement texts are few and fixed, but a text that carries values would otherwise grow
   * without bound.
   */
  preparedPerConnection?: number;
}

/**
 * The name of a statement's text: a hash, so the same text has the same name on every connection
 * and server. Remembered for the most recent texts (cleared when full), so a hot statement is
 * hashed once, not per call.
 */
function statementNamer(): (text: string) => string {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (name === undefined) {
      if (names.size >= 4096) names.clear();
      name = `b_${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
}

/** A PostgreSQL server through a `pg` pool. */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
  const typeParsers = new Map<number, (value: string) => unknown>([
    [OID.int8, asIs],
    [OID.numeric, asIs],
    [OID.date, asIs],
    [OID.timestamp, isoTimestamp],
    [OID.timestamptz, isoTimestamp],
  ]);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        typeParsers.get(oid) ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('connect', (client) => {
    void client.query("SET TIME ZONE 'UTC'");
  });
  // Fail at start-up, with the server's message, rather than at the first request.
  const probe = await pool.connect();
  probe.release();

  const prepared = options.preparedStatements ?? true;
  const perConnection = options.preparedPerConnection ?? 256;
  const nameOf = statementNamer();
  // The names each connection has prepared; a connection over its bound is closed on release.
  const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
  const retiring = new WeakSet<pg.PoolClient>();

  /** The statement to send: named when `prepared` and it has parameters and the connection has room. */
  function statement(client: pg.PoolClient, text: string, values: readonly unknown[] | undefined): string | pg.QueryConfig {
    if (!prepared || !values || values.length === 0) return text;
    const name = nameOf(text);
    let names = preparedOn.get(client);
    if (!names) preparedOn.set(client, (names = new Set()));
    if (!names.has(name)) {
      if (names.size >= perConnection) {
        retiring.add(client);
        return text;
      }
      names.add(name);
    }
    return { name, text, values: [...values] };
  }

  /** Runs `fn` on a pooled client; on failure rolls back whatever is open and drops a client that cannot. */
  async function onClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken = false;
    try {
      return await fn(client);
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken || retiring.has(client));
    }
  }

  function run<T>(enter: string, fn: (tx: Tx) => Promise<T>, instanceId?: string): Promise<T> {
    const hook = instanceId ? beforeCommit.getStore() : undefined;
    return onClient(async (client) => {
      await client.query(enter ? `BEGIN; ${enter}` : 'BEGIN');
      const tx: Tx = {
        async query<R extends Row>(text: string, values?: readonly unknown[]) {
          const sent = statement(client, text, values);
          const result = typeof sent === 'string' ? await client.query<R>(sent, values ? [...values] : undefined) : await client.query<R>(sent);
          return result.rows;
        },
        async exec(script: string) {
          await client.query(script);
        },
      };
      const value = await fn(tx);
      if (hook) await hook(tx, instanceId!);
      await client.query('COMMIT');
      return value;
    });
  }

  return {
    kind: 'postgres',
    withInstance: (instanceId, fn, options) => run(enterInstance(instanceId, options), fn, instanceId),
    withAuth: (fn) => run(ENTER_AUTH, fn),
    readAsAuth<R extends Row>(text: string, uuids: readonly string[]) {
      // One message; on an error it stops at the failing statement, and onClient rolls back.
      const script = `BEGIN; ${ENTER_AUTH}; ${inlineUuids(text, uuids)}; COMMIT`;
      return onClient(async (client) => ((await client.query(script)) as unknown as pg.QueryResult<R>[])[2]!.rows);
    },
    asOwner: (fn) => run('', fn),
    async copyCsv(table, columns, csv) {
      const { from } = await import('pg-copy-streams');
      const client = await pool.connect();
      try {
        const stream = client.query(from(`COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`));
        await new Promise<void>((resolve, reject) => {
          stream.on('finish', resolve);
          stream.on('error', reject);
          stream.end(csv);
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
