/**
 * Platform support pages for superadmins only (spec §2.6 "Superadmin links", issue #3 §4/§5):
 * the Logs page (sign-in audit trail and action log of every instance), Analytics (platform
 * counts) and the unblocking of accounts blocked by too many wrong two-factor codes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { notFound } from '../../http/errors.js';
import { unblockUser } from './two-factor.service.js';

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
        const rows = await tx.query<{
          id: string;
          occurred_at: string;
          event: string;
          user_id: string | null;
          email: string | null;
          instance_id: string | null;
          name: string | null;
          ip: string | null;
          user_agent: string | null;
          detail: Record<string, unknown>;
        }>(
          `SELECT a.id, a.occurred_at, a.event, a.user_id, u.email, a.instance_id, i.name, a.ip, a.user_agent, a.detail
             FROM audit_event a LEFT JOIN app_user u ON u.id = a.user_id LEFT JOIN instance i ON i.id = a.instance_id
            WHERE ($3::text IS NULL OR a.event = $3)
            ORDER BY a.id DESC LIMIT $1 OFFSET $2`,
          [pageSize, (page - 1) * pageSize, event ?? null],
        );
        const [count] = await tx.query<{ total: number }>('SELECT count(*)::int AS total FROM audit_event WHERE ($1::text IS NULL OR event = $1)', [event ?? null]);
        return {
          data: rows.map((row) => ({
            id: String(row.id),
            occurredAt: row.occurred_at,
            event: row.event,
            user: row.user_id ? { uuid: row.user_id, email: row.email ?? '' } : null,
            instance: row.instance_id ? { uuid: row.instance_id, name: row.name ?? '' } : null,
            ip: row.ip,
            userAgent: row.user_agent,
            detail: typeof row.detail === 'string' ? (JSON.parse(row.detail) as Record<string, unknown>) : row.detail,
          })),
          total: count!.total,
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
        const rows = await tx.query<{ created_at: string; url: string; user_id: string | null; email: string | null; instance_id: string; name: string }>(
          `SELECT l.created_at, l.url, l.user_id, u.email, l.instance_id, i.name
             FROM action_log l JOIN instance i ON i.id = l.instance_id LEFT JOIN app_user u ON u.id = l.user_id
            ORDER BY l.created_at DESC, l.id DESC LIMIT $1 OFFSET $2`,
          [pageSize, (page - 1) * pageSize],
        );
        const [count] = await tx.query<{ total: number }>('SELECT count(*)::int AS total FROM action_log');
        return {
          data: rows.map((row) => ({
            createdAt: row.created_at,
            url: row.url,
            user: row.user_id ? { uuid: row.user_id, email: row.email ?? '' } : null,
            instance: { uuid: row.instance_id, name: row.name },
          })),
          total: count!.total,
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
                  (SELECT count(*)::int FROM instance) AS instances,
                  (SELECT count(DISTINCT family_id)::int FROM auth_session WHERE revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now()) AS live,
                  (SELECT count(*)::int FROM user_totp WHERE enabled_at IS NOT NULL) AS totp,
                  (SELECT count(DISTINCT user_id)::int FROM webauthn_credential) AS passkeys,
                  (SELECT count(*)::int FROM audit_event WHERE event IN ('signin.success', 'signup') AND occurred_at > now() - interval '30 days') AS signins,
                  (SELECT count(*)::int FROM audit_event WHERE event IN ('signin.failure', 'twofactor.failure', 'passkey.failure') AND occurred_at > now() - interval '30 days') AS failures`,
        );
        const blocked = await tx.query<{ id: string; email: string; blocked_at: string }>(
          'SELECT id, email, blocked_at FROM app_user WHERE blocked_at IS NOT NULL ORDER BY blocked_at DESC',
        );
        return {
          users: row!.users!,
          instances: row!.instances!,
          liveSessions: row!.live!,
          twoFactorUsers: row!.totp!,
          passkeyUsers: row!.passkeys!,
          blockedUsers: blocked.map((b) => ({ uuid: b.id, email: b.email, blockedAt: b.blocked_at })),
          signIns30d: row!.signins!,
          failedSignIns30d: row!.failures!,
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
      if (!ok) throw notFound('User');
      return { ok: true as const };
    },
  );
};
