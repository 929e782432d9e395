/**
 * The migrated PGlite template of the build (decision 041): a new data directory copied from it has
 * every migration applied and recorded, so the start applies none; its key follows the migrations'
 * names and texts, so a changed or added file makes the build write it again and the server leave a
 * stale one unused. PGlite only: PostgreSQL servers are never started from a template.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/database.js';
import { migrate, migrationChecksum } from '../../src/db/migrate.js';
import { installedPgliteVersion, migrationsKey, templateDirName, templateKey, writePgliteTemplate } from '../../src/db/pglite-template.js';
import { engine } from '../helpers.js';

let work: string;
let migrations: string;
const write = (name: string, sql: string) => writeFileSync(join(migrations, name), sql);

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'bilan-template-test-'));
  migrations = mkdtempSync(join(work, 'migrations-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(engine !== 'pglite')('the PGlite template', () => {
  it('starts a new data directory with every migration applied and recorded: migrate applies nothing', { timeout: 120_000 }, async () => {
    write('0001_first.sql', 'CREATE TABLE m_first (id int PRIMARY KEY);');
    write('0002_second.sql', "CREATE TABLE m_second (code text PRIMARY KEY);\nINSERT INTO m_second VALUES ('CHF'), ('EUR');");
    const template = join(work, 'template');
    await writePgliteTemplate(template, migrations);
    // A second build replaces it whole.
    await writePgliteTemplate(template, migrations);

    cpSync(template, join(work, 'data'), { recursive: true });
    const db = await openPglite(join(work, 'data'));
    try {
      expect(await migrate(db, migrations)).toEqual([]);
      expect(await db.asOwner((tx) => tx.query('SELECT code FROM m_second ORDER BY code'))).toEqual([{ code: 'CHF' }, { code: 'EUR' }]);
      expect(await db.asOwner((tx) => tx.query('SELECT name, checksum FROM schema_migration ORDER BY name'))).toEqual([
        { name: '0001_first.sql', checksum: migrationChecksum('CREATE TABLE m_first (id int PRIMARY KEY);') },
        { name: '0002_second.sql', checksum: migrationChecksum("CREATE TABLE m_second (code text PRIMARY KEY);\nINSERT INTO m_second VALUES ('CHF'), ('EUR');") },
      ]);
      // A migration added after the build still applies on top of the template.
      write('0003_third.sql', 'CREATE TABLE m_third (id int);');
      expect(await migrate(db, migrations)).toEqual(['0003_third.sql']);
    } finally {
      await db.close();
    }
  });

  it('is keyed by the migrations: a changed text or an added file gives another key, other files none', () => {
    write('0001_first.sql', 'CREATE TABLE m_first (\n  id int\n);\n');
    const first = migrationsKey(migrations);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    write('notes.txt', 'not a migration');
    expect(migrationsKey(migrations)).toBe(first);
    // CRLF line endings are the same text (migrationChecksum).
    write('0001_first.sql', 'CREATE TABLE m_first (\r\n  id int\r\n);\r\n');
    expect(migrationsKey(migrations)).toBe(first);
    write('0001_first.sql', 'CREATE TABLE m_first (\n  id bigint\n);\n');
    const changed = migrationsKey(migrations);
    expect(changed).not.toBe(first);
    write('0002_second.sql', 'SELECT 1;');
    expect(migrationsKey(migrations)).not.toBe(changed);
    // Each key's template has a directory of its own.
    const pglite = installedPgliteVersion();
    expect(pglite).toMatch(/^\d+\.\d+\.\d+/);
    expect(templateDirName({ pglite, migrations: first })).not.toBe(templateDirName({ pglite, migrations: changed }));
    expect(templateDirName({ pglite, migrations: first })).not.toBe(templateDirName({ pglite: '0.0.1', migrations: first }));
  });

  it('reads the recorded key, and no key from a missing or damaged file', () => {
    const meta = join(work, 'template.json');
    expect(templateKey(meta)).toBeNull();
    writeFileSync(meta, '{"pglite":"0.5.16","migrations":"abc"}\n');
    expect(templateKey(meta)).toEqual({ pglite: '0.5.16', migrations: 'abc' });
    writeFileSync(meta, '{"pglite":');
    expect(templateKey(meta)).toBeNull();
  });
});
