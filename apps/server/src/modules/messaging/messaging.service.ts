/**
 * Outgoing e-mail (issue 15 §1, decision 023): every message is stored (outbound_message and its
 * attachments) in the caller's transaction before anything is sent, and delivered by a job of the
 * `mail-delivery` queue over SMTP with nodemailer. A refusal keeps the server's answer on the
 * message and fails the job, which the runner retries with backoff. Without BILAN_SMTP_URL the
 * message is stored as `not_sent` and the Outbox page shows it: nothing is lost, nothing is tried.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database, Tx } from '../../db/database.js';
import type { Job, JobRunner } from '../jobs/job-runner.js';

export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'failed', 'not_sent'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_KINDS = ['invoice', 'invitation', 'support'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MAIL_QUEUE = 'mail-delivery';

export interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A message to store and send: plain text, to one or more addresses, about a document. */
export interface NewMessage {
  kind: MessageKind;
  /** The document it is about: an invoice's uuid, an invitation's id. */
  documentRef: string | null;
  to: readonly string[];
  subject: string;
  body: string;
  attachments?: readonly Attachment[];
}

/** A stored message as lists show it (no body content of attachments). */
export interface MessageSummary {
  id: number;
  uuid: string;
  kind: MessageKind;
  documentRef: string | null;
  from: string;
  to: string[];
  subject: string;
  status: MessageStatus;
  attempts: number;
  /** The mail server's last answer (accepted or refused); null before the first attempt. */
  serverResponse: string | null;
  createdAt: string;
  sentAt: string | null;
  attachments: { filename: string; contentType: string; size: number }[];
}

type MessageRow = {
  id: number;
  uuid: string;
  kind: MessageKind;
  document_ref: string | null;
  from_address: string;
  to_addresses: string[];
  subject: string;
  body_text: string;
  status: MessageStatus;
  attempts: number;
  server_response: string | null;
  created_at: string;
  sent_at: string | null;
};

const COLUMNS = 'id, uuid, kind, document_ref, from_address, to_addresses, subject, body_text, status, attempts, server_response, created_at, sent_at';

/** The job's data: which message of which instance (the message row holds the rest). */
interface DeliveryJob {
  instanceId: string;
  messageId: number;
}

// A claim older than the queue's expiry (300 s, migration 0034) belongs to a runner that died.
const STALE_CLAIM = "interval '300 seconds'";

