/**
 * One owner per table (issue 11 §3): `src/db/ownership.ts` names every table of the catalogue, and
 * no module's SQL names a table another module owns. The scan is a tolerant regex over the known
 * table names after the SQL words that name a table (FROM, JOIN, INTO, UPDATE, REFERENCES, TABLE).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { PUBLISHED_VIEW_OWNER, TABLE_OWNER, type TableName } from '../../src/db/ownership.js';
import { openTestDatabase } from '../helpers.js';

const SRC = join(import.meta.dirname, '../../src');

/** Every .ts file (not tests) under `dir`, paths relative to src/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

/** The module a source file belongs to: `modules/<m>/…` → m, `http/…` → http, `cli.ts` → cli. */
const moduleOf = (file: string): string => (file.startsWith('modules/') ? file.split('/')[1]! : file.split(/[/.]/)[0]!);

const TABLE_WORDS = /\b(?:FROM|JOIN|INTO|UPDATE|REFERENCES|TABLE)\s+([a-z_]+)\b/g;

interface Use {
  file: string;
  line: number;
  table: TableName;
  owner: string;
}

/** Every place where a module's SQL names a table that another module owns. */
function foreignTableUses(): Use[] {
  const files = [...sources(join(SRC, 'modules')), ...sources(join(SRC, 'http')), 'cli.ts'];
  const uses: Use[] = [];
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const module = moduleOf(file);
    for (const match of text.matchAll(TABLE_WORDS)) {
      const table = match[1] as TableName;
      const owner = TABLE_OWNER[table] as string | undefined;
      if (!owner || owner === module || owner === 'db') continue;
      const line = text.slice(0, match.index).split('\n').length;
      uses.push({ file, line, table, owner });
    }
  }
  return uses;
}

describe('table ownership', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase());
  });
  afterAll(async () => drop?.());

  it('names an owner for every table of the catalogue, and no table that does not exist', async () => {
    const rows = await db.asOwner((tx) =>
      tx.query<{ table: string }>(
        `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migration'
          ORDER BY 1`,
      ),
    );
    const catalogue = rows.map((r) => r.table);
    expect(catalogue.filter((t) => !(t in TABLE_OWNER))).toEqual([]);
    expect(Object.keys(TABLE_OWNER).filter((t) => !catalogue.includes(t))).toEqual([]);
  });

  it('names an owner for every view of the catalogue: a view is a published read (decision 037), invoker rights', async () => {
    const rows = await db.asOwner((tx) =>
      tx.query<{ view: string; options: string[] | null }>(
        `SELECT c.relname AS view, c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind = 'v' ORDER BY 1`,
      ),
    );
    expect(rows.map((r) => r.view)).toEqual(Object.keys(PUBLISHED_VIEW_OWNER).sort());
    // Without security_invoker a view reads as its owner, past the tenant's row security.
    for (const row of rows) expect(row.options ?? [], row.view).toContain('security_invoker=true');
  });

  it('a published view shows the entered instance only, like the table behind it', async () => {
    const [a, b] = await db.asOwner((tx) => tx.query<{ id: string }>("INSERT INTO instance (name) VALUES ('View A'), ('View B') RETURNING id"));
    await db.asOwner((tx) => tx.query("INSERT INTO company (instance_id, name) VALUES ($1, 'Only A'), ($2, 'Only B')", [a!.id, b!.id]));
    const seen = await db.withInstance(a!.id, (tx) => tx.query<{ name: string }>('SELECT name FROM company_head ORDER BY name'));
    expect(seen.map((r) => r.name)).toEqual(['Only A']);
  });

  it("finds no module naming another module's table: each asks the owner's exported functions", () => {
    const violations = foreignTableUses().map((u) => `${u.file}:${u.line} names ${u.table} (owned by ${u.owner})`);
    expect(violations).toEqual([]);
  });

  it('would see a foreign table named in SQL (the scan itself can fail)', () => {
    const probe = 'SELECT p.id FROM payable p JOIN company c ON c.uuid = p.company_uuid';
    expect([...probe.matchAll(TABLE_WORDS)].map((m) => m[1])).toEqual(['payable', 'company']);
  });
});
