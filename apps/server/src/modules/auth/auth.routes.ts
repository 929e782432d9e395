/**
 * Session API of sign-up and sign-in (spec §7.2, §4 Signup/Login/Single sign-on return, §5, §8).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSsoProvider, type SsoProvider } from '@bilan/domain';
import { AppError } from '../../http/errors.js';
import { authError } from './auth.errors.js';
import { auditClient, recordAuditNow } from '../audit/audit.service.js';
import { signIn, INSTANCE_NAME_TAKEN } from './auth.service.js';
import { findInstanceByName, instanceExists } from '../instances/instances.service.js';
import { REFRESH_COOKIE, SESSION_IDLE_MESSAGE, SESSION_TOO_OLD_MESSAGE } from '../identity/session.service.js';
import { loadProfile } from '../identity/profile.service.js';
import { profileSchema } from '../identity/profile.routes.js';
import { decodeState, SsoService } from './sso.service.js';
import { pendingSecondFactorUser, verifySecondFactor } from '../identity/two-factor.service.js';
import { perAccount, perIp } from '../../http/rate-limits.js';

const SSO_COOKIE = 'bilan_sso';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const tokenSchema = z.object({ token: z.string() });
const signedInSchema = z.object({
  token: z.string(),
  user: z.object({ uuid: z.string(), email: z.string() }),
  instance: z.object({ uuid: z.string(), name: z.string() }),
});
const secondFactorSchema = z.object({ action: z.literal('2FA'), payload: z.string() });
/**
 * What an OpenID provider sends back to the redirect URI (OpenID Connect Core §3.1.2.5–6, RFC 9207
 * `iss`). Named, so the OpenAPI document lists real query parameters; any other parameter is kept
 * (strings only) because the whole query goes to openid-client, which checks it.
 */
const redirectQuerySchema = z
  .object({
    code: z.string().optional(),
    state: z.string().optional(),
    iss: z.string().optional(),
    error: z.string().optional(),
    error_description: z.string().optional(),
  })
  .catchall(z.string());
const instanceNameSchema = z
  .string({ error: 'This field is required' })
  .trim()
  .min(1, 'This field must be given')
  .max(100, 'the name may have at most 100 characters');

/** The provider path parameter, refused with the spec's message (§5) when unknown. */
function providerOf(value: string): SsoProvider {
  if (!isSsoProvider(value)) throw authError('provider_unknown', 'SSO provider not recognized', { provider: 'SSO provider not recognized' });
  return value;
}

