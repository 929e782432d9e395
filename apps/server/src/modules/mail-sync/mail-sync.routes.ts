/**
 * Mail sync routes (issue 16 §1; spec §2.6 Mail Sync, §7.1 GET /profile/mail-sync): the profile
 * lists, connects and disconnects the user's IMAP mailboxes; a poll can be asked for at once.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zEmail } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { AppError } from '../../http/errors.js';
import { perIp } from '../../http/rate-limits.js';
import type { MailAccount, MailSync } from './mail-sync.service.js';

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const text = (max: number) => z.string({ error: 'This field is required' }).trim().min(1, 'This field is required').max(max, `at most ${max} characters`);
const id = z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'id must be greater than 0').max(2_147_483_647);

const rowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  provider: z.literal('imap'),
  host: z.string(),
  port: z.number().int(),
  tls: z.boolean(),
  username: z.string(),
  folder: z.string(),
  processedFolder: z.string().nullable(),
  refusedFolder: z.string().nullable(),
  createdAt: z.string(),
  lastSyncedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
const toRow = (account: MailAccount) => ({ ...account, provider: 'imap' as const, lastSyncedAt: account.lastSyncAt });

export const mailSyncRoutes: FastifyPluginAsyncZod<{ mailSync: MailSync }> = async (app, { mailSync }) => {
  app.get(
    '/api/profile/mail-sync',
    {
      config: { access: 'read' },
      schema: {
        tags: ['profile'],
        description:
          "The signed-in user's connected mailboxes in this instance (spec §2.6 'Mail Sync', §7.1 'rows carry an email'), with the " +
          'last sync time and last error; never the password. Empty: the profile says "No mail sync".',
        response: { 200: z.object({ data: z.array(rowSchema) }) },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const accounts = await app.db.withInstance(instanceId, (tx) => mailSync.list(tx, userId));
      return { data: accounts.map(toRow).sort((a, b) => a.email.localeCompare(b.email)) };
    },
  );

  app.post(
    '/api/profile/mail-sync/connect',
    {
      // Writes inbox mails: the roles that may book (owner, admin, accountant).
      config: { access: 'write', rateLimit: perIp(20) },
      schema: {
        tags: ['profile'],
        description:
          'Connects an IMAP mailbox { email, host, port, tls, username, password (app password), folder, processedFolder?, refusedFolder? }: ' +
          'the server logs in and opens the folders first (400 naming password, host or the folder), then stores it with the ' +
          'password encrypted and polls it at once and every BILAN_MAIL_SYNC_MINUTES.',
        body: z.strictObject({
          email: zEmail,
          host: z
            .string({ error: 'This field is required' })
            .trim()
            .min(1, 'This field is required')
            .max(253)
            .regex(/^[A-Za-z0-9.-]+$|^\[?[0-9a-fA-F:.]+\]?$/, 'a host name or IP address'),
          port: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'id must be greater than 0').max(65535, 'at most 65535'),
          tls: z.boolean(),
          username: text(320),
          password: z.string({ error: 'This field is required' }).min(1, 'This field is required').max(1000),
          folder: text(200).default('INBOX'),
          processedFolder: text(200).optional(),
          refusedFolder: text(200).optional(),
        }),
        response: { 200: rowSchema, 400: errorSchema },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const body = request.body;
      return toRow(await mailSync.connect(instanceId, userId, { ...body, email: body.email.toLowerCase() }));
    },
  );

  app.post(
    '/api/profile/mail-sync/disconnect',
    {
      config: { access: 'read' },
      schema: {
        tags: ['profile'],
        description: 'Disconnects the user’s mailbox { id }: the credentials are removed, polling stops. 404 when not theirs.',
        body: z.strictObject({ id }),
        response: { 200: z.object({ ok: z.literal(true) }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => mailSync.disconnect(tx, userId, request.body.id));
      return { ok: true as const };
    },
  );

  app.post(
    '/api/profile/mail-sync/sync',
    {
      config: { access: 'write', rateLimit: perIp(20) },
      schema: {
        tags: ['profile'],
        description: 'Polls the user’s mailbox { id } now: { taken, refused, error } (error: the mail server’s answer, also kept as lastError). 404 when not theirs.',
        body: z.strictObject({ id }),
        response: { 200: z.object({ taken: z.number().int(), refused: z.number().int(), error: z.string().nullable() }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const mine = await app.db.withInstance(instanceId, (tx) => mailSync.list(tx, userId));
      if (!mine.some((account) => account.id === request.body.id)) return reply404();
      return mailSync.sync(instanceId, request.body.id);
    },
  );
};

const reply404 = (): never => {
  throw new AppError('not_found', 'Mail sync not found', { id: 'Mail sync not found' });
};
