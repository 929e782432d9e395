/**
 * Two-factor authentication with TOTP (spec §2.6, §4 "Two-factor settings", §7.2, §8, §9): the
 * profile's set/unset flow and the second step of a sign-in (`POST /napi/auth/2fa`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { MAX_TWO_FACTOR_ATTEMPTS } from '@bilan/domain';
import type { Database, Tx } from '../../db/database.js';
import type { AppError } from '../../http/errors.js';
import { recordAudit, type AuditRecord } from '../audit/audit.service.js';
import { instanceNames } from '../instances/instances.service.js';
import { identityError } from './identity.errors.js';
import type { ClientMeta, IssuedSession, SessionService } from './session.service.js';
import { newTotpSecret, secretOfUrl, totpUrl, verifyTotp } from './totp.js';

/** Spec §8, word for word. */
/** A sign-in that passed its first factor and needs the second (spec §7.2 "action '2FA'"). */
export interface SecondFactorRequired {
  action: '2FA';
  payload: string;
}

export const ACCOUNT_BLOCKED =
  'Due to multiple login attempts, your account has been temporarily blocked for security reasons. Please contact our support team for assistance in restoring access. Thank you for your cooperation.';
export const INVALID_CODE = 'Invalid two-factor code.';
export const SECOND_FACTOR_EXPIRED = 'This sign-in has expired; please sign in again.';
/** A pending second factor lives 5 minutes. */
const SECOND_FACTOR_TTL_MS = 5 * 60 * 1000;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

export const blockedError = (): AppError => identityError('account_blocked', ACCOUNT_BLOCKED, { code: ACCOUNT_BLOCKED }, { blocked: true });

/** 400 for a wrong or reused code; `attempt` is its number when it was counted against the account. */
const invalidCode = (attempt?: number): AppError =>
  identityError('two_factor_code_invalid', INVALID_CODE, { code: INVALID_CODE }, attempt === undefined ? undefined : { attempt, maxAttempts: MAX_TWO_FACTOR_ATTEMPTS });

const audit = (meta: ClientMeta, record: Omit<AuditRecord, 'ip' | 'userAgent'>): AuditRecord => ({
  ...record,
  ip: meta.ip ?? null,
  userAgent: meta.userAgent?.slice(0, 500) ?? null,
});

/** True when the user has confirmed a TOTP secret. */
export async function hasTwoFactor(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.query('SELECT 1 FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL', [userId]);
  return Boolean(row);
}

/** Proposes a new secret (kept until confirmed by a valid code) and answers its otpauth:// URL. 409 when 2FA is already set. */
export async function proposeSecret(db: Database, userId: string): Promise<string> {
  return db.withAuth(async (tx) => {
    if (await hasTwoFactor(tx, userId)) throw identityError('two_factor_set', 'Two-factor authentication is already set');
    const [user] = await tx.query<{ email: string }>('SELECT email FROM app_user WHERE id = $1', [userId]);
    const secret = newTotpSecret();
    await tx.query(
      `INSERT INTO user_totp (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, enabled_at = NULL, last_step = NULL, created_at = now()`,
      [userId, secret],
    );
    return totpUrl(secret, user!.email);
  });
}

/** Confirms the proposed secret with a valid code: 2FA is set. 400 names `secretUrl` or `code`. */
export async function enableTwoFactor(db: Database, userId: string, secretUrl: string, code: string, meta: ClientMeta): Promise<void> {
  await db.withAuth(async (tx) => {
    const [row] = await tx.query<{ secret: string; enabled_at: string | null }>(
      'SELECT secret, enabled_at FROM user_totp WHERE user_id = $1 FOR UPDATE',
      [userId],
    );
    if (row?.enabled_at) throw identityError('two_factor_set', 'Two-factor authentication is already set');
    const secret = secretOfUrl(secretUrl);
    // Only the secret this server proposed may be set: a client cannot choose its own.
    if (!row || !secret || secret !== row.secret) throw identityError('totp_secret_unknown', 'Unknown secret url; ask for a new one', { secretUrl: 'Unknown secret url; ask for a new one' });
    const step = verifyTotp(secret, code, null);
    if (step === undefined) throw invalidCode();
    await tx.query('UPDATE user_totp SET enabled_at = now(), last_step = $2 WHERE user_id = $1', [userId, step]);
    await recordAudit(tx, audit(meta, { event: 'twofactor.enabled', userId }));
  });
}

