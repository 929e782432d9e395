/**
 * The migration runner (issue 11 §4) on both engines, with migration files of its own in a
 * temporary directory and an empty database: each file in its own transaction, once, and an
 * applied file that changed stops start-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/database.js';
import { migrate, migrationChecksum, MigrationError } from '../../src/db/migrate.js';
import { engine, openTestDatabase } from '../helpers.js';

let dir: string;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

const write = (name: string, sql: string) => writeFileSync(join(dir, name), sql);
const tables = async () =>
  (
    await db.asOwner((tx) =>
      tx.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name LIKE 'm\\_%' ORDER BY 1`,
      ),
    )
  ).map((row) => row.name);
const history = () =>
  db.asOwner((tx) => tx.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM schema_migration ORDER BY name'));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bilan-migrations-'));
  database = await openTestDatabase({ empty: true });
  db = database.db;
  write('0001_first.sql', 'CREATE TABLE m_first (id int PRIMARY KEY);');
  write('0002_second.sql', 'CREATE TABLE m_second (id int PRIMARY KEY);\nINSERT INTO m_second VALUES (1), (2);');
});
afterEach(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies pending files in name order once, recording their SHA-256; a second run applies nothing', async () => {
    write('notes.txt', 'not a migration');
    expect(await migrate(db, dir)).toEqual(['0001_first.sql', '0002_second.sql']);
    expect(await tables()).toEqual(['m_first', 'm_second']);
    expect(await history()).toEqual([
      { name: '0001_first.sql', checksum: migrationChecksum('CREATE TABLE m_first (id int PRIMARY KEY);') },
      { name: '0002_second.sql', checksum: migrationChecksum('CREATE TABLE m_second (id int PRIMARY KEY);\nINSERT INTO m_second VALUES (1), (2);') },
    ]);

    expect(await migrate(db, dir)).toEqual([]);
    expect(await db.asOwner((tx) => tx.query('SELECT count(*) AS rows FROM m_second'))).toEqual([{ rows: '2' }]);

    write('0003_third.sql', 'CREATE TABLE m_third (id int);');
    expect(await migrate(db, dir)).toEqual(['0003_third.sql']);
  });

  it('refuses to run when an applied file changed, naming it, and applies nothing then', async () => {
    await migrate(db, dir);
    write('0002_second.sql', 'CREATE TABLE m_second (id bigint PRIMARY KEY);');
    write('0003_third.sql', 'CREATE TABLE m_third (id int);');
    const refusal = await migrate(db, dir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(MigrationError);
    expect((refusal as Error).message).toContain(join(dir, '0002_second.sql'));
    expect((refusal as Error).message).not.toContain('0001_first.sql');
    expect(await tables()).toEqual(['m_first', 'm_second']);
  });

  it('takes a CRLF checkout of an applied file for the same file', async () => {
    await migrate(db, dir);
    write('0002_second.sql', 'CREATE TABLE m_second (id int PRIMARY KEY);\r\nINSERT INTO m_second VALUES (1), (2);');
    expect(await migrate(db, dir)).toEqual([]);
  });

  it('rolls back only the failing file: the earlier ones stay applied, the later ones wait', async () => {
    write('0003_broken.sql', 'CREATE TABLE m_broken (id int);\nINSERT INTO m_missing VALUES (1);');
    write('0004_later.sql', 'CREATE TABLE m_later (id int);');
    const failure = await migrate(db, dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(/^Migration 0003_broken\.sql failed and was rolled back: .*m_missing/);
    expect(await tables()).toEqual(['m_first', 'm_second']);
    expect((await history()).map((row) => row.name)).toEqual(['0001_first.sql', '0002_second.sql']);

    write('0003_broken.sql', 'CREATE TABLE m_broken (id int);');
    expect(await migrate(db, dir)).toEqual(['0003_broken.sql', '0004_later.sql']);
  });

  it('backfills the checksums of a history written before they were kept, then checks them', async () => {
    await db.asOwner((tx) =>
      tx.exec(`CREATE TABLE schema_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
               CREATE TABLE m_first (id int PRIMARY KEY);
               INSERT INTO schema_migration (name) VALUES ('0001_first.sql');`),
    );
    expect(await migrate(db, dir)).toEqual(['0002_second.sql']);
    expect((await history())[0]).toEqual({ name: '0001_first.sql', checksum: migrationChecksum('CREATE TABLE m_first (id int PRIMARY KEY);') });
    write('0001_first.sql', 'CREATE TABLE m_first (id int);');
    await expect(migrate(db, dir)).rejects.toThrow(/0001_first\.sql/);
  });

  it.skipIf(engine !== 'postgres')('lets several servers migrate at once: every file runs exactly once', async () => {
    for (let n = 3; n <= 8; n += 1) write(`000${n}_more.sql`, `CREATE TABLE m_more_${n} (id int);`);
    const others = await Promise.all([1, 2, 3].map(() => openPostgres(database.url!, { max: 1 })));
    try {
      const runs = await Promise.all([db, ...others].map((server) => migrate(server, dir)));
      expect(runs.flat().sort()).toEqual(['0001_first.sql', '0002_second.sql', ...[3, 4, 5, 6, 7, 8].map((n) => `000${n}_more.sql`)]);
    } finally {
      await Promise.all(others.map((other) => other.close()));
    }
  });
});
