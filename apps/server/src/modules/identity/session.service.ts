/**
 * Sessions (DESIGN.md "sessions"): a short-lived access token (JWT, HS256) sent as bearer, and a
 * refresh token in an httpOnly SameSite=Strict cookie. Only the SHA-256 of a refresh token is
 * stored; each refresh rotates it, and presenting an already rotated token revokes its family
 * (OAuth 2.0 Security BCP, RFC 9700 §4.14.2 "refresh token rotation").
 *
 * The server enforces both session limits itself (ASVS 5 V7.3.1, V7.3.2), not only the web: a
 * family idle for more than 30 minutes (spec §9) or older than 12 hours is refused and revoked at
 * its next refresh. Activity is what the web reports with its refresh (`idleMs`: time since the
 * last user input in any tab); a refresh without a report is not activity. A refresh token also
 * expires 30 minutes after it was issued, so a copy used after the browser went quiet is refused
 * whatever activity it claims.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { IDLE_TIMEOUT_MS, zUuid, type RoleName } from '@bilan/domain';
import type { Config } from '../../config.js';
import type { Database, Tx } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import { recordAudit } from '../audit/audit.service.js';
import { instanceNames } from '../instances/instances.service.js';

/** Access tokens live 15 minutes; the web refreshes every 8 (spec §9). */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
/** Idle limit of a session family (spec §9 "Idle time-out 30 minutes"); also the lifetime of one refresh token. */
export const SESSION_IDLE_TIMEOUT_MS = IDLE_TIMEOUT_MS;
/** Absolute limit of a session family: 12 hours after sign-in the user signs in again, active or not. */
export const SESSION_MAX_AGE_MS = 12 * 60 * 60 * 1000;
export const REFRESH_COOKIE = 'bilan_refresh';

/** Spec §8, word for word: the web stores it as login_error when the server refuses an idle session. */
export const SESSION_IDLE_MESSAGE = 'Inactivity exceeded 30min; you were automatically signed out';
export const SESSION_TOO_OLD_MESSAGE = 'Your session is older than 12 hours; please sign in again';

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  /**
   * When the cookie should expire: the family's absolute end. The token itself is refused earlier
   * once idle; keeping the cookie lets the server say why (idle) instead of a bare 401.
   */
  refreshExpiresAt: Date;
  /** The instance the session is in (a refresh answers it, so a tab notices a switch made elsewhere). */
  instanceId: string;
  /** The signed-in user. */
  userId: string;
}

/** Why a refresh was refused: `idle` and `expired` revoke the family; `invalid` covers unknown, revoked, replayed and non-member. */
export type RefreshRefusal = 'invalid' | 'idle' | 'expired';

export interface SessionSummary {
  /** The session family id. */
  id: string;
  instance: { uuid: string; name: string };
  startedAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
}