/**
 * Turns 2FA off after a valid code of the current secret. 409 when it is not set. A wrong code
 * counts toward the same 5-attempt block as the sign-in step (someone at an unlocked screen must
 * not get unlimited guesses at the code that protects the account): 400 `code` with `attempt`,
 * then 403 with the spec §8 message, the account blocked and its sessions ended.
 */
export async function disableTwoFactor(db: Database, userId: string, instanceId: string | null, code: string, meta: ClientMeta): Promise<void> {
  const failures = await db.withAuth(async (tx) => {
    const [row] = await tx.query<{ secret: string; last_step: string | null }>(
      'SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL FOR UPDATE',
      [userId],
    );
    if (!row) throw identityError('two_factor_not_set', 'Two-factor authentication is not set');
    const attempt = await countSecondFactorAttempt(tx, userId, instanceId, 'unset', meta);
    if (attempt > MAX_TWO_FACTOR_ATTEMPTS) return attempt;
    if (verifyTotp(row.secret, code, row.last_step === null ? null : Number(row.last_step)) === undefined) {
      // Returned, not thrown: the count must commit with this transaction.
      await recordSecondFactorFailure(tx, userId, instanceId, 'unset', meta, attempt);
      return attempt;
    }
    await tx.query('DELETE FROM user_totp WHERE user_id = $1', [userId]);
    await tx.query('UPDATE app_user SET failed_second_factor = 0 WHERE id = $1', [userId]);
    await recordAudit(tx, audit(meta, { event: 'twofactor.disabled', userId }));
    return 0;
  });
  if (failures > MAX_TWO_FACTOR_ATTEMPTS) throw blockedError();
  if (failures > 0) throw invalidCode(failures);
}

/**
 * Counts a second-factor attempt against the account *before* its code is looked at and answers
 * the attempt's number (issue 11 §5: counting after the check let 10 parallel guesses all be
 * checked). The conditional UPDATE locks the user's row until the caller's transaction ends, so
 * parallel attempts of one account queue and each sees the count of those before it: at most
 * MAX_TWO_FACTOR_ATTEMPTS codes are ever checked. The attempt past the maximum blocks the account
 * (its code unchecked), ends its sessions and pending sign-ins; a blocked account answers 403 at
 * once. A right code resets the count in the same transaction.
 */
