/**
 * Records security events (issue #3 §5 "Audit trail") and changes of manual journal entries (issue
 * 11 §2) with time, user, instance, IP and user agent. Call it inside the transaction of the change it records, so an event exists exactly when the
 * change does; a refused attempt is recorded in its own transaction (see recordAuditNow).
 */
import type { FastifyRequest } from 'fastify';
import type { Database, Tx } from '../../db/database.js';

export type AuditEvent =
  | 'signin.success'
  | 'signin.failure'
  | 'signin.second_factor_required'
  | 'signup'
  | 'logout'
  | 'session.revoked'
  | 'session.revoked_all'
  | 'refresh.reuse_detected'
  | 'session.expired'
  | 'twofactor.enabled'
  | 'twofactor.disabled'
  | 'twofactor.failure'
  | 'twofactor.blocked'
  | 'account.unblocked'
  | 'passkey.registered'
  | 'passkey.signin'
  | 'passkey.failure'
  | 'member.invited'
  | 'member.joined'
  | 'member.invitation_revoked'
  | 'profile.updated'
  | 'member.role_changed'
  | 'member.removed'
  | 'instance.switched'
  | JournalAuditEvent;

/** Changes of manual journal entries (issue 11 §2), with the entry before and after in `detail`. */
export type JournalAuditEvent = 'journal_entry.updated' | 'journal_entry.deleted' | 'journal_entry.merged' | 'journal_line.updated';

export interface AuditRecord {
  event: AuditEvent;
  userId?: string | null;
  instanceId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  detail?: Record<string, unknown>;
}

/** Client facts for an audit record. */
export const auditClient = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
});

export async function recordAudit(tx: Tx, record: AuditRecord): Promise<void> {
  await tx.query(
    `INSERT INTO audit_event (event, user_id, instance_id, ip, user_agent, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      record.event,
      record.userId ?? null,
      record.instanceId ?? null,
      record.ip ?? null,
      record.userAgent ?? null,
      JSON.stringify(record.detail ?? {}),
    ],
  );
}

/** Records an event in a transaction of its own (as bilan_auth), e.g. a refused sign-in whose own transaction rolls back. */
export async function recordAuditNow(db: Database, record: AuditRecord): Promise<void> {
  await db.withAuth((tx) => recordAudit(tx, record));
}
