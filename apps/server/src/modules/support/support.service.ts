/**
 * Support requests (issue 16 §2, spec §1 "support requests", §2.2 `/support`, §7.2 POST
 * /napi/support/send; decision 028). A request is stored with its e-mail to the support team
 * (BILAN_SUPPORT_EMAIL, through the messaging outbox) in one transaction; a superadmin answers it
 * from the queue (status open → answered → closed), each answer e-mailed to the requester and
 * shown on their support page. Requests from the sign-in pages (no session: a user blocked by
 * two-factor attempts) carry only the e-mail typed in.
 */
import type { Database, Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { instanceNames } from '../instances/instances.service.js';
import type { Attachment, Mailer } from '../messaging/messaging.service.js';

export const SUPPORT_STATUSES = ['open', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** Largest attachment (a screenshot or a file), bytes. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export interface NewSupportRequest {
  email: string;
  subject: string;
  message: string;
  attachment?: Attachment | undefined;
}

export interface SupportReply {
  position: number;
  authorRole: 'support' | 'user';
  message: string;
  createdAt: string;
}

export interface SupportRequest {
  uuid: string;
  email: string;
  subject: string;
  message: string;
  origin: 'session' | 'signin';
  status: SupportStatus;
  instance: { uuid: string; name: string } | null;
  attachment: { filename: string; contentType: string; size: number } | null;
  createdAt: string;
  updatedAt: string;
  replies: SupportReply[];
}

/** Who writes: a signed-in user (instance and user known) or someone at the sign-in pages. */
export type Requester = { origin: 'session'; instanceId: string; userId: string } | { origin: 'signin'; instanceId: string | null };

type RequestRow = {
  uuid: string;
  instance_id: string | null;
  email: string;
  subject: string;
  message: string;
  origin: 'session' | 'signin';
  status: SupportStatus;
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  created_at: string;
  updated_at: string;
};

const SELECT = `SELECT r.uuid, r.instance_id, r.email, r.subject, r.message, r.origin, r.status,
  r.attachment_name, r.attachment_type, octet_length(r.attachment) AS attachment_size, r.created_at, r.updated_at
  FROM support_request r`;

async function withReplies(tx: Tx, rows: RequestRow[]): Promise<SupportRequest[]> {
  if (rows.length === 0) return [];
  const replies = await tx.query<{ request_uuid: string; position: number; author_role: 'support' | 'user'; message: string; created_at: string }>(
    'SELECT request_uuid, position, author_role, message, created_at FROM support_reply WHERE request_uuid = ANY ($1::uuid[]) ORDER BY request_uuid, position',
    [rows.map((row) => row.uuid)],
  );
  // The instances module names them (as bilan_app only the own instance, as bilan_auth all).
  const names = await instanceNames(tx, [...new Set(rows.flatMap((row) => (row.instance_id ? [row.instance_id] : [])))]);
  return rows.map((row) => ({
    uuid: row.uuid,
    email: row.email,
    subject: row.subject,
    message: row.message,
    origin: row.origin,
    status: row.status,
    instance: row.instance_id ? { uuid: row.instance_id, name: names.get(row.instance_id) ?? '' } : null,
    attachment: row.attachment_name ? { filename: row.attachment_name, contentType: row.attachment_type!, size: Number(row.attachment_size) } : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    replies: replies
      .filter((reply) => reply.request_uuid === row.uuid)
      .map((reply) => ({ position: reply.position, authorRole: reply.author_role, message: reply.message, createdAt: reply.created_at })),
  }));
}

const supportMailBody = (request: NewSupportRequest, requester: Requester, instanceName: string | null): string =>
  [
    `Support request from ${request.email}${requester.origin === 'signin' ? ' (written at sign-in, without a session)' : ''}`,
    `Workplace: ${instanceName ?? 'unknown'}`,
    '',
    request.message,
    '',
    'Answer it from the support queue: /superadmin/support',
  ].join('\n');

/**
 * Stores a request and, when BILAN_SUPPORT_EMAIL is set and the request belongs to an instance,
 * queues its e-mail to the support team in the same transaction (the outbox is per instance).
 * Returns the stored request.
 */
export async function createSupportRequest(
  db: Database,
  mailer: Mailer,
  supportEmail: string | undefined,
  requester: Requester,
  request: NewSupportRequest,
): Promise<SupportRequest> {
  const insert = async (tx: Tx): Promise<SupportRequest> => {
    const [row] = await tx.query<{ uuid: string }>(
      `INSERT INTO support_request (instance_id, user_id, email, subject, message, origin, attachment_name, attachment_type, attachment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING uuid`,
      [
        requester.instanceId,
        requester.origin === 'session' ? requester.userId : null,
        request.email,
        request.subject,
        request.message,
        requester.origin,
        request.attachment?.filename ?? null,
        request.attachment?.contentType ?? null,
        request.attachment?.content ?? null,
      ],
    );
    const [stored] = await withReplies(tx, await tx.query<RequestRow>(`${SELECT} WHERE r.uuid = $1`, [row!.uuid]));
    if (supportEmail && requester.instanceId) {
      await mailer.queue(tx, requester.instanceId, requester.origin === 'session' ? requester.userId : null, {
        kind: 'support',
        documentRef: stored!.uuid,
        to: [supportEmail],
        subject: `[Support] ${request.subject}`,
        body: supportMailBody(request, requester, stored!.instance?.name ?? null),
        attachments: request.attachment ? [request.attachment] : [],
      });
    }
    return stored!;
  };
  return requester.instanceId ? db.withInstance(requester.instanceId, insert) : db.withAuth(insert);
}

/** The signed-in user's own requests (those written with a session), newest first, with replies. */
export async function listOwnRequests(tx: Tx, userId: string): Promise<SupportRequest[]> {
  return withReplies(tx, await tx.query<RequestRow>(`${SELECT} WHERE r.user_id = $1 AND r.origin = 'session' ORDER BY r.created_at DESC LIMIT 200`, [userId]));
}

/** The superadmin queue: every request, open ones first, then newest first; optionally of one status. */
export async function listQueue(tx: Tx, status: SupportStatus | undefined): Promise<SupportRequest[]> {
  const rows = await tx.query<RequestRow>(
    `${SELECT} WHERE ($1::text IS NULL OR r.status = $1)
     ORDER BY CASE r.status WHEN 'open' THEN 0 WHEN 'answered' THEN 1 ELSE 2 END, r.created_at DESC LIMIT 500`,
    [status ?? null],
  );
  return withReplies(tx, rows);
}

/** The request's attachment (superadmin download); 404 when the request has none. */
export async function requestAttachment(tx: Tx, uuid: string): Promise<Attachment> {
  const [row] = await tx.query<{ attachment_name: string | null; attachment_type: string | null; attachment: Buffer | null }>(
    'SELECT attachment_name, attachment_type, attachment FROM support_request WHERE uuid = $1',
    [uuid],
  );
  if (!row?.attachment) throw new AppError('not_found', 'Attachment not found');
  return { filename: row.attachment_name!, contentType: row.attachment_type!, content: Buffer.from(row.attachment) };
}

/**
 * A superadmin's answer: stored as the next reply, the request marked answered (from open or
 * answered; a closed request is reopened only by its user), and e-mailed to the requester in the
 * same transaction when the request belongs to an instance. The row is locked, so parallel answers
 * get distinct positions. 404 unknown request.
 */
export async function answerRequest(db: Database, mailer: Mailer, uuid: string, authorId: string, message: string): Promise<SupportRequest> {
  const [located] = await db.withAuth((tx) => tx.query<{ instance_id: string | null }>('SELECT instance_id FROM support_request WHERE uuid = $1', [uuid]));
  if (!located) throw requestNotFound();
  const answer = async (tx: Tx): Promise<SupportRequest> => {
    const [row] = await tx.query<RequestRow>(`SELECT uuid, email, subject, instance_id FROM support_request WHERE uuid = $1 FOR UPDATE`, [uuid]);
    if (!row) throw requestNotFound();
    await tx.query(
      `INSERT INTO support_reply (request_uuid, position, instance_id, author_id, author_role, message)
       VALUES ($1, (SELECT coalesce(max(position), 0) + 1 FROM support_reply WHERE request_uuid = $1), $2, $3, 'support', $4)`,
      [uuid, row.instance_id, authorId, message],
    );
    await tx.query(`UPDATE support_request SET status = 'answered', updated_at = now() WHERE uuid = $1`, [uuid]);
    if (row.instance_id) {
      await mailer.queue(tx, row.instance_id, null, {
        kind: 'support',
        documentRef: uuid,
        to: [row.email],
        subject: `Re: ${row.subject}`,
        body: `${message}\n\n— Bilan support\n\nYour requests and our answers: /support`,
      });
    }
    return (await withReplies(tx, await tx.query<RequestRow>(`${SELECT} WHERE r.uuid = $1`, [uuid])))[0]!;
  };
  return located.instance_id ? db.withInstance(located.instance_id, answer) : db.withAuth(answer);
}

/**
 * A follow-up of the requester on their own request: stored as a reply, and the request is open
 * again (the support team sees it on top of the queue). 404 when the request is not theirs.
 */
export async function followUp(tx: Tx, userId: string, uuid: string, message: string): Promise<SupportRequest> {
  const [row] = await tx.query<{ instance_id: string | null }>(
    `SELECT instance_id FROM support_request WHERE uuid = $1 AND user_id = $2 AND origin = 'session' FOR UPDATE`,
    [uuid, userId],
  );
  if (!row) throw requestNotFound();
  await tx.query(
    `INSERT INTO support_reply (request_uuid, position, instance_id, author_id, author_role, message)
     VALUES ($1, (SELECT coalesce(max(position), 0) + 1 FROM support_reply WHERE request_uuid = $1), $2, $3, 'user', $4)`,
    [uuid, row.instance_id, userId, message],
  );
  await tx.query(`UPDATE support_request SET status = 'open', updated_at = now() WHERE uuid = $1`, [uuid]);
  return (await withReplies(tx, await tx.query<RequestRow>(`${SELECT} WHERE r.uuid = $1`, [uuid])))[0]!;
}

/**
 * Sets the status (superadmin: close an answered request, or reopen). A conditional update: a
 * request already in that status answers `changed: false`. 404 unknown request.
 */
export async function setStatus(tx: Tx, uuid: string, status: SupportStatus): Promise<{ request: SupportRequest; changed: boolean }> {
  const updated = await tx.query(`UPDATE support_request SET status = $2, updated_at = now() WHERE uuid = $1 AND status <> $2 RETURNING uuid`, [uuid, status]);
  const [request] = await withReplies(tx, await tx.query<RequestRow>(`${SELECT} WHERE r.uuid = $1`, [uuid]));
  if (!request) throw requestNotFound();
  return { request, changed: updated.length > 0 };
}

/** A decoded attachment, or a 400 naming `file` (bad base64, empty, too large). */
export function decodeAttachment(file: { name: string; contentType: string; content: string } | undefined): Attachment | undefined {
  if (!file) return undefined;
  const content = Buffer.from(file.content, 'base64');
  if (content.length === 0) throw new AppError('validation', 'file: the file is empty or not base64', { file: 'the file is empty or not base64' });
  if (content.length > MAX_ATTACHMENT_BYTES) throw new AppError('validation', 'file: larger than 5 MB', { file: 'larger than 5 MB' });
  return { filename: file.name, contentType: file.contentType, content };
}

const requestNotFound = () => new AppError('not_found', 'Support request not found', { uuid: 'Support request not found' });
