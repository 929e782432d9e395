/**
 * Staff invitations taken up at sign-in (issue #3 §4). Identity owns members and invitations; the
 * sign-in flows (auth's providers, passkeys) call this.
 */
import type { RoleName } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { recordAudit } from '../audit/audit.service.js';
import type { ClientMeta } from './session.service.js';

/**
 * Accepts every open staff invitation of the e-mail the provider vouched for (issue #3 §4: "accepted
 * at the next sign-in with that e-mail through any provider").
 */
export async function acceptInvitations(tx: Tx, userId: string, email: string, meta: ClientMeta): Promise<void> {
  const joined = await tx.query<{ instance_id: string; role: string }>(
    `WITH accepted AS (
       UPDATE instance_invitation SET accepted_at = now(), accepted_by = $2
        WHERE email = $1 AND accepted_at IS NULL
        RETURNING instance_id, role)
     INSERT INTO instance_member (instance_id, user_id, role)
     SELECT instance_id, $2, role FROM accepted
     ON CONFLICT (instance_id, user_id) DO NOTHING
     RETURNING instance_id, role`,
    [email, userId],
  );
  for (const row of joined) {
    await recordAudit(tx, {
      event: 'member.joined',
      userId,
      instanceId: row.instance_id,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
      detail: { role: row.role },
    });
  }
}

/** Adds the user to the instance with `role` (sign-up makes its user the owner). */
export async function addMember(tx: Tx, instanceId: string, userId: string, role: RoleName): Promise<void> {
  await tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [instanceId, userId, role]);
}

/** The user's role in the instance, undefined when not a member. */
export async function memberRole(tx: Tx, instanceId: string, userId: string): Promise<RoleName | undefined> {
  const [row] = await tx.query<{ role: RoleName }>('SELECT role FROM instance_member WHERE instance_id = $1 AND user_id = $2', [instanceId, userId]);
  return row?.role;
}
