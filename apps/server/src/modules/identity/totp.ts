/**
 * TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30 s steps) through the `otpauth` library. Only the step
 * arithmetic that makes a code single-use is ours.
 */
import * as OTPAuth from 'otpauth';

export const TOTP_ISSUER = 'Bilan';
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Clock drift tolerated: one step before or after (RFC 6238 §5.2 recommends at most one). */
export const TOTP_WINDOW = 1;

const totpOf = (secret: string, label = 'account') =>
  new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

/** A new random secret of 160 bits (RFC 4226 §4 recommends 160), base32. */
export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/** The otpauth:// URL an authenticator app reads from the QR code (Key Uri Format). */
export const totpUrl = (secret: string, account: string): string => totpOf(secret, account).toString();

/** The base32 secret of an otpauth:// URL made by `totpUrl`, or undefined for anything else. */
export function secretOfUrl(url: string): string | undefined {
  try {
    const parsed = OTPAuth.URI.parse(url);
    return parsed instanceof OTPAuth.TOTP ? parsed.secret.base32 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The time step a code belongs to (now ± TOTP_WINDOW), or undefined when it matches none.
 * `afterStep`: the last step already used; a code of that step or an earlier one is refused so a
 * code is accepted once only (RFC 6238 §5.2).
 */
export function verifyTotp(secret: string, code: string, afterStep: number | null, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  const step = totp.counter({ timestamp: now }) + delta;
  if (afterStep !== null && step <= afterStep) return undefined;
  return step;
}

/** The current code (for our own tests and the CLI; the tests also check against oathtool). */
export const totpCode = (secret: string, now = Date.now()): string => totpOf(secret).generate({ timestamp: now });
