/**
 * `npm run cli -- user superadmin|unblock --email X` (issue #3 §4), run as its own process on its
 * own connection like an operator would.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite, type Database } from '../../src/db/database.js';
import { engine, openTestDatabase } from '../helpers.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
let env: NodeJS.ProcessEnv;
let cleanup: () => Promise<void>;
let inspect: <T>(fn: (db: Database) => Promise<T>) => Promise<T>;

beforeAll(async () => {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete base.DATABASE_URL;
  delete base.BILAN_DATA_DIR;
  delete base.INIT_CWD;
  if (engine === 'postgres') {
    const database = await openTestDatabase();
    env = { ...base, DATABASE_URL: database.url };
    inspect = (fn) => fn(database.db);
    cleanup = database.drop;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'bilan-cli-user-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    env = { ...base, BILAN_DATA_DIR: dataDir };
    inspect = async (fn) => {
      const db = await openPglite(join(dataDir, 'pglite'));
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  await inspect((db) =>
    db.withAuth((tx) => tx.query(`INSERT INTO app_user (email, blocked_at, failed_second_factor) VALUES ('support@example.ch', now(), 6)`)),
  );
});
afterAll(async () => cleanup?.());

const cli = (...args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('npx', ['tsx', 'src/cli.ts', ...args], { cwd: SERVER_DIR, env }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr: stderr.split('\n').filter((l) => !l.startsWith('npm warn')).join('\n') }),
    );
  });

const user = () =>
  inspect((db) =>
    db.withAuth(async (tx) => (await tx.query<{ is_superadmin: boolean; blocked_at: string | null }>(`SELECT is_superadmin, blocked_at FROM app_user WHERE email = 'support@example.ch'`))[0]!),
  );

describe('cli user', () => {
  it('makes a user superadmin and takes it back', async () => {
    const made = await cli('user', 'superadmin', '--email', 'Support@Example.ch');
    expect(made.code).toBe(0);
    expect(made.stdout.trim()).toBe('support@example.ch is now a superadmin');
    expect((await user()).is_superadmin).toBe(true);
    const revoked = await cli('user', 'superadmin', '--email', 'support@example.ch', '--revoke');
    expect(revoked.stdout.trim()).toBe('support@example.ch is no longer a superadmin');
    expect((await user()).is_superadmin).toBe(false);
  }, 60_000);

  it('unblocks an account, and names unknown e-mails and missing options', async () => {
    const unblocked = await cli('user', 'unblock', '--email', 'support@example.ch');
    expect(unblocked.code).toBe(0);
    expect((await user()).blocked_at).toBeNull();
    const unknown = await cli('user', 'superadmin', '--email', 'nobody@example.ch');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no user with e-mail "nobody@example.ch"');
    const missing = await cli('user', 'superadmin');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--email is required');
  }, 60_000);
});
