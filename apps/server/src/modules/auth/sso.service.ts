/**
 * Single sign-on with OpenID Connect, authorization code flow with PKCE (RFC 7636) and nonce,
 * through `openid-client`. Each provider (google, microsoft, swissid) is configured by
 * environment; one without configuration is served by the built-in local IdP when it is on.
 */
import * as oidc from 'openid-client';
import { ssoProviderLabel, type SsoProvider } from '@bilan/domain';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { authError } from './auth.errors.js';
import { LOCAL_IDP_PATH, localClientId, localClientSecret } from './local-idp.js';

/** A pending sign-in lives 10 minutes. */
const LOGIN_TTL_MS = 10 * 60 * 1000;

export interface SsoStart {
  url: string;
  loginId: string;
}

export interface SsoIdentity {
  subject: string;
  email: string;
  /**
   * True only when the provider's verification claim (Config.emailVerifiedClaim, default
   * `email_verified`) is exactly `true`. Without it the e-mail may not link this identity to an
   * existing user nor accept an invitation (ASVS 5 V10.5.5): anyone can open an account at some
   * providers with somebody else's address.
   */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

export interface SsoLogin {
  id: string;
  provider: SsoProvider;
  instance: string;
  isSignup: boolean;
}

/** The `state` parameter: base64url JSON carrying the pending login id and the instance (spec §5 "state must contain an instance string"). */
export function encodeState(id: string, instance: string): string {
  return Buffer.from(JSON.stringify({ id, instance })).toString('base64url');
}

export function decodeState(state: string): { id?: unknown; instance?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(state, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as { id?: unknown; instance?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

export class SsoService {
  private readonly configurations = new Map<SsoProvider, Promise<oidc.Configuration>>();

  constructor(
    private readonly config: Config,
    private readonly db: Database,
  ) {}

  redirectUri(provider: SsoProvider): string {
    return `${this.config.publicUrl}/sso/${provider}/redirect`;
  }

  /** Discovers the provider once; a failed discovery is retried on the next sign-in. */
  private configuration(provider: SsoProvider): Promise<oidc.Configuration> {
    let pending = this.configurations.get(provider);
    if (!pending) {
      pending = this.discover(provider);
      pending.catch(() => this.configurations.delete(provider));
      this.configurations.set(provider, pending);
    }
    return pending;
  }

  private async discover(provider: SsoProvider): Promise<oidc.Configuration> {
    const configured = this.config.oidc[provider];
    if (configured) {
      return oidc.discovery(new URL(configured.issuer), configured.clientId, configured.clientSecret);
    }
    if (!this.config.localIdp) {
      const message = `Sign-in with ${ssoProviderLabel[provider]} is not configured`;
      throw authError('provider_not_configured', message, { provider: message });
    }
    const issuer = new URL(`${this.config.publicUrl}${LOCAL_IDP_PATH}`);
    const secret = await localClientSecret(this.db);
    return oidc.discovery(issuer, localClientId(provider), secret, undefined, {
      execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
    });
  }

  /** Records a pending sign-in and returns the provider URL to send the browser to. */
  async start(provider: SsoProvider, instance: string, isSignup: boolean): Promise<SsoStart> {
    const configuration = await this.configuration(provider);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const [row] = await this.db.withAuth((tx) =>
      tx.query<{ id: string }>(
        `INSERT INTO sso_login (provider, code_verifier, nonce, instance, is_signup, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [provider, codeVerifier, nonce, instance, isSignup, new Date(Date.now() + LOGIN_TTL_MS)],
      ),
    );
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri(provider),
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: encodeState(row!.id, instance),
      nonce,
    });
    return { url: url.href, loginId: row!.id };
  }

  /**
   * Consumes a pending sign-in (single use) and exchanges the code. `query` is the query string the
   * provider sent to /sso/{provider}/redirect. Throws AppError 401 'Could not log you in' on any
   * mismatch: unknown, expired or reused login, other browser, wrong provider, bad code.
   */
  async finish(provider: SsoProvider, loginId: string, cookieLoginId: string | undefined, query: URLSearchParams): Promise<{ login: SsoLogin; identity: SsoIdentity }> {
    const fail = (why: string): never => {
      throw authError('sign_in_refused', 'Could not log you in', undefined, { reason: why });
    };
    // A login started in another browser (or a forged link) does not carry our cookie: refuse it.
    if (!cookieLoginId || cookieLoginId !== loginId) fail('sign-in was started in another browser');
    const [row] = await this.db.withAuth((tx) =>
      tx.query<{ id: string; provider: string; code_verifier: string; nonce: string; instance: string; is_signup: boolean }>(
        `UPDATE sso_login SET consumed_at = now()
          WHERE id = $1 AND consumed_at IS NULL AND expires_at > now()
          RETURNING id, provider, code_verifier, nonce, instance, is_signup`,
        [loginId],
      ),
    );
    if (!row) return fail('unknown, expired or already used sign-in');
    if (row.provider !== provider) fail('provider mismatch');
    const configuration = await this.configuration(provider);
    const currentUrl = new URL(this.redirectUri(provider));
    currentUrl.search = query.toString();
    let claims: Record<string, unknown> & { sub: string } = { sub: '' };
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: row.code_verifier,
        expectedNonce: row.nonce,
        expectedState: query.get('state') ?? '',
        idTokenExpected: true,
      });
      claims = { ...tokens.claims()! };
      // In the code flow a conforming provider may leave profile claims out of the ID token
      // (OIDC Core §5.4): ask the UserInfo endpoint, bound to the ID token's subject.
      if (typeof claims.email !== 'string') {
        claims = { ...claims, ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)) };
      }
    } catch (error) {
      fail(`token exchange failed: ${(error as Error).message}`);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email) fail('the provider gave no e-mail address');
    const emailVerified = claims[this.config.emailVerifiedClaim[provider]] === true;
    const name = typeof claims.name === 'string' ? claims.name : '';
    const given = typeof claims.given_name === 'string' ? claims.given_name : (name.split(/\s+/)[0] ?? '');
    const family = typeof claims.family_name === 'string' ? claims.family_name : name.split(/\s+/).slice(1).join(' ');
    return {
      login: { id: row.id, provider, instance: row.instance, isSignup: row.is_signup },
      identity: { subject: claims.sub, email, emailVerified, firstName: given.slice(0, 100), lastName: family.slice(0, 100) },
    };
  }
}