export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly db: Database,
    private readonly jobs: JobRunner,
    readonly settings: { smtpUrl: string | undefined; from: string },
  ) {
    // Timeouts well under the queue's 300 s expiry: a hung server fails the attempt (retried)
    // before the job could be handed to another runner while this one still sends.
    this.transport = settings.smtpUrl
      ? nodemailer.createTransport({ url: settings.smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 120_000 })
      : undefined;
    jobs.register<DeliveryJob>(MAIL_QUEUE, (job) => this.deliver(job));
  }

  /** Whether a mail server is configured (BILAN_SMTP_URL); without one messages are stored as not_sent. */
  get isConfigured(): boolean {
    return this.transport !== undefined;
  }

  /**
   * Stores `message` in `tx` (status queued, or not_sent without a mail server) with its
   * attachments, and adds its delivery job in the same transaction: the job exists exactly when
   * the message does. Returns the stored message.
   */
  async queue(tx: Tx, instanceId: string, userId: string | null, message: NewMessage): Promise<MessageSummary> {
    const status: MessageStatus = this.isConfigured ? 'queued' : 'not_sent';
    const [row] = await tx.query<MessageRow>(
      `INSERT INTO outbound_message (instance_id, id, kind, document_ref, from_address, to_addresses, subject, body_text, status, created_by)
       VALUES ($1, next_ids($1, 'outbound_message'), $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [instanceId, message.kind, message.documentRef, this.settings.from, [...message.to], message.subject, message.body, status, userId],
    );
    const attachments = message.attachments ?? [];
    for (const [index, attachment] of attachments.entries()) {
      await tx.query(
        `INSERT INTO outbound_attachment (instance_id, message_id, position, filename, content_type, content) VALUES ($1, $2, $3, $4, $5, $6)`,
        [instanceId, row!.id, index + 1, attachment.filename, attachment.contentType, attachment.content],
      );
    }
    if (this.isConfigured) await this.jobs.enqueue(tx, MAIL_QUEUE, { instanceId, messageId: row!.id } satisfies DeliveryJob);
    return toSummary(row!, attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })));
  }

  /**
   * Queues a failed or not-sent message again (a mail server was configured since, or the outbox
   * user asks). Returns null when the message is in another status (already queued, sending or sent).
   */
  async requeue(tx: Tx, instanceId: string, uuid: string): Promise<MessageSummary | null> {
    if (!this.isConfigured) return null;
    const [row] = await tx.query<MessageRow>(
      `UPDATE outbound_message SET status = 'queued', updated_at = now() WHERE uuid = $1 AND status IN ('failed', 'not_sent') RETURNING ${COLUMNS}`,
      [uuid],
    );
    if (!row) return null;
    await this.jobs.enqueue(tx, MAIL_QUEUE, { instanceId, messageId: row.id } satisfies DeliveryJob);
    return (await messagesWhere(tx, 'uuid = $1', [uuid]))[0] ?? null;
  }

  /**
   * The delivery job: claims the message (queued or failed, or a claim older than the queue's
   * expiry) with one conditional update, so two runners never send it twice; sends it outside any
   * transaction; keeps the server's answer. A refusal marks the message failed and throws, so the
   * job runner retries it.
   */
  private async deliver(job: Job<DeliveryJob>): Promise<void> {
    const { instanceId, messageId } = job.data;
    const claimed = await this.db.withInstance(instanceId, async (tx) => {
      const [row] = await tx.query<MessageRow>(
        `UPDATE outbound_message SET status = 'sending', attempts = attempts + 1, updated_at = now()
          WHERE id = $1 AND (status IN ('queued', 'failed') OR (status = 'sending' AND updated_at < now() - ${STALE_CLAIM}))
          RETURNING ${COLUMNS}`,
        [messageId],
      );
      if (!row) return null;
      const attachments = await tx.query<{ filename: string; content_type: string; content: Uint8Array }>(
        'SELECT filename, content_type, content FROM outbound_attachment WHERE message_id = $1 ORDER BY position',
        [messageId],
      );
      return { row, attachments };
    });
    if (!claimed) return; // sent already, or another runner is sending it
    if (!this.transport) {
      await this.finish(instanceId, messageId, 'not_sent', 'no mail server configured');
      return;
    }
    const { row, attachments } = claimed;
    try {
      const info = await this.transport.sendMail({
        from: row.from_address,
        to: row.to_addresses,
        subject: row.subject,
        text: row.body_text,
        attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: Buffer.from(a.content) })),
      });
      await this.finish(instanceId, messageId, 'sent', String(info.response ?? ''), info.messageId);
    } catch (error) {
      // nodemailer puts the server's reply in `response` ('550 5.1.1 <x@y>: Recipient address rejected').
      const answer = (error as { response?: string }).response ?? (error instanceof Error ? error.message : String(error));
      await this.finish(instanceId, messageId, 'failed', answer.slice(0, 2000));
      throw new Error(answer, { cause: error });
    }
  }

  private async finish(instanceId: string, messageId: number, status: MessageStatus, response: string, smtpMessageId?: string) {
    await this.db.withInstance(instanceId, (tx) =>
      tx.query(
        `UPDATE outbound_message SET status = $2, server_response = $3, message_id = $4, updated_at = now(),
                sent_at = CASE WHEN $2 = 'sent' THEN now() END
          WHERE id = $1`,
        [messageId, status, response, smtpMessageId ?? null],
      ),
    );
  }

  /** Closes the SMTP connections (pooled transports). */
  close(): void {
    this.transport?.close();
  }
}

function toSummary(row: MessageRow, attachments: MessageSummary['attachments']): MessageSummary {
  return {
    id: row.id,
    uuid: row.uuid,
    kind: row.kind,
    documentRef: row.document_ref,
    from: row.from_address,
    to: row.to_addresses,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    serverResponse: row.server_response,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    attachments,
  };
}

async function messagesWhere(tx: Tx, where: string, params: unknown[], tail = 'ORDER BY created_at DESC, id DESC'): Promise<MessageSummary[]> {
  const rows = await tx.query<MessageRow>(`SELECT ${COLUMNS} FROM outbound_message WHERE ${where} ${tail}`, params);
  if (rows.length === 0) return [];
  const files = await tx.query<{ message_id: number; filename: string; content_type: string; size: number }>(
    'SELECT message_id, filename, content_type, octet_length(content) AS size FROM outbound_attachment WHERE message_id = ANY ($1::int[]) ORDER BY message_id, position',
    [rows.map((r) => r.id)],
  );
  return rows.map((row) =>
    toSummary(
      row,
      files.filter((f) => f.message_id === row.id).map((f) => ({ filename: f.filename, contentType: f.content_type, size: Number(f.size) })),
    ),
  );
}

/** Messages of the instance, newest first, optionally of one status; with the total count. */
export async function listMessages(
  tx: Tx,
  filter: { status?: MessageStatus; page: number; pageSize: number },
): Promise<{ data: MessageSummary[]; total: number }> {
  const where = filter.status ? 'status = $1' : '$1::text IS NULL';
  const params = [filter.status ?? null];
  const [count] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbound_message WHERE ${where}`, params);
  const data = await messagesWhere(tx, where, params, `ORDER BY created_at DESC, id DESC LIMIT ${filter.pageSize} OFFSET ${(filter.page - 1) * filter.pageSize}`);
  return { data, total: count!.n };
}

/** The messages about one document (an invoice's history), newest first. */
export async function messagesAbout(tx: Tx, kind: MessageKind, documentRef: string): Promise<MessageSummary[]> {
  return messagesWhere(tx, 'kind = $1 AND document_ref = $2', [kind, documentRef]);
}

/** Whether the instance has a message of this uuid. */
export async function messageExists(tx: Tx, uuid: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM outbound_message WHERE uuid = $1', [uuid])).length > 0;
}