const clientMeta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const sso = new SsoService(app.config, app.db);
  const secureCookies = app.config.env === 'production';

  const setRefreshCookie = (reply: FastifyReply, token: string, expires: Date) =>
    reply.setCookie(REFRESH_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: secureCookies, path: '/napi/auth', expires });
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure: secureCookies, path: '/napi/auth' });

  app.post(
    '/instance/exists',
    {
      config: { access: 'public', rateLimit: perIp(60) },
      // Per name as well: hammering one workplace's name is refused before the IP's budget is spent.
      preHandler: perAccount(app, 'instance-exists', 10, (request) => (request.body as { name?: string }).name?.trim().toLowerCase()),
      schema: {
        tags: ['session'],
        description:
          'Looks a workplace up by name (case-insensitive). 200 when it exists; 404 means the name is free (spec §7.2). ' +
          '429 after 60 calls a minute from one IP or 10 for one name.',
        body: z.strictObject({ name: instanceNameSchema }),
        response: {
          200: z.object({ uuid: z.string(), name: z.string() }),
          404: z.object({ error: z.string(), err: z.string() }),
        },
      },
    },
    async (request, reply) => {
      const found = await app.db.withAuth((tx) => findInstanceByName(tx, request.body.name));
      if (!found) return reply.code(404).send({ error: 'Instance not found', err: 'Instance not found' });
      return found;
    },
  );

  app.get(
    '/auth/:provider/url',
    {
      config: { access: 'public', rateLimit: perIp(60) },
      // Per client IP and workplace (uuid, or the name of a sign-up), 20 a minute. Not per workplace
      // alone: anyone could then lock the owner out of their workplace with 21 anonymous calls (issue 11 §5).
      preHandler: perAccount(app, 'sso-url', 20, (request) => {
        const instance = (request.query as { instance?: string }).instance?.trim().toLowerCase();
        return instance ? `${request.ip} ${instance}` : undefined;
      }),
      schema: {
        tags: ['session'],
        description:
          'Starts single sign-on: answers the provider URL to send the browser to. `instance` is the workplace uuid to sign in to, ' +
          'or the new workplace name with isSignup=true. Sets a short-lived cookie that binds the sign-in to this browser.',
        params: z.object({ provider: z.string() }),
        querystring: z.object({ instance: z.string().trim().min(1, 'instance wrong').max(200), isSignup: z.enum(['true', 'false']).optional() }),
        response: { 200: z.object({ url: z.string() }), 400: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const isSignup = request.query.isSignup === 'true';
      let instance = request.query.instance;
      if (isSignup) {
        const name = instanceNameSchema.safeParse(instance);
        if (!name.success) throw authError('instance_wrong', name.error.issues[0]!.message, { instance: name.error.issues[0]!.message });
        instance = name.data;
        if (await app.db.withAuth((tx) => findInstanceByName(tx, instance))) {
          throw authError('instance_name_taken', INSTANCE_NAME_TAKEN, { name: INSTANCE_NAME_TAKEN });
        }
      } else {
        if (!UUID.test(instance)) throw authError('instance_wrong', 'instance wrong', { instance: 'instance wrong' });
        if (!(await app.db.withAuth((tx) => instanceExists(tx, instance)))) throw authError('instance_not_found', 'Instance not found');
      }
      const start = await sso.start(provider, instance, isSignup);
      reply.setCookie(SSO_COOKIE, start.loginId, {
        httpOnly: true,
        // Lax: the cookie must survive the top-level navigation back from the provider.
        sameSite: 'lax',
        secure: secureCookies,
        path: '/napi/auth',
        maxAge: 600,
      });
      return { url: start.url };
    },
  );

  app.get(
    '/auth/:provider/redirect',
    {
      config: { access: 'public', rateLimit: perIp(60) },
      // Per workplace named in the state, 20 a minute.
      preHandler: perAccount(app, 'sso-redirect', 20, (request) => {
        const state = (request.query as Record<string, string | undefined>).state;
        const instance = state ? decodeState(state)?.instance : undefined;
        return typeof instance === 'string' && instance ? instance.trim().toLowerCase() : undefined;
      }),
      schema: {
        tags: ['session'],
        description:
          'Finishes single sign-on with the query the provider sent to /sso/{provider}/redirect. Answers an access token and sets ' +
          'the refresh cookie. 400 SSO provider not recognized | Code expected | instance wrong; 401/403 Could not log you in; ' +
          '409 Instance name already taken (sign-up race).',
        params: z.object({ provider: z.string() }),
        querystring: redirectQuerySchema,
        response: { 200: z.union([signedInSchema, secondFactorSchema]), 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const { code, state } = request.query;
      if (!code || !state) throw authError('code_expected', 'Code expected', { code: 'Code expected' });
      const decoded = decodeState(state);
      if (!decoded || typeof decoded.instance !== 'string' || !decoded.instance || typeof decoded.id !== 'string') {
        throw authError('instance_wrong', 'instance wrong', { state: 'instance wrong' });
      }
      const loginId = decoded.id;
      const query = new URLSearchParams(request.query);
      reply.clearCookie(SSO_COOKIE, { path: '/napi/auth' });
      try {
        const { login, identity } = await sso.finish(provider, loginId, request.cookies[SSO_COOKIE], query);
        const result = await app.db.withAuth((tx) => signIn(tx, app.sessions, login, identity, clientMeta(request), app.config.devSuperadmins));
        // The second factor comes next (spec §7.2): no session yet.
        if ('action' in result) return result;
        setRefreshCookie(reply, result.session.refreshToken, result.session.refreshExpiresAt);
        return { token: result.session.accessToken, user: result.user, instance: result.instance };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const reason = String(error.extra?.reason ?? error.message);
        request.log.warn({ reason, provider }, 'sign-in refused');
        await recordAuditNow(app.db, { event: 'signin.failure', ...auditClient(request), detail: { provider, reason } });
        // The reason stays in the log and the audit trail; the browser learns only the spec's text.
        throw error.extra?.blocked ? error : new AppError(error.code, error.message, error.fields, { code: error.bodyCode });
      }
    },
  );

  app.post(
    '/auth/2fa',
    {
      config: { access: 'public', rateLimit: perIp(30) },
      // Per user of the pending sign-in (however many sign-ins they start), on top of the block
      // after more than 5 wrong codes.
      preHandler: perAccount(app, '2fa', 10, (request) => pendingSecondFactorUser(app.db, (request.body as { payload: string }).payload)),
      schema: {
        tags: ['session'],
        description:
          'Second step of a sign-in whose first step answered { action: "2FA", payload } (spec §7.2). `code`: the 6-digit TOTP ' +
          '(RFC 6238, ±1 step, each code once). 200 like the provider sign-in, with the refresh cookie; 400 { error, attempt, maxAttempts } ' +
          'for a wrong code (the web adds " Attempt n/5"); 403 { blocked: true } with the spec §8 message after more than 5 wrong codes; ' +
          '401 when the payload is unknown, used or older than 5 minutes.',
        body: z.strictObject({
          code: z.string().trim().regex(/^\d{6}$/, 'the code has 6 digits'),
          payload: z.string().min(1).max(200),
        }),
        response: { 200: signedInSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const result = await verifySecondFactor(app.db, app.sessions, request.body.payload, request.body.code, clientMeta(request));
      setRefreshCookie(reply, result.session.refreshToken, result.session.refreshExpiresAt);
      return { token: result.session.accessToken, user: result.user, instance: result.instance };
    },
  );

  app.get(
    '/auth/refresh',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        description:
          'Rotates the refresh cookie and answers a new access token and the session\'s instance uuid (the web calls it every 8 minutes, ' +
          'spec §9, and reloads when the instance changed in another tab). `idleMs`: milliseconds since the last user activity in ' +
          'any tab of the browser; it moves the session\'s last activity forward (a refresh without it is not activity). ' +
          "401 { error, reason }: 'idle' (no activity for more than 30 minutes; error is the spec §8 idle message), 'expired' (more " +
          "than 12 hours since sign-in), 'invalid' (unknown, revoked or replayed token — a replay revokes the whole session). " +
          '`withProfile=true` (a page load) adds `profile`, as GET /napi/profile answers it, or null when that would fail ' +
          '(onboarding not finished, no longer a member): the page then asks GET /napi/profile for the reason. It saves the page ' +
          'load a round trip (issue 18 §1).',
        security: [],
        querystring: z.strictObject({
          idleMs: z.coerce
            .number({ error: 'must be an integer' })
            .int('must be an integer')
            .min(0, 'negative numbers are not accepted')
            .max(10 * 365 * 24 * 3600 * 1000, 'at most ten years')
            .optional(),
          withProfile: z.enum(['true', 'false']).optional(),
        }),
        response: {
          200: tokenSchema.extend({ instance: z.object({ uuid: z.string() }), profile: profileSchema.nullable().optional() }),
          400: errorSchema,
          401: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      const result = token ? await app.sessions.refresh(token, clientMeta(request), { idleMs: request.query.idleMs }) : { refused: 'invalid' as const };
      if ('refused' in result) {
        clearRefreshCookie(reply);
        const message = result.refused === 'idle' ? SESSION_IDLE_MESSAGE : result.refused === 'expired' ? SESSION_TOO_OLD_MESSAGE : 'Session expired';
        throw authError('session_refused', message, undefined, { reason: result.refused });
      }
      setRefreshCookie(reply, result.refreshToken, result.refreshExpiresAt);
      const answer = { token: result.accessToken, instance: { uuid: result.instanceId } };
      if (request.query.withProfile !== 'true') return answer;
      // The token has rotated and committed: whatever the profile's fate, the new cookie must reach
      // the browser, or its next refresh would present the old token and end the session as a replay.
      const profile = await loadProfile(app.db, result.instanceId, result.userId).catch((error: unknown) => {
        if (!(error instanceof AppError)) request.log.error({ err: error }, 'profile with the refresh failed');
        return null;
      });
      return { ...answer, profile };
    },
  );

  app.get(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        description: 'Revokes the session of the refresh cookie and clears it.',
        security: [],
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      const session = token ? await app.sessions.revoke(token) : undefined;
      if (session) await recordAuditNow(app.db, { event: 'logout', ...session, ...auditClient(request) });
      clearRefreshCookie(reply);
      return { ok: true as const };
    },
  );
};