export interface ClientMeta {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();

/** Reads a named secret, creating it once (shared by every server on the same database). */
export async function serverSecret(db: Database, name: string, create: () => string | Promise<string>): Promise<string> {
  const read = async () =>
    (await db.withAuth((tx) => tx.query<{ value: string }>('SELECT value FROM server_secret WHERE name = $1', [name])))[0]?.value;
  const existing = await read();
  if (existing !== undefined) return existing;
  const value = await create();
  // Two servers starting at once: the first insert wins and both read it back.
  await db.withAuth((tx) =>
    tx.query('INSERT INTO server_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, value]),
  );
  return (await read())!;
}

/** Access tokens whose signature and claims were verified, kept at most this many (oldest dropped). */
const VERIFIED_TOKENS_KEPT = 10_000;

interface VerifiedToken {
  payload: { sub: string; iid: string; sid: string } & Record<string, unknown>;
  /** Expiry, seconds since the epoch (the token's `exp`). */
  exp: number;
}

export class SessionService {
  /**
   * Signature checks already made, by token text: an HMAC through WebCrypto is an async job on
   * the thread pool, ~3 % of a list request's CPU (bench:lists profile, issue 18 §2). The same
   * text verifies the same way until it expires, so only `exp` is checked again; the session row
   * (below) is still read on every call, as decision 005 wants.
   */
  private readonly verified = new Map<string, VerifiedToken>();

  private constructor(
    private readonly db: Database,
    private readonly key: Uint8Array,
    private readonly issuer: string,
  ) {}

  static async create(db: Database, config: Config): Promise<SessionService> {
    const secret = await serverSecret(db, 'jwt-hs256', () => randomBytes(32).toString('base64url'));
    return new SessionService(db, Buffer.from(secret, 'base64url'), config.publicUrl);
  }

  /** Signs an access token for a member of an instance. */
  async signAccessToken(claims: AuthContext): Promise<string> {
    return new SignJWT({ iid: claims.instanceId, role: claims.role, sid: claims.sessionId, su: claims.isSuperadmin })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(this.issuer)
      .setAudience('bilan')
      .setIssuedAt()
      .setExpirationTime(`${ACCESS_TOKEN_TTL_S}s`)
      .sign(this.key);
  }

  /**
   * A short-lived signed token for one purpose other than access (e.g. binding a WebAuthn
   * challenge to its ceremony): a different audience, so it is never accepted as an access token.
   */
  async signPurposeToken(claims: Record<string, string>, purpose: string, ttlSeconds: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(`bilan-${purpose}`)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid purpose token, or null. */
  async verifyPurposeToken(token: string, purpose: string): Promise<Record<string, unknown> | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: this.issuer, audience: `bilan-${purpose}`, algorithms: ['HS256'] });
      return payload as Record<string, unknown>;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  /** The claims of an access token whose signature, issuer, audience and expiry hold, or null. Throws only on a non-JOSE error. */
  private async verifiedPayload(token: string): Promise<VerifiedToken['payload'] | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known.payload;
      this.verified.delete(token);
      return null;
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { issuer: this.issuer, audience: 'bilan', algorithms: ['HS256'] }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
    const { sub, iid, sid, exp } = payload;
    if (typeof sub !== 'string' || typeof iid !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    const verified = { payload: { ...payload, sub, iid, sid }, exp };
    this.verified.set(token, verified);
    return verified.payload;
  }

  /** The context of a valid, unexpired access token, or null. */
  async verifyAccessToken(token: string): Promise<AuthContext | null> {
    try {
      const payload = await this.verifiedPayload(token);
      if (!payload) return null;
      // The token alone is not enough: its session must still be alive (logout, "sign out
      // everywhere", a blocked account end it at once) and the role is read fresh, so a role
      // change or a removal takes effect on the next call, not when the token expires. The
      // family's live row must be in the token's instance: after an instance switch the tokens
      // of the old instance stop at once (another tab then refreshes into the new one).
      if (![payload.sid, payload.sub, payload.iid].every((value) => zUuid.safeParse(value).success)) return null;
      // One message to a server, the check's plan kept by PL/pgSQL (migration 0053).
      const [live] = await this.db.readAsAuth<{ role: RoleName; is_superadmin: boolean }>(
        'SELECT role, is_superadmin FROM session_check($1, $2, $3)',
        [payload.sid, payload.sub, payload.iid],
      );
      if (!live) return null;
      return {
        userId: payload.sub,
        instanceId: payload.iid,
        role: live.role,
        sessionId: payload.sid,
        isSuperadmin: live.is_superadmin,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  /** Starts a session family for a user in an instance (inside the caller's sign-in transaction). Signing in is activity. */
  async start(tx: Tx, userId: string, instanceId: string, meta: ClientMeta): Promise<IssuedSession> {
    const familyId = crypto.randomUUID();
    return this.insertToken(tx, { familyId, userId, instanceId, startedAt: null, activeAt: null }, meta);
  }

  /**
   * Inserts the live refresh token of a family. `startedAt`/`activeAt` carry the family's start and
   * last activity forward (null: now). The token expires after the idle limit, and never after the
   * family's absolute end; both are computed with the database clock, like every later check.
   */
  private async insertToken(
    tx: Tx,
    family: { familyId: string; userId: string; instanceId: string; startedAt: string | null; activeAt: string | null },
    meta: ClientMeta,
  ): Promise<IssuedSession> {
    const { familyId, userId, instanceId } = family;
    const refreshToken = randomBytes(32).toString('base64url');
    const [row] = await tx.query<{ family_ends_at: string }>(
      `INSERT INTO auth_session (family_id, user_id, instance_id, token_hash, ip, user_agent, family_started_at, last_active_at, expires_at)
       SELECT $1, $2, $3, $4, $5, $6, f.started_at, f.active_at,
              least(now() + make_interval(secs => $9::bigint / 1000.0), f.started_at + make_interval(secs => $10::bigint / 1000.0))
         FROM (SELECT coalesce($7::timestamptz, now()) AS started_at, coalesce($8::timestamptz, now()) AS active_at) f
       RETURNING family_started_at + make_interval(secs => $10::bigint / 1000.0) AS family_ends_at`,
      [
        familyId,
        userId,
        instanceId,
        sha256(refreshToken),
        meta.ip ?? null,
        meta.userAgent?.slice(0, 500) ?? null,
        family.startedAt,
        family.activeAt,
        SESSION_IDLE_TIMEOUT_MS,
        SESSION_MAX_AGE_MS,
      ],
    );
    const member = await this.membership(tx, userId, instanceId);
    if (!member) throw new Error('session started for a user who is not a member');
    const accessToken = await this.signAccessToken({
      userId,
      instanceId,
      role: member.role,
      sessionId: familyId,
      isSuperadmin: member.isSuperadmin,
    });
    return { accessToken, refreshToken, refreshExpiresAt: new Date(row!.family_ends_at), instanceId, userId };
  }

  private async membership(tx: Tx, userId: string, instanceId: string) {
    const [row] = await tx.query<{ role: RoleName; is_superadmin: boolean }>(
      `SELECT m.role, u.is_superadmin FROM instance_member m JOIN app_user u ON u.id = m.user_id
        WHERE m.user_id = $1 AND m.instance_id = $2`,
      [userId, instanceId],
    );
    return row ? { role: row.role, isSuperadmin: row.is_superadmin } : undefined;
  }

  /**
   * Rotates a refresh token: answers a new pair, or why not. `activity.idleMs` is the web's report of
   * how long ago the user last did something (any tab); the family's last activity moves forward to
   * it, never back. Refusals:
   * - a token that was already rotated is a stolen copy or a replay: its family is revoked (`invalid`);
   * - a family older than SESSION_MAX_AGE_MS (`expired`) or whose last activity is more than
   *   SESSION_IDLE_TIMEOUT_MS ago, or whose token outlived its own idle lifetime (`idle`), is revoked
   *   and the reason recorded in the audit trail;
   * - unknown or revoked tokens and users no longer members answer `invalid`.
   */
  async refresh(refreshToken: string, meta: ClientMeta, activity: { idleMs?: number | undefined } = {}): Promise<IssuedSession | { refused: RefreshRefusal }> {
    return this.db.withAuth(async (tx) => {
      const [row] = await tx.query<{
        id: string;
        family_id: string;
        user_id: string;
        instance_id: string;
        rotated_at: string | null;
        revoked_at: string | null;
        family_started_at: string;
        active_at: string;
        too_old: boolean;
        idle: boolean;
      }>(
        `SELECT id, family_id, user_id, instance_id, rotated_at, revoked_at, family_started_at, a.active_at,
                family_started_at <= now() - make_interval(secs => $3::bigint / 1000.0) AS too_old,
                (a.active_at <= now() - make_interval(secs => $4::bigint / 1000.0) OR expires_at <= now()) AS idle
           FROM auth_session,
                LATERAL (SELECT CASE WHEN $2::bigint IS NULL THEN last_active_at
                                     ELSE greatest(last_active_at, now() - make_interval(secs => $2::bigint / 1000.0)) END AS active_at) a
          WHERE token_hash = $1 FOR UPDATE OF auth_session`,
        [sha256(refreshToken), activity.idleMs ?? null, SESSION_MAX_AGE_MS, SESSION_IDLE_TIMEOUT_MS],
      );
      if (!row || row.revoked_at) return { refused: 'invalid' as const };
      const endFamily = async (event: 'refresh.reuse_detected' | 'session.expired', detail: Record<string, unknown>) => {
        await tx.query('UPDATE auth_session SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id]);
        await recordAudit(tx, {
          event,
          userId: row.user_id,
          instanceId: row.instance_id,
          ip: meta.ip ?? null,
          userAgent: meta.userAgent?.slice(0, 500) ?? null,
          detail: { family: row.family_id, ...detail },
        });
      };
      if (row.rotated_at) {
        await endFamily('refresh.reuse_detected', {});
        return { refused: 'invalid' as const };
      }
      if (row.too_old) {
        await endFamily('session.expired', { reason: 'absolute', startedAt: row.family_started_at });
        return { refused: 'expired' as const };
      }
      if (row.idle) {
        await endFamily('session.expired', { reason: 'idle', lastActiveAt: row.active_at });
        return { refused: 'idle' as const };
      }
      if (!(await this.membership(tx, row.user_id, row.instance_id))) return { refused: 'invalid' as const };
      await tx.query('UPDATE auth_session SET rotated_at = now() WHERE id = $1', [row.id]);
      return this.insertToken(
        tx,
        { familyId: row.family_id, userId: row.user_id, instanceId: row.instance_id, startedAt: row.family_started_at, activeAt: row.active_at },
        meta,
      );
    });
  }

  /**
   * Moves a session to another instance of the same user (spec §4 "Instance switch"): the live
   * refresh token of the family now refreshes into `instanceId`. Answers a new access token, or
   * undefined when the user is not a member there or the session is over.
   */
  async switchInstance(familyId: string, userId: string, instanceId: string): Promise<string | undefined> {
    return this.db.withAuth(async (tx) => {
      const member = await this.membership(tx, userId, instanceId);
      if (!member) return undefined;
      const moved = await tx.query(
        `UPDATE auth_session SET instance_id = $3, last_active_at = now()
          WHERE family_id = $1 AND user_id = $2 AND revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now()
          RETURNING id`,
        [familyId, userId, instanceId],
      );
      if (moved.length === 0) return undefined;
      return this.signAccessToken({ userId, instanceId, role: member.role, sessionId: familyId, isSuperadmin: member.isSuperadmin });
    });
  }

  /** The live session families of a user, newest activity first. */
  async list(userId: string): Promise<SessionSummary[]> {
    const rows = await this.db.withAuth((tx) =>
      tx.query<{ family_id: string; instance_id: string; started_at: string; last_seen_at: string; ip: string | null; user_agent: string | null }>(
        `SELECT DISTINCT ON (s.family_id) s.family_id, s.instance_id,
                min(s.created_at) OVER (PARTITION BY s.family_id) AS started_at, s.created_at AS last_seen_at, s.ip, s.user_agent
           FROM auth_session s
          WHERE s.user_id = $1
            AND s.family_id IN (SELECT family_id FROM auth_session
                                 WHERE user_id = $1 AND revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now())
          ORDER BY s.family_id, s.created_at DESC`,
        [userId],
      ),
    );
    const names = await this.db.withAuth((tx) => instanceNames(tx, rows.map((row) => row.instance_id)));
    return rows
      .map((row) => ({
        id: row.family_id,
        instance: { uuid: row.instance_id, name: names.get(row.instance_id) ?? '' },
        startedAt: row.started_at,
        lastSeenAt: row.last_seen_at,
        ip: row.ip,
        userAgent: row.user_agent,
      }))
      .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
  }

  /** Revokes one family of a user (or all of them without `familyId`); answers how many families ended. */
  async revokeFamilies(userId: string, familyId?: string): Promise<number> {
    return this.db.withAuth(async (tx) => {
      const rows = await tx.query(
        `UPDATE auth_session SET revoked_at = now()
          WHERE user_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR family_id = $2::uuid)
          RETURNING family_id`,
        [userId, familyId ?? null],
      );
      return new Set(rows.map((row) => row.family_id)).size;
    });
  }

  /** Revokes the family of a refresh token (logout); answers whose session it was, or undefined for an unknown token. */
  async revoke(refreshToken: string): Promise<{ userId: string; instanceId: string } | undefined> {
    return this.db.withAuth(async (tx) => {
      const [row] = await tx.query<{ family_id: string; user_id: string; instance_id: string }>(
        'SELECT family_id, user_id, instance_id FROM auth_session WHERE token_hash = $1',
        [sha256(refreshToken)],
      );
      if (!row) return undefined;
      await tx.query('UPDATE auth_session SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id]);
      return { userId: row.user_id, instanceId: row.instance_id };
    });
  }
}
