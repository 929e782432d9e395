/**
 * The e-mail of a staff invitation (issue 15 §1 "Staff invitations are e-mailed too"): queued in
 * the invitation's own transaction through the mail delivery, so the invitation and its message
 * exist together; without a mail server it waits in the outbox as not_sent. The link opens the
 * workplace's sign-in page (/login/{base64url {uuid, name}}, spec §2.8), where signing in with
 * the invited address accepts the invitation.
 */
import type { RoleName } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import type { Mailer, MessageSummary } from '../messaging/messaging.service.js';

export async function queueInvitationMail(
  tx: Tx,
  mailer: Mailer,
  invitation: { instanceId: string; instanceName: string; invitationId: number; email: string; role: RoleName; invitedBy: string | null; publicUrl: string },
): Promise<MessageSummary> {
  const param = Buffer.from(JSON.stringify({ uuid: invitation.instanceId, name: invitation.instanceName })).toString('base64url');
  const link = `${invitation.publicUrl}/login/${param}`;
  return mailer.queue(tx, invitation.instanceId, invitation.invitedBy, {
    kind: 'invitation',
    documentRef: String(invitation.invitationId),
    to: [invitation.email],
    subject: `Invitation to ${invitation.instanceName} on Bilan`,
    body:
      `Hello\n\nYou are invited to the workplace "${invitation.instanceName}" on Bilan as ${invitation.role}.\n\n` +
      `Sign in with this e-mail address (${invitation.email}) to accept the invitation:\n${link}\n`,
  });
}
