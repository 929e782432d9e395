/**
 * Users as the sign-in flows need them (identity owns app_user): find or create by e-mail, read
 * what decides a sign-in, flag development superadmins.
 */
import type { Tx } from '../../db/database.js';

/** The user with this e-mail (lower case, as providers' addresses are stored), created with the names when there is none; returns the id. */
export async function ensureUser(tx: Tx, input: { email: string; firstName: string; lastName: string }): Promise<string> {
  const [user] = await tx.query<{ id: string }>(
    `INSERT INTO app_user (email, first_name, last_name) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO UPDATE SET email = excluded.email
     RETURNING id`,
    [input.email, input.firstName, input.lastName],
  );
  return user!.id;
}

/** What decides a sign-in: the user's e-mail and when the account was blocked (null: not blocked). Undefined for an unknown id. */
export async function userAccount(tx: Tx, userId: string): Promise<{ email: string; blockedAt: string | null } | undefined> {
  const [row] = await tx.query<{ email: string; blocked_at: string | null }>('SELECT email, blocked_at FROM app_user WHERE id = $1', [userId]);
  return row ? { email: row.email, blockedAt: row.blocked_at } : undefined;
}

/** Makes the user a platform superadmin (development only: Config.devSuperadmins). */
export async function grantSuperadmin(tx: Tx, userId: string): Promise<void> {
  await tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1 AND NOT is_superadmin', [userId]);
}

/** The id of the user with this e-mail (stored lower case), undefined when there is none. */
export async function userIdByEmail(tx: Tx, email: string): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>('SELECT id FROM app_user WHERE email = $1', [email]);
  return row?.id;
}

/** Grants or takes platform support rights (the admin CLI, run as the database owner); false for an unknown e-mail. */
export async function setSuperadmin(tx: Tx, email: string, isSuperadmin: boolean): Promise<boolean> {
  const rows = await tx.query('UPDATE app_user SET is_superadmin = $2 WHERE email = $1 RETURNING id', [email, isSuperadmin]);
  return rows.length > 0;
}
