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
  | JournalAuditEvent
  | LockAuditEvent
  | ClosingAuditEvent
  | VatCodeAuditEvent
  | VatAuditEvent
  | BankAuditEvent;

/** Bank reconciliation by hand (issue 14 §1, §2), with the lines, postings, reason or file in `detail`. */
export type BankAuditEvent = 'bank_line.matched' | 'bank_line.unmatched' | 'bank_line.ignored' | 'bank_line.unignored' | 'bank_line.booked' | 'bank_file.deleted' | 'bank_settings.updated';

/** Accounting locks created and deleted (issue 12 §1, spec §7.1 "Locks"), with the lock in `detail`. */
export type LockAuditEvent = 'accounting_lock.created' | 'accounting_lock.deleted';

/**
 * Year-end closing (issue 12 §3): a fiscal year closed or reopened (with the closing in `detail`)
 * and the accounting settings changed (before and after).
 */
export type ClosingAuditEvent = 'fiscal_year.closed' | 'fiscal_year.reopened' | 'accounting_settings.updated';
/** Changes of VAT codes (issue 13 §1), with the code before and after in `detail`. */
export type VatCodeAuditEvent = 'vat_code.created' | 'vat_code.updated' | 'vat_code.deleted';

/** VAT settings changed and VAT returns filed (issue 13 §3), with the settings or the return in `detail`. */
export type VatAuditEvent = 'vat_settings.updated' | 'vat_return.filed';

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

/** One audit record as stored; `detail` is the JSON object given to `recordAudit`. */
export interface AuditEventRow {
  id: string;
  occurredAt: string;
  event: string;
  userId: string | null;
  instanceId: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown>;
}

/** A page of the audit trail of every instance, newest first, optionally of one event, with the total count. */
export async function listAuditEvents(tx: Tx, query: { page: number; pageSize: number; event?: string }): Promise<{ rows: AuditEventRow[]; total: number }> {
  const rows = await tx.query<{
    id: string;
    occurred_at: string;
    event: string;
    user_id: string | null;
    instance_id: string | null;
    ip: string | null;
    user_agent: string | null;
    detail: Record<string, unknown> | string;
  }>(
    `SELECT id, occurred_at, event, user_id, instance_id, ip, user_agent, detail FROM audit_event
      WHERE ($3::text IS NULL OR event = $3) ORDER BY id DESC LIMIT $1 OFFSET $2`,
    [query.pageSize, (query.page - 1) * query.pageSize, query.event ?? null],
  );
  const [count] = await tx.query<{ total: number }>('SELECT count(*)::int AS total FROM audit_event WHERE ($1::text IS NULL OR event = $1)', [query.event ?? null]);
  return {
    rows: rows.map((row) => ({
      id: String(row.id),
      occurredAt: row.occurred_at,
      event: row.event,
      userId: row.user_id,
      instanceId: row.instance_id,
      ip: row.ip,
      userAgent: row.user_agent,
      detail: typeof row.detail === 'string' ? (JSON.parse(row.detail) as Record<string, unknown>) : row.detail,
    })),
    total: count!.total,
  };
}

/** How many events of the given kinds were recorded in the last `days` days. */
export async function countRecentAuditEvents(tx: Tx, events: readonly AuditEvent[], days: number): Promise<number> {
  const [row] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM audit_event WHERE event = ANY ($1::text[]) AND occurred_at > now() - make_interval(days => $2)`,
    [[...events], days],
  );
  return row!.count;
}