async function countSecondFactorAttempt(tx: Tx, userId: string, instanceId: string | null, method: string, meta: ClientMeta): Promise<number> {
  const [row] = await tx.query<{ failed_second_factor: number }>(
    `UPDATE app_user SET failed_second_factor = failed_second_factor + 1,
            blocked_at = CASE WHEN failed_second_factor + 1 > $2 THEN now() ELSE blocked_at END
      WHERE id = $1 AND blocked_at IS NULL RETURNING failed_second_factor`,
    [userId, MAX_TWO_FACTOR_ATTEMPTS],
  );
  if (!row) throw blockedError();
  const count = row.failed_second_factor;
  if (count > MAX_TWO_FACTOR_ATTEMPTS) {
    // A blocked account keeps no session: whoever holds one is signed out too.
    await tx.query('UPDATE auth_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
    await tx.query('UPDATE second_factor_login SET consumed_at = now() WHERE user_id = $1 AND consumed_at IS NULL', [userId]);
    await recordAudit(tx, audit(meta, { event: 'twofactor.blocked', userId, instanceId, detail: { attempt: count, method } }));
  }
  return count;
}

/** Audits a wrong code (twofactor.failure with the attempt number and where it happened, `method`). */
async function recordSecondFactorFailure(tx: Tx, userId: string, instanceId: string | null, method: string, meta: ClientMeta, attempt: number) {
  await recordAudit(tx, audit(meta, { event: 'twofactor.failure', userId, instanceId, detail: { attempt, method } }));
}

/** Records a sign-in that passed its first factor and answers the opaque payload for /login/2fa/{payload}. */
export async function startSecondFactor(tx: Tx, userId: string, instanceId: string, method: string): Promise<string> {
  const payload = randomBytes(32).toString('base64url');
  await tx.query(
    `INSERT INTO second_factor_login (token_hash, user_id, instance_id, method, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [sha256(payload), userId, instanceId, method, new Date(Date.now() + SECOND_FACTOR_TTL_MS)],
  );
  return payload;
}

/** The user of a pending, unexpired second-factor sign-in (for the per-account rate limit), or undefined. */
export async function pendingSecondFactorUser(db: Database, payload: string): Promise<string | undefined> {
  const [row] = await db.withAuth((tx) =>
    tx.query<{ user_id: string }>('SELECT user_id FROM second_factor_login WHERE token_hash = $1 AND expires_at > now()', [sha256(payload)]),
  );
  return row?.user_id;
}

export interface SecondFactorResult {
  session: IssuedSession;
  user: { uuid: string; email: string };
  instance: { uuid: string; name: string };
}

/**
 * The second step of a sign-in (POST /napi/auth/2fa). Wrong codes count per account: the n-th
 * answers 400 with `attempt: n`; more than MAX_TWO_FACTOR_ATTEMPTS (5) blocks the account (403
 * with the spec's message) until a superadmin unblocks it. A right code resets the count.
 */
export async function verifySecondFactor(
  db: Database,
  sessions: SessionService,
  payload: string,
  code: string,
  meta: ClientMeta,
): Promise<SecondFactorResult> {
  // One transaction from the count to the session: see countSecondFactorAttempt.
  const outcome = await db.withAuth(async (tx): Promise<{ failures: number } | { result: SecondFactorResult }> => {
    const [pending] = await tx.query<{ id: string; user_id: string; instance_id: string; method: string }>(
      `SELECT id, user_id, instance_id, method FROM second_factor_login
        WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now()`,
      [sha256(payload)],
    );
    if (!pending) throw identityError('second_factor_expired', SECOND_FACTOR_EXPIRED, { payload: SECOND_FACTOR_EXPIRED });
    const attempt = await countSecondFactorAttempt(tx, pending.user_id, pending.instance_id, pending.method, meta);
    if (attempt > MAX_TWO_FACTOR_ATTEMPTS) return { failures: attempt };
    // Read after the count's row lock, so a code another attempt just used is seen as used.
    const [totp] = await tx.query<{ secret: string; last_step: string | null }>(
      'SELECT secret, last_step FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL',
      [pending.user_id],
    );
    const step = totp ? verifyTotp(totp.secret, code, totp.last_step === null ? null : Number(totp.last_step)) : undefined;
    if (step === undefined) {
      await recordSecondFactorFailure(tx, pending.user_id, pending.instance_id, pending.method, meta, attempt);
      return { failures: attempt };
    }
    // Both updates are conditional, so two requests racing with the same code cannot both win.
    const [consumed] = await tx.query('UPDATE second_factor_login SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id', [
      pending.id,
    ]);
    const [used] = await tx.query(
      'UPDATE user_totp SET last_step = $2 WHERE user_id = $1 AND (last_step IS NULL OR last_step < $2) RETURNING user_id',
      [pending.user_id, step],
    );
    if (!consumed || !used) throw invalidCode();
    await tx.query('UPDATE app_user SET failed_second_factor = 0 WHERE id = $1', [pending.user_id]);
    const [member] = await tx.query<{ email: string }>(
      `SELECT u.email FROM app_user u JOIN instance_member m ON m.user_id = u.id AND m.instance_id = $2 WHERE u.id = $1`,
      [pending.user_id, pending.instance_id],
    );
    // The workplace's name is asked of instances (it owns the instance table, issue 11 §3).
    const name = member && (await instanceNames(tx, [pending.instance_id])).get(pending.instance_id);
    if (!member || name === undefined) throw identityError('sign_in_forbidden', 'Could not log you in');
    const row = { email: member.email, name };
    const session = await sessions.start(tx, pending.user_id, pending.instance_id, meta);
    await recordAudit(
      tx,
      audit(meta, { event: 'signin.success', userId: pending.user_id, instanceId: pending.instance_id, detail: { method: pending.method, secondFactor: 'totp' } }),
    );
    return { result: { session, user: { uuid: pending.user_id, email: row.email }, instance: { uuid: pending.instance_id, name: row.name } } };
  });
  if ('result' in outcome) return outcome.result;
  if (outcome.failures > MAX_TWO_FACTOR_ATTEMPTS) throw blockedError();
  throw invalidCode(outcome.failures);
}

/** Support's unblock (superadmin): clears the block and the failure count. */
export async function unblockUser(db: Database, userId: string, by: string | null, meta: ClientMeta): Promise<boolean> {
  return db.withAuth(async (tx) => {
    const [row] = await tx.query('UPDATE app_user SET blocked_at = NULL, failed_second_factor = 0 WHERE id = $1 RETURNING id', [userId]);
    if (row) await recordAudit(tx, audit(meta, { event: 'account.unblocked', userId, detail: { by } }));
    return Boolean(row);
  });
}
