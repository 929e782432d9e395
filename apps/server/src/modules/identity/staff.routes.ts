/**
 * Staff of an instance (issue #3 §4): members with their roles and open invitations. Owners and
 * admins invite by e-mail (accepted at the invitee's next sign-in with that e-mail, see
 * identity/invitations.service `acceptInvitations`), change roles and remove members. Rules that keep an instance
 * governable: nobody changes their own role or removes themselves, only an owner grants or takes
 * away the owner role, and the last owner stays.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RoleName } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { auth, type AuthContext } from '../../http/access.js';
import { identityError } from './identity.errors.js';
import { auditClient, recordAudit } from '../audit/audit.service.js';
import { instanceNames } from '../instances/instances.service.js';
import { queueInvitationMail } from './invitation-mail.js';

const roleSchema = z.enum(['owner', 'admin', 'accountant', 'viewer'], { error: "role must be one of 'owner', 'admin', 'accountant', 'viewer'" });
const errorSchema = z.object({ error: z.string(), fields: z.record(z.string(), z.string()).optional() }).passthrough();
const emailSchema = z
  .string({ error: 'This field is required' })
  .max(254, 'email invalid')
  .refine((value) => value === value.trim(), 'email must not contain any whitespace (before or after)')
  .pipe(z.email('email invalid'));
const memberSchema = z.object({ uuid: z.string(), email: z.string(), firstName: z.string(), lastName: z.string(), role: roleSchema, current: z.boolean() });
const invitationSchema = z.object({ id: z.number().int(), email: z.string(), role: roleSchema, createdAt: z.string() });

async function roleOf(tx: Tx, userId: string): Promise<RoleName | undefined> {
  const [row] = await tx.query<{ role: RoleName }>('SELECT role FROM instance_member WHERE user_id = $1', [userId]);
  return row?.role;
}

/** Checks that `actor` may move `target` from `from` to `to` (undefined = removal). */
async function assertMayChange(tx: Tx, actor: AuthContext, target: string, from: RoleName, to: RoleName | undefined): Promise<void> {
  if (target === actor.userId) throw identityError('own_membership', 'You cannot change your own role or remove yourself', { uuid: 'that is you' });
  if ((from === 'owner' || to === 'owner') && actor.role !== 'owner') throw identityError('owner_role_reserved', 'Only an owner may grant or take away the owner role');
  if (from === 'owner' && to !== 'owner') {
    const [row] = await tx.query<{ owners: number }>(`SELECT count(*)::int AS owners FROM instance_member WHERE role = 'owner'`);
    if ((row?.owners ?? 0) <= 1) throw identityError('last_owner', 'An instance keeps at least one owner');
  }
}

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/instance/member/list',
    {
      config: { access: 'read' },
      schema: {
        tags: ['staff'],
        description: 'Members of the current instance (sorted by e-mail) and the open invitations.',
        response: { 200: z.object({ data: z.array(memberSchema), invitations: z.array(invitationSchema) }) },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const members = await tx.query<{ id: string; email: string; first_name: string; last_name: string; role: RoleName }>(
          `SELECT u.id, u.email, u.first_name, u.last_name, m.role FROM instance_member m JOIN app_user u ON u.id = m.user_id ORDER BY u.email`,
        );
        const invitations = await tx.query<{ id: number; email: string; role: RoleName; created_at: string }>(
          'SELECT id, email, role, created_at FROM instance_invitation WHERE accepted_at IS NULL ORDER BY email',
        );
        return {
          data: members.map((m) => ({ uuid: m.id, email: m.email, firstName: m.first_name, lastName: m.last_name, role: m.role, current: m.id === userId })),
          invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, createdAt: i.created_at })),
        };
      });
    },
  );

  app.post(
    '/api/instance/member/invite',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['staff'],
        description:
          'Invites a person by e-mail with a role and e-mails them the sign-in link of the workplace (outbox, kind invitation); the ' +
          'invitation is accepted when that e-mail next signs in through any provider. ' +
          '409 when the person is already a member or invited; 403 when an admin tries to invite an owner.',
        body: z.strictObject({ email: emailSchema, role: roleSchema }),
        response: { 200: invitationSchema, 400: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const actor = auth(request);
      const email = request.body.email.toLowerCase();
      const { role } = request.body;
      if (role === 'owner' && actor.role !== 'owner') throw identityError('owner_role_reserved', 'Only an owner may grant or take away the owner role');
      return app.db.withInstance(actor.instanceId, async (tx) => {
        const [member] = await tx.query('SELECT 1 FROM instance_member m JOIN app_user u ON u.id = m.user_id WHERE u.email = $1', [email]);
        if (member) throw identityError('already_member', 'This person is already a member', { email: 'already a member' });
        const [open] = await tx.query('SELECT 1 FROM instance_invitation WHERE email = $1 AND accepted_at IS NULL', [email]);
        if (open) throw identityError('already_invited', 'This person is already invited', { email: 'already invited' });
        const [row] = await tx.query<{ id: number; created_at: string }>(
          `INSERT INTO instance_invitation (instance_id, id, email, role, invited_by)
           VALUES ($1, next_ids($1, 'invitation'), $2, $3, $4) RETURNING id, created_at`,
          [actor.instanceId, email, role, actor.userId],
        );
        await recordAudit(tx, { event: 'member.invited', userId: actor.userId, instanceId: actor.instanceId, ...auditClient(request), detail: { email, role } });
        const instanceName = (await instanceNames(tx, [actor.instanceId])).get(actor.instanceId) ?? '';
        await queueInvitationMail(tx, app.mailer, { instanceId: actor.instanceId, instanceName, invitationId: row!.id, email, role, invitedBy: actor.userId, publicUrl: app.config.publicUrl });
        return { id: row!.id, email, role, createdAt: row!.created_at };
      });
    },
  );

  app.post(
    '/api/instance/member/invitation/delete',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['staff'],
        description: 'Withdraws an open invitation. 404 for an unknown or accepted one.',
        body: z.strictObject({ id: z.number({ error: 'must be an integer' }).int('must be an integer').positive('id must be greater than 0') }),
        response: { 200: z.object({ ok: z.literal(true) }), 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const actor = auth(request);
      await app.db.withInstance(actor.instanceId, async (tx) => {
        const [row] = await tx.query<{ email: string }>('DELETE FROM instance_invitation WHERE id = $1 AND accepted_at IS NULL RETURNING email', [request.body.id]);
        if (!row) throw identityError('invitation_not_found', 'Invitation not found');
        await recordAudit(tx, { event: 'member.invitation_revoked', userId: actor.userId, instanceId: actor.instanceId, ...auditClient(request), detail: { email: row.email } });
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/api/instance/member/role',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['staff'],
        description: "Changes a member's role. 404 for a non-member; 409 for your own role or the last owner; 403 when an admin touches the owner role.",
        body: z.strictObject({ uuid: z.uuid('uuid invalid'), role: roleSchema }),
        response: { 200: z.object({ uuid: z.string(), role: roleSchema }), 400: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const actor = auth(request);
      const { uuid, role } = request.body;
      return app.db.withInstance(actor.instanceId, async (tx) => {
        const from = await roleOf(tx, uuid);
        if (!from) throw identityError('member_not_found', 'Member not found');
        await assertMayChange(tx, actor, uuid, from, role);
        await tx.query('UPDATE instance_member SET role = $2 WHERE user_id = $1', [uuid, role]);
        await recordAudit(tx, {
          event: 'member.role_changed',
          userId: actor.userId,
          instanceId: actor.instanceId,
          ...auditClient(request),
          detail: { member: uuid, from, to: role },
        });
        return { uuid, role };
      });
    },
  );

  app.post(
    '/api/instance/member/remove',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['staff'],
        description: 'Removes a member from the instance; their sessions there stop working at once. Same refusals as role changes.',
        body: z.strictObject({ uuid: z.uuid('uuid invalid') }),
        response: { 200: z.object({ ok: z.literal(true) }), 400: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const actor = auth(request);
      const { uuid } = request.body;
      await app.db.withInstance(actor.instanceId, async (tx) => {
        const from = await roleOf(tx, uuid);
        if (!from) throw identityError('member_not_found', 'Member not found');
        await assertMayChange(tx, actor, uuid, from, undefined);
        await tx.query('DELETE FROM instance_member WHERE user_id = $1', [uuid]);
        await recordAudit(tx, { event: 'member.removed', userId: actor.userId, instanceId: actor.instanceId, ...auditClient(request), detail: { member: uuid, role: from } });
      });
      return { ok: true as const };
    },
  );
};
