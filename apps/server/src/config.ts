/**
 * Server configuration from the environment, validated once at start-up (STYLE.md #2). A wrong
 * setting stops the server with a readable list instead of failing later.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ssoProviders, type SsoProvider } from '@bilan/domain';

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'])
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const providerEnv = (name: string) => ({
  [`BILAN_OIDC_${name}_ISSUER`]: z.url().optional(),
  [`BILAN_OIDC_${name}_CLIENT_ID`]: z.string().min(1).optional(),
  [`BILAN_OIDC_${name}_CLIENT_SECRET`]: z.string().min(1).optional(),
  /**
   * The boolean claim that vouches for the e-mail address (default `email_verified`, OIDC Core
   * §5.1), e.g. `xms_edov` for Microsoft Entra ID. Applies to the local IdP playing the provider too.
   */
  [`BILAN_OIDC_${name}_EMAIL_VERIFIED_CLAIM`]: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a claim name (letters, digits, underscore)')
    .optional(),
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the app as the browser sees it; redirect URIs are built from it. */
  BILAN_PUBLIC_URL: z.url().optional(),
  BILAN_DATA_DIR: z.string().default('./data'),
  /** postgres://… switches from the embedded PGlite to a PostgreSQL server. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * The owner's postgres://… for migrations only (creates tables and the roles bilan_app and
   * bilan_auth, and lets the DATABASE_URL user act as them); unset = DATABASE_URL migrates.
   */
  BILAN_MIGRATION_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * Named prepared statements on DATABASE_URL (decision 038; default on). Off (`0`) behind a pooler
   * in transaction mode that does not carry them: PgBouncer before 1.21, or without
   * `max_prepared_statements`.
   */
  BILAN_DATABASE_PREPARED_STATEMENTS: booleanFlag.optional(),
  /** The built-in OpenID provider for providers without configuration (on unless production). */
  BILAN_LOCAL_IDP: booleanFlag.optional(),
  /** Every answer checked against its schema by zod too (on unless production; decision 040). */
  BILAN_CHECK_ANSWERS: booleanFlag.optional(),
  /** Directory of the built web app; unset = apps/web/dist. */
  BILAN_WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Swiss commercial register (Zefix public REST API), e.g. https://www.zefix.admin.ch/ZefixPublicREST; unset = search off. */
  BILAN_ZEFIX_URL: z.url().optional(),
  /** HTTP Basic credentials issued by the register (zefix@bj.admin.ch). */
  BILAN_ZEFIX_USER: z.string().min(1).optional(),
  BILAN_ZEFIX_PASSWORD: z.string().min(1).optional(),
  /** Markdown file with the installation's Terms and Conditions; unset = assets/legal/terms.md. */
  BILAN_TERMS_FILE: z.string().min(1).optional(),
  /**
   * Comma-separated IPs or CIDRs of the reverse proxies whose X-Forwarded-For is believed (default
   * none: the peer address is the client). Anyone else could otherwise choose their own IP.
   */
  BILAN_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean))
    .refine((entries) => entries.every(isIpOrCidr), 'IP addresses or CIDRs separated by commas, e.g. 10.0.0.1,192.168.0.0/16'),
  /**
   * Outgoing mail server (issue 15 §1): smtp://user:password@host:587 (STARTTLS when offered) or
   * smtps://…:465; unset = messages are kept in the outbox as 'not sent — no mail server configured'.
   */
  BILAN_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, 'must start with smtp:// or smtps:// and name the host, e.g. smtp://user:secret@mail.example.ch:587')
    .optional(),
  /** The sender of every message, e.g. `Muster AG <rechnung@muster.ch>`. */
  BILAN_MAIL_FROM: z
    .string()
    .max(320)
    .regex(/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'an e-mail address, optionally with a name: Muster AG <rechnung@muster.ch>')
    .optional(),
  /** Where support requests are e-mailed (issue 16 §2); unset = they are kept for the superadmin queue only. */
  BILAN_SUPPORT_EMAIL: z.string().max(254).regex(/^[^<>@\s]+@[^<>@\s]+$/, 'an e-mail address, e.g. support@bilan.example').optional(),
  /** Minutes between two polls of each connected mailbox (issue 16 §1). */
  BILAN_MAIL_SYNC_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** Seconds between two polls of the job queue by this server (0 = this server runs no jobs). */
  BILAN_JOB_POLL_SECONDS: z.coerce.number().min(0).max(3600).default(2),
  /** Comma-separated e-mails made superadmin at sign-in; refused in production (see Config.devSuperadmins). */
  BILAN_DEV_SUPERADMINS: z.string().optional(),
  ...providerEnv('GOOGLE'),
  ...providerEnv('MICROSOFT'),
  ...providerEnv('SWISSID'),
});

