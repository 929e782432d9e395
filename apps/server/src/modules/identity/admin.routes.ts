/**
 * Platform support pages for superadmins only (spec §2.6 "Superadmin links", issue #3 §4/§5):
 * the Logs page (sign-in audit trail and action log of every instance), Analytics (platform
 * counts) and the unblocking of accounts blocked by too many wrong two-factor codes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { identityError } from './identity.errors.js';
import { unblockUser } from './two-factor.service.js';
import type { Tx } from '../../db/database.js';
import { listPageViews } from '../action-log/action-log.service.js';
import { countRecentAuditEvents, listAuditEvents } from '../audit/audit.service.js';
import { countInstances, instanceNames } from '../instances/instances.service.js';

/** E-mail addresses of the given users by id. */
async function userEmails(tx: Tx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; email: string }>('SELECT id, email FROM app_user WHERE id = ANY ($1::uuid[])', [[...new Set(ids)]]);
  return new Map(rows.map((row) => [row.id, row.email]));
}

const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const pageQuery = z.object({
  page: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'id must be greater than 0').max(100000).default(1),
  pageSize: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'id must be greater than 0').max(500).default(50),
});

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/napi/admin/audit/list',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'Security audit trail, newest first: sign-ins and failures, 2FA and passkey changes, role changes, instance switches.',
        querystring: pageQuery.extend({ event: z.string().max(64).optional() }),
        response: {
          200: z.object({
            data: z.array(
              z.object({
                id: z.string(),
                occurredAt: z.string(),
                event: z.string(),
                user: z.object({ uuid: z.string(), email: z.string() }).nullable(),
                instance: z.object({ uuid: z.string(), name: z.string() }).nullable(),
                ip: z.string().nullable(),
                userAgent: z.string().nullable(),
                detail: z.record(z.string(), z.unknown()),
              }),
            ),
            total: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { page, pageSize, event } = request.query;
      return app.db.withAuth(async (tx) => {
        const { rows, total } = await listAuditEvents(tx, { page, pageSize, event });
        const emails = await userEmails(tx, rows.flatMap((row) => (row.userId ? [row.userId] : [])));
        const names = await instanceNames(tx, rows.flatMap((row) => (row.instanceId ? [row.instanceId] : [])));
        return {
          data: rows.map((row) => ({
            id: row.id,
            occurredAt: row.occurredAt,
            event: row.event,
            user: row.userId ? { uuid: row.userId, email: emails.get(row.userId) ?? '' } : null,
            instance: row.instanceId ? { uuid: row.instanceId, name: names.get(row.instanceId) ?? '' } : null,
            ip: row.ip,
            userAgent: row.userAgent,
            detail: row.detail,
          })),
          total,
        };
      });
    },
  );

  app.get(
    '/napi/admin/action-log/list',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'Page views of every instance (POST /napi/action-log/insert), newest first.',
        querystring: pageQuery,
        response: {
          200: z.object({
            data: z.array(
              z.object({
                createdAt: z.string(),
                url: z.string(),
                user: z.object({ uuid: z.string(), email: z.string() }).nullable(),
                instance: z.object({ uuid: z.string(), name: z.string() }),
              }),
            ),
            total: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      return app.db.withAuth(async (tx) => {
        const { rows, total } = await listPageViews(tx, { page, pageSize });
        const emails = await userEmails(tx, rows.flatMap((row) => (row.userId ? [row.userId] : [])));
        const names = await instanceNames(tx, rows.map((row) => row.instanceId));
        return {
          data: rows.map((row) => ({
            createdAt: row.createdAt,
            url: row.url,
            user: row.userId ? { uuid: row.userId, email: emails.get(row.userId) ?? '' } : null,
            instance: { uuid: row.instanceId, name: names.get(row.instanceId) ?? '' },
          })),
          total,
        };
      });
    },
  );

  app.get(
    '/napi/admin/analytics',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'Platform counts: users, instances, live sessions, 2FA and passkey users, blocked accounts, sign-ins of the last 30 days.',
        response: {
          200: z.object({
            users: z.number().int(),
            instances: z.number().int(),
            liveSessions: z.number().int(),
            twoFactorUsers: z.number().int(),
            passkeyUsers: z.number().int(),
            blockedUsers: z.array(z.object({ uuid: z.string(), email: z.string(), blockedAt: z.string() })),
            signIns30d: z.number().int(),
            failedSignIns30d: z.number().int(),
          }),
        },
      },
    },
    async () =>
      app.db.withAuth(async (tx) => {
        const [row] = await tx.query<Record<string, number>>(
          `SELECT (SELECT count(*)::int FROM app_user) AS users,
                  (SELECT count(DISTINCT family_id)::int FROM auth_session WHERE revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now()) AS live,
                  (SELECT count(*)::int FROM user_totp WHERE enabled_at IS NOT NULL) AS totp,
                  (SELECT count(DISTINCT user_id)::int FROM webauthn_credential) AS passkeys`,
        );
        const blocked = await tx.query<{ id: string; email: string; blocked_at: string }>(
          'SELECT id, email, blocked_at FROM app_user WHERE blocked_at IS NOT NULL ORDER BY blocked_at DESC',
        );
        return {
          users: row!.users!,
          instances: await countInstances(tx),
          liveSessions: row!.live!,
          twoFactorUsers: row!.totp!,
          passkeyUsers: row!.passkeys!,
          blockedUsers: blocked.map((b) => ({ uuid: b.id, email: b.email, blockedAt: b.blocked_at })),
          signIns30d: await countRecentAuditEvents(tx, ['signin.success', 'signup'], 30),
          failedSignIns30d: await countRecentAuditEvents(tx, ['signin.failure', 'twofactor.failure', 'passkey.failure'], 30),
        };
      }),
  );

  app.post(
    '/napi/admin/user/unblock',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description: 'Support unblocks an account blocked after too many wrong two-factor codes (spec §8). 404 for an unknown user.',
        body: z.strictObject({ uuid: z.uuid('uuid invalid') }),
        response: { 200: z.object({ ok: z.literal(true) }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const ok = await unblockUser(app.db, request.body.uuid, auth(request).userId, { ip: request.ip, userAgent: request.headers['user-agent'] });
      if (!ok) throw identityError('user_not_found', 'User not found');
      return { ok: true as const };
    },
  );
};
