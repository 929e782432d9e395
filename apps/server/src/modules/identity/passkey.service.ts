/**
 * Passkeys (WebAuthn Level 3) through @simplewebauthn/server (spec §2.6, §2.8, §4 "Passkey
 * registration", §5, §7.2, §9). Challenges are stored, single-use and expire with the ceremony's
 * 60 s time-out (plus slack for the network); the `jwt` of the spec binds a ceremony to its
 * challenge row and purpose.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { identityError } from './identity.errors.js';
import { recordAudit } from '../audit/audit.service.js';
import type { ClientMeta, SessionService } from './session.service.js';
import { acceptInvitations, memberRole } from './invitations.service.js';
import { instanceNames } from '../instances/instances.service.js';
import { blockedError, hasTwoFactor, startSecondFactor, type SecondFactorRequired, type SecondFactorResult } from './two-factor.service.js';

/** Spec §9: 60 seconds; ES256 (-7) and RS256 (-257). */
export const PASSKEY_TIMEOUT_MS = 60_000;
export const PASSKEY_ALGORITHMS = [-7, -257];
const CHALLENGE_TTL_MS = PASSKEY_TIMEOUT_MS + 30_000;

export const COULD_NOT_MATCH = 'could not match credentials';
export const INVALID_UUID = 'Invalid UUID format';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const rp = (config: Config) => {
  const url = new URL(config.publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Bilan' };
};

export interface RegistrationStart {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  jwt: string;
  /** The full options for the browser (`startRegistration({ optionsJSON })`). */
  options: PublicKeyCredentialCreationOptionsJSON;
}

export class PasskeyService {
  constructor(
    private readonly config: Config,
    private readonly db: Database,
    private readonly sessions: SessionService,
  ) {}

  private async storeChallenge(purpose: 'register' | 'login', challenge: string, userId: string, instanceId: string | null): Promise<string> {
    const [row] = await this.db.withAuth((tx) =>
      tx.query<{ id: string }>(
        `INSERT INTO webauthn_challenge (purpose, challenge, user_id, instance_id, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [purpose, challenge, userId, instanceId, new Date(Date.now() + CHALLENGE_TTL_MS)],
      ),
    );
    return this.sessions.signPurposeToken({ cid: row!.id, sub: userId }, `webauthn-${purpose}`, CHALLENGE_TTL_MS / 1000);
  }

  /** Consumes the challenge of a ceremony token (single use); undefined when unknown, used, expired or not this purpose. */
  private async consumeChallenge(jwt: string, purpose: 'register' | 'login') {
    const claims = await this.sessions.verifyPurposeToken(jwt, `webauthn-${purpose}`);
    if (!claims || typeof claims.cid !== 'string' || !UUID.test(claims.cid)) return undefined;
    const [row] = await this.db.withAuth((tx) =>
      tx.query<{ challenge: string; user_id: string; instance_id: string | null }>(
        `UPDATE webauthn_challenge SET consumed_at = now()
          WHERE id = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > now()
          RETURNING challenge, user_id, instance_id`,
        [claims.cid, purpose],
      ),
    );
    return row;
  }

  /** GET /napi/profile/webauthn/register: options for a new passkey of the signed-in user. */
  async startRegistration(userId: string): Promise<RegistrationStart> {
    const { id: rpID, name: rpName } = rp(this.config);
    const [user, existing] = await this.db.withAuth(async (tx) => [
      (await tx.query<{ email: string; first_name: string; last_name: string }>('SELECT email, first_name, last_name FROM app_user WHERE id = $1', [userId]))[0]!,
      await tx.query<{ id: string; transports: string[] }>('SELECT id, transports FROM webauthn_credential WHERE user_id = $1', [userId]),
    ] as const);
    const options = await generateRegistrationOptions({
      rpName,
      rpID,
      userName: user.email,
      userID: new TextEncoder().encode(userId),
      userDisplayName: `${user.first_name} ${user.last_name}`.trim() || user.email,
      timeout: PASSKEY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
      // No authenticatorAttachment: platform and cross-platform authenticators alike (spec §5).
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
    const jwt = await this.storeChallenge('register', options.challenge, userId, null);
    return { challenge: options.challenge, rp: options.rp, user: options.user, jwt, options };
  }

  /** POST /napi/profile/webauthn/register: verifies the attestation and stores the passkey. */
  async finishRegistration(
    userId: string,
    body: { jwt: string; credentialId: string; attestationObject: string; clientDataJSON: string; transports?: string[] | undefined },
    meta: ClientMeta,
  ): Promise<boolean> {
    const pending = await this.consumeChallenge(body.jwt, 'register');
    if (!pending || pending.user_id !== userId) throw identityError('passkey_registration_expired', 'The registration expired or was already used; please try again', { jwt: 'expired or used' });
    const { id: rpID, origin } = rp(this.config);
    let verification;
    try {
      verification = await verifyRegistrationResponse({
        response: {
          id: body.credentialId,
          rawId: body.credentialId,
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            attestationObject: body.attestationObject,
            clientDataJSON: body.clientDataJSON,
            transports: (body.transports ?? []) as AuthenticatorTransport[],
          },
        },
        expectedChallenge: pending.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
        supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
      });
    } catch (error) {
      throw identityError('passkey_unverified', `The passkey could not be verified: ${(error as Error).message}`, { attestationObject: 'could not be verified' });
    }
    if (!verification.verified) return false;
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    await this.db.withAuth(async (tx) => {
      await tx.query(
        `INSERT INTO webauthn_credential (id, user_id, public_key, counter, transports, device_type, backed_up)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [credential.id, userId, Buffer.from(credential.publicKey), credential.counter, body.transports ?? [], credentialDeviceType, credentialBackedUp],
      );
      await recordAudit(tx, {
        event: 'passkey.registered',
        userId,
        ip: meta.ip ?? null,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        detail: { credential: credential.id.slice(0, 16), deviceType: credentialDeviceType },
      });
    });
    return true;
  }

  /**
   * POST /napi/auth/webauthn/prelogin {uuid, instance}: a challenge for the user's passkeys. The
   * answer is the same shape whether or not the user exists or has passkeys (no enumeration):
   * an unknown user simply gets no authenticators.
   */
  async prelogin(userUuid: string, instanceId: string): Promise<{ challenge: string; authenticators: { credentialId: string; jwt: string }[]; options: PublicKeyCredentialRequestOptionsJSON }> {
    if (!UUID.test(userUuid)) throw identityError('invalid_uuid', INVALID_UUID, { uuid: INVALID_UUID });
    if (!UUID.test(instanceId)) throw identityError('invalid_uuid', INVALID_UUID, { instance: INVALID_UUID });
    const { id: rpID } = rp(this.config);
    const credentials = await this.db.withAuth((tx) =>
      tx.query<{ id: string; transports: string[] }>(
        `SELECT c.id, c.transports FROM webauthn_credential c
           JOIN instance_member m ON m.user_id = c.user_id AND m.instance_id = $2
          WHERE c.user_id = $1`,
        [userUuid, instanceId],
      ),
    );
    const options = await generateAuthenticationOptions({
      rpID,
      timeout: PASSKEY_TIMEOUT_MS,
      userVerification: 'required',
      allowCredentials: credentials.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
    });
    if (!credentials.length) return { challenge: options.challenge, authenticators: [], options };
    const jwt = await this.storeChallenge('login', options.challenge, userUuid, instanceId);
    return { challenge: options.challenge, authenticators: credentials.map((c) => ({ credentialId: c.id, jwt })), options };
  }

  /** POST /napi/auth/webauthn/login: verifies the assertion (user verification required, counter checked). */
  async login(
    body: { jwt: string; credentialId: string; authenticatorData: string; clientDataJSON: string; signature: string; userHandle?: string | undefined },
    meta: ClientMeta,
  ): Promise<SecondFactorResult | SecondFactorRequired> {
    const audit = async (event: 'passkey.failure', userId: string | null, reason: string, instanceId: string | null = null) =>
      this.db.withAuth((tx) =>
        recordAudit(tx, { event, userId, instanceId, ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 500) ?? null, detail: { reason } }),
      );
    const pending = await this.consumeChallenge(body.jwt, 'login');
    if (!pending || !pending.instance_id) {
      await audit('passkey.failure', null, 'unknown, used or expired challenge');
      throw identityError('passkey_sign_in_expired', 'The passkey sign-in expired; please try again');
    }
    const [stored] = await this.db.withAuth((tx) =>
      tx.query<{ public_key: Buffer | Uint8Array; counter: string; transports: string[] }>(
        'SELECT public_key, counter, transports FROM webauthn_credential WHERE id = $1 AND user_id = $2',
        [body.credentialId, pending.user_id],
      ),
    );
    if (!stored) {
      await audit('passkey.failure', pending.user_id, 'credential not registered for this user');
      throw identityError('passkey_not_matched', COULD_NOT_MATCH, { credentialId: COULD_NOT_MATCH });
    }
    const { id: rpID, origin } = rp(this.config);
    let verification;
    try {
      verification = await verifyAuthenticationResponse({
        response: {
          id: body.credentialId,
          rawId: body.credentialId,
          type: 'public-key',
          clientExtensionResults: {},
          response: {
            authenticatorData: body.authenticatorData,
            clientDataJSON: body.clientDataJSON,
            signature: body.signature,
            ...(body.userHandle ? { userHandle: body.userHandle } : {}),
          },
        },
        expectedChallenge: pending.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: body.credentialId,
          publicKey: new Uint8Array(stored.public_key),
          counter: Number(stored.counter),
          transports: stored.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (error) {
      await audit('passkey.failure', pending.user_id, (error as Error).message);
      throw identityError('passkey_not_matched', COULD_NOT_MATCH, { signature: (error as Error).message });
    }
    if (!verification.verified) {
      await audit('passkey.failure', pending.user_id, 'signature not valid');
      throw identityError('passkey_not_matched', COULD_NOT_MATCH);
    }
    const userId = pending.user_id;
    const instanceId = pending.instance_id;
    type Outcome = SecondFactorResult | SecondFactorRequired | { refused: string } | { blocked: true };
    const outcome = await this.db.withAuth(async (tx): Promise<Outcome> => {
      // The counter moves forward atomically (WebAuthn L3 §6.1.1): of two assertions verified
      // against the same stored count (a cloned authenticator, a replay racing the original), only
      // the first update matches; the other signs nobody in. 0 means the authenticator keeps no count.
      const moved = await tx.query(
        'UPDATE webauthn_credential SET counter = $2, last_used_at = now() WHERE id = $1 AND user_id = $3 AND (counter < $2 OR $2 = 0) RETURNING id',
        [body.credentialId, verification.authenticationInfo.newCounter, userId],
      );
      if (moved.length === 0) return { refused: 'the signature counter did not move forward (cloned authenticator or replay)' };
      const [user] = await tx.query<{ email: string; blocked_at: string | null }>('SELECT email, blocked_at FROM app_user WHERE id = $1', [userId]);
      if (!user) return { refused: 'user no longer exists' };
      // Refused after the counter moved: the assertion is spent either way.
      if (user.blocked_at) return { blocked: true };
      await acceptInvitations(tx, userId, user.email, meta);
      const [found] = (await memberRole(tx, instanceId, userId)) ? await instanceNames(tx, [instanceId]) : [];
      if (!found) throw identityError('sign_in_forbidden', 'Could not log you in');
      const instance = { name: found[1] };
      const client = { ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 500) ?? null };
      if (await hasTwoFactor(tx, userId)) {
        const payload = await startSecondFactor(tx, userId, instanceId, 'passkey');
        await recordAudit(tx, { event: 'signin.second_factor_required', userId, instanceId, ...client, detail: { provider: 'passkey' } });
        return { action: '2FA' as const, payload };
      }
      const session = await this.sessions.start(tx, userId, instanceId, meta);
      await recordAudit(tx, { event: 'passkey.signin', userId, instanceId, ...client });
      await recordAudit(tx, { event: 'signin.success', userId, instanceId, ...client, detail: { method: 'passkey' } });
      return { session, user: { uuid: userId, email: user.email }, instance: { uuid: instanceId, name: instance.name } };
    });
    if ('refused' in outcome) {
      await audit('passkey.failure', userId, outcome.refused);
      throw identityError('passkey_not_matched', COULD_NOT_MATCH, { signature: COULD_NOT_MATCH });
    }
    if ('blocked' in outcome) {
      await audit('passkey.failure', userId, 'account blocked', instanceId);
      throw blockedError();
    }
    return outcome;
  }

  /** The user's passkeys (no key material). */
  async list(userId: string) {
    const rows = await this.db.withAuth((tx) =>
      tx.query<{ id: string; created_at: string; last_used_at: string | null; device_type: string | null }>(
        'SELECT id, created_at, last_used_at, device_type FROM webauthn_credential WHERE user_id = $1 ORDER BY created_at',
        [userId],
      ),
    );
    return rows.map((row) => ({ credentialId: row.id, createdAt: row.created_at, lastUsedAt: row.last_used_at, deviceType: row.device_type }));
  }
}
