/**
 * Passkey routes (spec §7.2): registration on the profile, prelogin and login on the login page.
 * Bodies carry the WebAuthn binary fields as base64url strings.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { REFRESH_COOKIE } from './session.service.js';
import { PasskeyService } from './passkey.service.js';
import { perAccount, perIp } from '../../http/rate-limits.js';

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const b64url = (max: number) =>
  z
    .string({ error: 'This field is required' })
    .min(1, 'This field is required')
    .max(max, `at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'expected base64url');
const jwtSchema = z.string({ error: 'This field is required' }).min(1).max(2000);

export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const passkeys = new PasskeyService(app.config, app.db, app.sessions);
  const meta = (request: { ip: string; headers: { 'user-agent'?: string | undefined } }) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

  app.get(
    '/napi/profile/webauthn/register',
    {
      config: { access: 'session' },
      schema: {
        tags: ['passkey'],
        description:
          'Starts registering a passkey: { challenge, rp, user, jwt, options }. Platform or cross-platform authenticators, user ' +
          'verification preferred, algorithms -7 and -257, time-out 60 s (spec §5, §9). The challenge is single-use.',
        response: { 200: z.object({ challenge: z.string(), rp: z.object({ id: z.string().optional(), name: z.string() }), user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }), jwt: z.string(), options: z.unknown() }) },
      },
    },
    async (request) => passkeys.startRegistration(auth(request).userId),
  );

  app.post(
    '/napi/profile/webauthn/register',
    {
      config: { access: 'session', rateLimit: perIp(30) },
      schema: {
        tags: ['passkey'],
        description: 'Finishes registering: verifies the attestation against the challenge of `jwt`. Answers { isValidSignature }; 400 for an expired or used challenge or an attestation that does not verify.',
        body: z.strictObject({
          jwt: jwtSchema,
          credentialId: b64url(1400),
          attestationObject: b64url(20000),
          clientDataJSON: b64url(5000),
          transports: z.array(z.string().max(32)).max(10).optional(),
        }),
        response: { 200: z.object({ isValidSignature: z.boolean() }), 400: errorSchema },
      },
    },
    async (request) => ({ isValidSignature: await passkeys.finishRegistration(auth(request).userId, request.body, meta(request)) }),
  );

  app.get(
    '/napi/profile/webauthn/list',
    {
      config: { access: 'session' },
      schema: {
        tags: ['passkey'],
        description: "The user's passkeys (ids and dates only).",
        response: { 200: z.object({ data: z.array(z.object({ credentialId: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable(), deviceType: z.string().nullable() })) }) },
      },
    },
    async (request) => ({ data: await passkeys.list(auth(request).userId) }),
  );

  app.post(
    '/napi/auth/webauthn/prelogin',
    {
      config: { access: 'public', rateLimit: perIp(30) },
      preHandler: perAccount(app, 'passkey-prelogin', 10, (request) => (request.body as { uuid?: string } | undefined)?.uuid),
      schema: {
        tags: ['passkey'],
        description:
          'A login challenge for the passkeys of user `uuid` in instance `instance`: { challenge, authenticators: [{ credentialId, jwt }], options }. ' +
          "No authenticators for an unknown user or one without passkeys (same answer, no enumeration). 400 'Invalid UUID format'.",
        body: z.strictObject({ uuid: z.string({ error: 'This field is required' }).max(100), instance: z.string({ error: 'This field is required' }).max(100) }),
        response: { 200: z.object({ challenge: z.string(), authenticators: z.array(z.object({ credentialId: z.string(), jwt: z.string() })), options: z.unknown() }), 400: errorSchema },
      },
    },
    async (request) => passkeys.prelogin(request.body.uuid, request.body.instance),
  );

  app.post(
    '/napi/auth/webauthn/login',
    {
      config: { access: 'public', rateLimit: perIp(30) },
      // Per user of the ceremony (the signed `jwt` names it; a forged one names nobody and is left
      // to the per-IP limit), 10 a minute.
      preHandler: perAccount(app, 'passkey-login', 10, async (request) => {
        const claims = await app.sessions.verifyPurposeToken((request.body as { jwt: string }).jwt, 'webauthn-login');
        return typeof claims?.sub === 'string' ? claims.sub : undefined;
      }),
      schema: {
        tags: ['passkey'],
        description:
          'Verifies the assertion (user verification required, signature counter checked, challenge single-use). Answers like a ' +
          "provider sign-in: the token and refresh cookie, or { action: '2FA', payload } for a user with two-factor. 401 'could not match credentials'.",
        body: z.strictObject({
          jwt: jwtSchema,
          credentialId: b64url(1400),
          authenticatorData: b64url(5000),
          clientDataJSON: b64url(5000),
          signature: b64url(2000),
          userHandle: z.string().max(200).optional(),
        }),
        response: {
          200: z.union([
            z.object({ token: z.string(), user: z.object({ uuid: z.string(), email: z.string() }), instance: z.object({ uuid: z.string(), name: z.string() }) }),
            z.object({ action: z.literal('2FA'), payload: z.string() }),
          ]),
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await passkeys.login(request.body, meta(request));
      if ('action' in result) return result;
      reply.setCookie(REFRESH_COOKIE, result.session.refreshToken, {
        httpOnly: true,
        sameSite: 'strict',
        secure: app.config.env === 'production',
        path: '/napi/auth',
        expires: result.session.refreshExpiresAt,
      });
      return { token: result.session.accessToken, user: result.user, instance: result.instance };
    },
  );
};
