/**
 * Support requests (issue 16 §2; spec §7.2 POST /napi/support/send; decision 028): the user's
 * support page, the sign-in pages (no session, e.g. a user blocked by two-factor attempts) and the
 * superadmin queue (/superadmin/support).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zEmail } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { AppError } from '../../http/errors.js';
import { perAccount, perIp } from '../../http/rate-limits.js';
import { userAccount, userIdByEmail } from '../identity/users.service.js';
import { listUserInstances } from '../identity/profile.service.js';
import type { Mailer } from '../messaging/messaging.service.js';
import {
  answerRequest,
  createSupportRequest,
  decodeAttachment,
  followUp,
  listOwnRequests,
  listQueue,
  requestAttachment,
  setStatus,
  SUPPORT_STATUSES,
  type Requester,
} from './support.service.js';

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const text = (max: number) =>
  z
    .string({ error: 'This field is required' })
    .trim()
    .min(1, 'This field is required')
    .max(max, `at most ${max} characters`);
const uuid = z.uuid({ error: 'uuid invalid' });

const requestSchema = z.object({
  uuid: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  origin: z.enum(['session', 'signin']),
  status: z.enum(SUPPORT_STATUSES),
  instance: z.object({ uuid: z.string(), name: z.string() }).nullable(),
  attachment: z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  replies: z.array(z.object({ position: z.number().int(), authorRole: z.enum(['support', 'user']), message: z.string(), createdAt: z.string() })),
});

/** A screenshot or file, base64 in JSON (at most 5 MB decoded). */
const fileSchema = z.strictObject({
  name: text(255),
  contentType: z
    .string({ error: 'This field is required' })
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a media type such as image/png')
    .max(255),
  content: z
    .string({ error: 'This field is required' })
    .min(1, 'This field is required')
    .max(7_100_000, 'larger than 5 MB')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});

export const supportRoutes: FastifyPluginAsyncZod<{ mailer: Mailer }> = async (app, { mailer }) => {
  app.post(
    '/napi/support/send',
    {
      // Public: a user blocked by two-factor attempts has no session (spec §8 sends them here). With
      // a valid bearer token the request is the signed-in user's, else the typed e-mail is used.
      config: { access: 'public', rateLimit: perIp(30) },
      bodyLimit: 8 * 1024 * 1024,
      preHandler: perAccount(app, 'support-send', 10, (request) => (request.body as { email?: string } | undefined)?.email?.toLowerCase()),
      schema: {
        tags: ['session'],
        description:
          'Writes a support request { subject, message, file? } (file: { name, contentType, content base64 ≤ 5 MB }). Signed in: the ' +
          'request is the user’s and shows on their support page. Without a session (sign-in pages): `email` is required and ' +
          '`instance` (the workplace name) optional. Stored, and e-mailed to BILAN_SUPPORT_EMAIL. Answers { ok, uuid }; ' +
          'without a session the answer does not tell whether the e-mail is known. Rate-limited per IP and per e-mail.',
        body: z.strictObject({
          subject: text(200),
          message: text(10000),
          email: zEmail.optional(),
          instance: z.string().trim().max(100).optional(),
          file: fileSchema.optional(),
        }),
        response: { 200: z.object({ ok: z.literal(true), uuid: z.string().nullable() }), 400: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      const session = token ? await app.sessions.verifyAccessToken(token) : null;
      const attachment = decodeAttachment(request.body.file);
      const { subject, message } = request.body;
      if (session) {
        const account = await app.db.withAuth((tx) => userAccount(tx, session.userId));
        const requester: Requester = { origin: 'session', instanceId: session.instanceId, userId: session.userId };
        const stored = await createSupportRequest(app.db, mailer, app.config.supportEmail, requester, { email: account!.email, subject, message, attachment });
        return { ok: true as const, uuid: stored.uuid };
      }
      const email = request.body.email?.toLowerCase();
      if (!email) throw badField('email', 'This field is required');
      // The workplace of the request (its outbox sends the e-mail): the named one when the e-mail is
      // a member's, else the member's first; unknown e-mails are stored for the queue only.
      const userId = await app.db.withAuth((tx) => userIdByEmail(tx, email));
      const instances = userId ? await listUserInstances(app.db, userId) : [];
      const named = request.body.instance?.toLowerCase();
      const instance = instances.find((i) => i.name.toLowerCase() === named) ?? instances[0];
      await createSupportRequest(app.db, mailer, app.config.supportEmail, { origin: 'signin', instanceId: instance?.uuid ?? null }, { email, subject, message, attachment });
      return { ok: true as const, uuid: null };
    },
  );

  app.post(
    '/napi/support/list',
    {
      config: { access: 'session' },
      schema: {
        tags: ['session'],
        description: 'The signed-in user’s support requests, newest first, with the answers of the support team.',
        body: z.strictObject({}).optional(),
        response: { 200: z.object({ data: z.array(requestSchema) }) },
      },
    },
    async (request) => {
      const { userId } = auth(request);
      return { data: await app.db.withAuth((tx) => listOwnRequests(tx, userId)) };
    },
  );

  app.post(
    '/napi/support/follow-up',
    {
      config: { access: 'session', rateLimit: perIp(30) },
      schema: {
        tags: ['session'],
        description: 'The requester adds a message to their own request { uuid, message }; the request is open again. 404 when it is not theirs.',
        body: z.strictObject({ uuid, message: text(10000) }),
        response: { 200: requestSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { userId } = auth(request);
      return app.db.withAuth((tx) => followUp(tx, userId, request.body.uuid, request.body.message));
    },
  );

  app.post(
    '/napi/admin/support/list',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'The support queue of the platform: every request, open first, then newest first; optionally of one status.',
        body: z.strictObject({ status: z.enum(SUPPORT_STATUSES).optional() }).optional(),
        response: { 200: z.object({ data: z.array(requestSchema) }), 400: errorSchema },
      },
    },
    async (request) => ({ data: await app.db.withAuth((tx) => listQueue(tx, request.body?.status)) }),
  );

  app.post(
    '/napi/admin/support/answer',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'Answers a request { uuid, message }: stored, status answered, e-mailed to the requester (through the outbox of its workplace). 404 unknown uuid.',
        body: z.strictObject({ uuid, message: text(10000) }),
        response: { 200: requestSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => answerRequest(app.db, mailer, request.body.uuid, auth(request).userId, request.body.message),
  );

  app.post(
    '/napi/admin/support/status',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: "Sets a request's status { uuid, status } (close it, or reopen); `changed: false` when it already had it. 404 unknown uuid.",
        body: z.strictObject({ uuid, status: z.enum(SUPPORT_STATUSES, { error: 'status must be open, answered or closed' }) }),
        response: { 200: z.object({ request: requestSchema, changed: z.boolean() }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => app.db.withAuth((tx) => setStatus(tx, request.body.uuid, request.body.status)),
  );

  app.get(
    '/napi/admin/support/attachment',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: "The screenshot or file of request `uuid`, as sent (content-disposition attachment). 404 when it has none.",
        querystring: z.strictObject({ uuid }),
      },
    },
    async (request, reply) => {
      const file = await app.db.withAuth((tx) => requestAttachment(tx, request.query.uuid));
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`)
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    },
  );
};

const badField = (field: string, message: string) => new AppError('validation', `${field}: ${message}`, { [field]: message });
