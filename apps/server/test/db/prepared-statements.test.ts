/**
 * Named prepared statements on a PostgreSQL server (decision 038): a statement with parameters is
 * parsed and planned once per connection, a connection keeps a bounded number of them, and the
 * switch for poolers that do not carry them leaves none behind. PGlite has no connections to keep
 * them on, so these run on PostgreSQL only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/database.js';
import { engine, openTestDatabase } from '../helpers.js';

const onPostgres = engine === 'postgres';

describe.runIf(onPostgres)('named prepared statements (decision 038)', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  const pools: Database[] = [];
  const open = async (options: Parameters<typeof openPostgres>[1]) => {
    const db = await openPostgres(database.url!, { max: 1, ...options });
    pools.push(db);
    return db;
  };
  // What the one connection of a pool has prepared, and which backend it is.
  const preparedOn = (db: Database) =>
    db.asOwner(async (tx) => {
      const [backend] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const statements = await tx.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements ORDER BY name');
      return { pid: backend!.pid, statements };
    });

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const db of pools) await db.close();
    await database?.drop();
  });

  it('prepares a statement with parameters once per connection and runs it again by name', async () => {
    const db = await open({});
    const text = 'SELECT $1::int + 1 AS next';
    for (const value of [1, 2, 3]) {
      const [row] = await db.asOwner((tx) => tx.query<{ next: number }>(text, [value]));
      expect(row!.next).toBe(value + 1);
    }
    const { statements } = await preparedOn(db);
    expect(statements.filter((s) => s.statement === text)).toHaveLength(1);
    expect(statements.find((s) => s.statement === text)!.name).toMatch(/^b_[\w-]{27}$/);
  });

  it('leaves statements without parameters unnamed (scripts, BEGIN, the tenant switch)', async () => {
    const db = await open({});
    await db.asOwner((tx) => tx.query('SELECT 41 AS plain'));
    const { statements } = await preparedOn(db);
    expect(statements.some((s) => s.statement.includes('41 AS plain'))).toBe(false);
  });

  it('runs unnamed past the bound and replaces the connection when its transaction ends', async () => {
    const db = await open({ preparedPerConnection: 2 });
    const before = await preparedOn(db);
    const answers = await db.asOwner(async (tx) => {
      const out: number[] = [];
      for (const n of [1, 2, 3]) {
        const [row] = await tx.query<{ n: number }>(`SELECT $1::int * ${n} AS n`, [10]);
        out.push(row!.n);
      }
      return out;
    });
    expect(answers).toEqual([10, 20, 30]);
    const after = await preparedOn(db);
    // The third text ran unnamed, and the connection that held two was closed: a new backend with none.
    expect(after.pid).not.toBe(before.pid);
    expect(after.statements.filter((s) => s.statement.startsWith('SELECT $1::int *'))).toHaveLength(0);
  });

  it('keeps running a named statement after an error rolled its transaction back', async () => {
    const db = await open({});
    const text = 'SELECT 1 / $1::int AS quotient';
    await expect(db.asOwner((tx) => tx.query(text, [0]))).rejects.toThrow(/division by zero/);
    const [row] = await db.asOwner((tx) => tx.query<{ quotient: number }>(text, [1]));
    expect(row!.quotient).toBe(1);
  });

  it('plans once for any values in a transaction asked for generic plans, and only in that transaction', async () => {
    const db = await open({});
    const instanceId = crypto.randomUUID();
    // A statement PostgreSQL would plan for its values on its first five runs at least.
    const text = 'SELECT count(*)::int AS n FROM generate_series(1, $1::int) g WHERE g > $2::int';
    const plans = async () => {
      const rows = await db.asOwner((tx) =>
        tx.query<{ generic_plans: string; custom_plans: string }>('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1', [text]),
      );
      return { generic: Number(rows[0]?.generic_plans ?? 0), custom: Number(rows[0]?.custom_plans ?? 0) };
    };
    const modes: string[] = [];
    for (const value of [10, 20, 30]) {
      const [row] = await db.withInstance(
        instanceId,
        async (tx) => {
          modes.push((await tx.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode"))[0]!.mode);
          return tx.query<{ n: number }>(text, [value, 5]);
        },
        { genericPlans: true },
      );
      expect(row!.n).toBe(value - 5);
    }
    expect(modes).toEqual(['force_generic_plan', 'force_generic_plan', 'force_generic_plan']);
    expect(await plans()).toEqual({ generic: 3, custom: 0 });
    // The next transaction on the same connection plans as PostgreSQL chooses again.
    const [after] = await db.withInstance(instanceId, async (tx) => {
      const [mode] = await tx.query<{ mode: string }>("SELECT current_setting('plan_cache_mode') AS mode");
      await tx.query(text, [40, 5]);
      return [mode!.mode];
    });
    expect(after).toBe('auto');
    expect(await plans()).toEqual({ generic: 3, custom: 1 });
  });

  it('prepares nothing when switched off (PgBouncer before 1.21 in transaction pooling)', async () => {
    const db = await open({ preparedStatements: false });
    const [row] = await db.asOwner((tx) => tx.query<{ next: number }>('SELECT $1::int + 2 AS next', [1]));
    expect(row!.next).toBe(3);
    expect((await preparedOn(db)).statements).toEqual([]);
  });
});
