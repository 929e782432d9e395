/**
 * Identity on the profile (spec §2.6, §4, §7.2): two-factor settings, the user's sessions, the
 * instance switch and personal information. Staff, superadmin and passkey routes live in their own
 * files and are registered from here, so app.ts registers one plugin.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACCESS_TOKEN_REFRESH_MS, IDLE_TIMEOUT_MS, messageLanguageOf, numberFormats, uiLanguages } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { AppError } from '../../http/errors.js';
import { identityError } from './identity.errors.js';
import { auditClient, recordAudit } from '../audit/audit.service.js';
import { permissionsOf, ONBOARDING_NOT_FINISHED } from '../instances/instances.service.js';
import { loadProfile, userLanguage } from './profile.service.js';
import { disableTwoFactor, enableTwoFactor, hasTwoFactor, proposeSecret } from './two-factor.service.js';
import { staffRoutes } from './staff.routes.js';
import { adminRoutes } from './admin.routes.js';
import { passkeyRoutes } from './passkey.routes.js';
import { perAccount, perIp } from '../../http/rate-limits.js';

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const codeSchema = z
  .string({ error: 'This field is required' })
  .trim()
  .regex(/^\d{6}$/, 'the code has 6 digits');
const verifiedSchema = z.object({ verified: z.literal(true) });
const uuidSchema = z.uuid('uuid invalid');

const sessionSchema = z.object({
  id: z.string(),
  instance: z.object({ uuid: z.string(), name: z.string() }),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});

const nameSchema = z.string({ error: 'This field is required' }).trim().max(100, 'at most 100 characters');

export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  const meta = (request: Parameters<typeof auditClient>[0]) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

  app.get(
    '/napi/auth/settings',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        description:
          'Session constants for the web (spec §9): idle time-out and refresh interval in milliseconds. `testOverrides` is true on ' +
          'non-production servers only, where the web honours a local idle time-out override (browser tests).',
        security: [],
        response: { 200: z.object({ idleTimeoutMs: z.number().int(), refreshIntervalMs: z.number().int(), testOverrides: z.boolean() }) },
      },
    },
    async () => ({ idleTimeoutMs: IDLE_TIMEOUT_MS, refreshIntervalMs: ACCESS_TOKEN_REFRESH_MS, testOverrides: app.config.env !== 'production' }),
  );

  app.get(
    '/napi/profile/2fa',
    {
      config: { access: 'session' },
      schema: { tags: ['profile'], description: 'Whether two-factor authentication is set (spec §7.2 "status boolean").', response: { 200: z.object({ status: z.boolean() }) } },
    },
    async (request) => ({ status: await app.db.withAuth((tx) => hasTwoFactor(tx, auth(request).userId)) }),
  );

  app.get(
    '/napi/profile/2fa/url',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description:
          'Proposes a new TOTP secret (160 bits; SHA-1, 6 digits, 30 s) and answers its otpauth:// URL for the QR code. The secret ' +
          'is kept until /profile/2fa/set confirms it. 409 when 2FA is already set.',
        response: { 200: z.object({ url: z.string() }), 409: errorSchema },
      },
    },
    async (request) => ({ url: await proposeSecret(app.db, auth(request).userId) }),
  );

  app.post(
    '/napi/profile/2fa/set',
    {
      config: { access: 'session', rateLimit: perIp(30) },
      preHandler: perAccount(app, '2fa-settings', 10, (request) => request.auth?.userId),
      schema: {
        tags: ['profile'],
        description: 'Sets 2FA with the proposed secret URL and a valid code of it. 400 names secretUrl (not the proposed one) or code.',
        body: z.strictObject({ secretUrl: z.string({ error: 'This field is required' }).min(1).max(500), code: codeSchema }),
        response: { 200: verifiedSchema, 400: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      await enableTwoFactor(app.db, auth(request).userId, request.body.secretUrl, request.body.code, meta(request));
      return { verified: true as const };
    },
  );

  app.post(
    '/napi/profile/2fa/unset',
    {
      config: { access: 'session', rateLimit: perIp(30) },
      preHandler: perAccount(app, '2fa-settings', 10, (request) => request.auth?.userId),
      schema: {
        tags: ['profile'],
        description:
          'Turns 2FA off after a valid code of the current secret. 400 { error, fields.code, attempt, maxAttempts } for a wrong code, ' +
          'which counts toward the same block as the sign-in step: more than 5 wrong codes answer 403 { blocked: true } with the ' +
          'spec §8 message and end every session of the account. 409 when 2FA is not set.',
        body: z.strictObject({ code: codeSchema }),
        response: { 200: verifiedSchema, 400: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      await disableTwoFactor(app.db, auth(request).userId, auth(request).instanceId, request.body.code, meta(request));
      return { verified: true as const };
    },
  );

  app.get(
    '/napi/profile/sessions',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description: "The user's live sessions (one per sign-in, across instances), newest activity first; `current` marks this one.",
        response: { 200: z.object({ data: z.array(sessionSchema) }) },
      },
    },
    async (request) => {
      const { userId, sessionId } = auth(request);
      const sessions = await app.sessions.list(userId);
      return { data: sessions.map((session) => ({ ...session, current: session.id === sessionId })) };
    },
  );

  app.post(
    '/napi/profile/sessions/revoke',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description: 'Signs one session out (its refresh and access tokens stop working at once). 404 for a session that is not yours or is over.',
        body: z.strictObject({ id: uuidSchema }),
        response: { 200: z.object({ ok: z.literal(true) }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { userId, instanceId } = auth(request);
      const count = await app.sessions.revokeFamilies(userId, request.body.id);
      if (count === 0) throw identityError('session_not_found', 'Session not found');
      await app.db.withAuth((tx) =>
        recordAudit(tx, { event: 'session.revoked', userId, instanceId, ...auditClient(request), detail: { session: request.body.id } }),
      );
      return { ok: true as const };
    },
  );

  app.post(
    '/napi/profile/sessions/revoke-all',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description: "Sign out everywhere: ends every session of the user, this one included. Answers how many ended.",
        body: z.strictObject({}).optional(),
        response: { 200: z.object({ revoked: z.number().int() }) },
      },
    },
    async (request) => {
      const { userId, instanceId } = auth(request);
      const revoked = await app.sessions.revokeFamilies(userId);
      await app.db.withAuth((tx) => recordAudit(tx, { event: 'session.revoked_all', userId, instanceId, ...auditClient(request), detail: { revoked } }));
      return { revoked };
    },
  );

  app.post(
    '/napi/profile/instance/change',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description:
          'Switches this session to another instance of the user (spec §4 "Instance switch"). Answers a new access token, the ' +
          'profile in that instance (null while its onboarding is unfinished), its permissions and the locale (the user\'s language, else the ' +
          'request\'s Accept-Language, else en). 404 for an ' +
          'instance the user does not belong to.',
        body: z.strictObject({ uuid: uuidSchema }),
        response: {
          200: z.object({
            token: z.string(),
            profile: z.unknown().nullable(),
            permissions: z.array(z.enum(['read', 'write', 'admin'])),
            locale: z.string(),
          }),
          400: errorSchema,
          404: errorSchema,
        },
      },
    },
    async (request) => {
      const { userId, sessionId, instanceId: from } = auth(request);
      const to = request.body.uuid;
      const token = await app.sessions.switchInstance(sessionId, userId, to);
      if (!token) throw identityError('instance_not_found', 'Instance not found');
      await app.db.withAuth((tx) =>
        recordAudit(tx, { event: 'instance.switched', userId, instanceId: to, ...auditClient(request), detail: { from } }),
      );
      let profile = null;
      try {
        profile = await loadProfile(app.db, to, userId);
      } catch (error) {
        if (!(error instanceof AppError && error.message === ONBOARDING_NOT_FINISHED)) throw error;
      }
      const [member] = await app.db.withAuth((tx) =>
        tx.query<{ role: 'owner' | 'admin' | 'accountant' | 'viewer' }>('SELECT role FROM instance_member WHERE user_id = $1 AND instance_id = $2', [userId, to]),
      );
      return { token, profile, permissions: permissionsOf(member!.role), locale: (await userLanguage(app.db, userId)) ?? messageLanguageOf(request.headers['accept-language']) };
    },
  );

  app.post(
    '/napi/profile/update',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description: 'Personal information of the profile (spec §2.6): first and last name, up to 100 characters each.',
        body: z.strictObject({ firstName: nameSchema, lastName: nameSchema }),
        response: { 200: z.object({ firstName: z.string(), lastName: z.string() }), 400: errorSchema },
      },
    },
    async (request) => {
      const { userId, instanceId } = auth(request);
      const { firstName, lastName } = request.body;
      await app.db.withAuth(async (tx) => {
        await tx.query('UPDATE app_user SET first_name = $2, last_name = $3 WHERE id = $1', [userId, firstName, lastName]);
        await recordAudit(tx, { event: 'profile.updated', userId, instanceId, ...auditClient(request) });
      });
      return { firstName, lastName };
    },
  );

  app.post(
    '/napi/profile/preferences',
    {
      config: { access: 'session' },
      schema: {
        tags: ['profile'],
        description:
          "The user's UI language (de, fr, it, en) and number format (fr-CH '1 234,50', de-CH / it-CH / en-CH \"1'234.50\"), " +
          'the same in every workplace (issue 17 §3). null clears a choice: the web then follows the browser, amounts fr-CH.',
        body: z.strictObject({ language: z.enum(uiLanguages).nullable(), numberFormat: z.enum(numberFormats).nullable() }),
        response: { 200: z.object({ language: z.enum(uiLanguages).nullable(), numberFormat: z.enum(numberFormats).nullable() }), 400: errorSchema },
      },
    },
    async (request) => {
      const { userId, instanceId } = auth(request);
      const { language, numberFormat } = request.body;
      await app.db.withAuth(async (tx) => {
        await tx.query('UPDATE app_user SET language = $2, number_format = $3 WHERE id = $1', [userId, language, numberFormat]);
        await recordAudit(tx, { event: 'profile.updated', userId, instanceId, ...auditClient(request), detail: { language, numberFormat } });
      });
      return { language, numberFormat };
    },
  );

  await app.register(staffRoutes);
  await app.register(adminRoutes);
  await app.register(passkeyRoutes);
};