/** An IPv4/IPv6 address, optionally with a prefix length (CIDR) within the address's size. */
function isIpOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Origin without trailing slash, e.g. http://localhost:3000. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Owner connection for migrations; undefined = `databaseUrl` migrates (README "Production database"). */
  migrationDatabaseUrl: string | undefined;
  /** Statements with parameters run as named prepared statements on `databaseUrl` (decision 038). */
  preparedStatements: boolean;
  localIdp: boolean;
  /**
   * Each answer checked by zod against its route's schema and compared with the compiled
   * serializer's JSON (decision 040); off in production, where only the compiled serializer runs.
   */
  checkAnswers: boolean;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Providers configured by environment; the others are served by the local IdP when it is on. */
  oidc: Partial<Record<SsoProvider, OidcProviderConfig>>;
  /**
   * Per provider, the claim that must be `true` before an e-mail address is trusted to link the
   * identity to an existing user or accept an invitation (ASVS 5 V10.5.5); default `email_verified`.
   */
  emailVerifiedClaim: Record<SsoProvider, string>;
  /**
   * E-mail addresses made superadmin at sign-in; only outside production (browser tests reach the
   * superadmin pages this way; production uses `npm run cli -- user superadmin`).
   */
  devSuperadmins: string[];
  /** Proxies whose X-Forwarded-For gives the client's IP (BILAN_TRUSTED_PROXIES); empty = none. */
  trustedProxies: string[];
  /** Outgoing mail (BILAN_SMTP_URL, BILAN_MAIL_FROM); `smtpUrl` undefined = nothing is sent, messages stay in the outbox. */
  mail: { smtpUrl: string | undefined; from: string };
  /** BILAN_SUPPORT_EMAIL: the support team's address; undefined = requests are not e-mailed. */
  supportEmail: string | undefined;
  /** BILAN_MAIL_SYNC_MINUTES: minutes between two polls of each connected mailbox. */
  mailSyncMinutes: number;
  /** Seconds between polls of the job queue (BILAN_JOB_POLL_SECONDS); 0 = no polling on this server. */
  jobPollSeconds: number;
  /** Zefix REST adapter settings (spec §2.9 register search); undefined when not configured. */
  companyRegister: { baseUrl: string; username: string | undefined; password: string | undefined } | undefined;
  /** Absolute path of the operator's Terms and Conditions (BILAN_TERMS_FILE); undefined = the shipped default. */
  termsFile: string | undefined;
}

export class ConfigError extends Error {}

/** Reads and validates the environment. Throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const oidc: Config['oidc'] = {};
  const emailVerifiedClaim = {} as Record<SsoProvider, string>;
  const problems: string[] = [];
  for (const provider of ssoProviders) {
    const key = provider.toUpperCase();
    const settings = e as Record<string, unknown>;
    emailVerifiedClaim[provider] = (settings[`BILAN_OIDC_${key}_EMAIL_VERIFIED_CLAIM`] as string | undefined) ?? 'email_verified';
    const issuer = settings[`BILAN_OIDC_${key}_ISSUER`] as string | undefined;
    const clientId = settings[`BILAN_OIDC_${key}_CLIENT_ID`] as string | undefined;
    const clientSecret = settings[`BILAN_OIDC_${key}_CLIENT_SECRET`] as string | undefined;
    const given = [issuer, clientId, clientSecret].filter(Boolean).length;
    if (given === 3) oidc[provider] = { issuer: issuer!, clientId: clientId!, clientSecret: clientSecret! };
    else if (given > 0) problems.push(`  BILAN_OIDC_${key}_*: set ISSUER, CLIENT_ID and CLIENT_SECRET together`);
  }
  const devSuperadmins = (e.BILAN_DEV_SUPERADMINS ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter(Boolean);
  if (devSuperadmins.length && e.NODE_ENV === 'production') {
    problems.push('  BILAN_DEV_SUPERADMINS: not allowed in production; use `npm run cli -- user superadmin --email …`');
  }
  if (e.BILAN_MIGRATION_DATABASE_URL && !e.DATABASE_URL) {
    problems.push('  BILAN_MIGRATION_DATABASE_URL: needs DATABASE_URL (the embedded PGlite migrates itself)');
  }
  if (problems.length) throw new ConfigError(`Invalid environment:\n${problems.join('\n')}`);
  const publicUrl = (e.BILAN_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    // npm runs workspace scripts inside the workspace; relative paths mean the caller's directory.
    dataDir: resolve(env.INIT_CWD ?? process.cwd(), e.BILAN_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    migrationDatabaseUrl: e.BILAN_MIGRATION_DATABASE_URL,
    preparedStatements: e.BILAN_DATABASE_PREPARED_STATEMENTS ?? true,
    localIdp: e.BILAN_LOCAL_IDP ?? e.NODE_ENV !== 'production',
    checkAnswers: e.BILAN_CHECK_ANSWERS ?? e.NODE_ENV !== 'production',
    webDist: e.BILAN_WEB_DIST ? resolve(e.BILAN_WEB_DIST) : resolve(import.meta.dirname, '../../web/dist'),
    logLevel: e.LOG_LEVEL,
    oidc,
    emailVerifiedClaim,
    devSuperadmins,
    trustedProxies: e.BILAN_TRUSTED_PROXIES,
    mail: { smtpUrl: e.BILAN_SMTP_URL, from: e.BILAN_MAIL_FROM ?? `Bilan <noreply@${new URL(publicUrl).hostname}>` },
    supportEmail: e.BILAN_SUPPORT_EMAIL?.toLowerCase(),
    mailSyncMinutes: e.BILAN_MAIL_SYNC_MINUTES,
    jobPollSeconds: e.BILAN_JOB_POLL_SECONDS,
    companyRegister: e.BILAN_ZEFIX_URL
      ? { baseUrl: e.BILAN_ZEFIX_URL.replace(/\/+$/, ''), username: e.BILAN_ZEFIX_USER, password: e.BILAN_ZEFIX_PASSWORD }
      : undefined,
    termsFile: e.BILAN_TERMS_FILE ? resolve(env.INIT_CWD ?? process.cwd(), e.BILAN_TERMS_FILE) : undefined,
  };
}
