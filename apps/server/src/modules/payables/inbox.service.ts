/**
 * The inbox (spec §3 "File", "Mail", §4 Mail status; issue #5 §2): mails and the files they or the
 * user brought, and the step that turns a file into a bill. A mail is pending 1 until a bill is
 * saved from one of its attachments (processed 2) or the user refuses it (refused 3).
 */
import PostalMime, { type Email } from 'postal-mime';
import { MailStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';
import { payableError } from './payables.errors.js';

/** Content types the inbox accepts (bills as PDF or photo, forwarded mails). */
export const FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'message/rfc822'] as const;
/** The voucher types a mail attachment may become an inbox file as. */
type VoucherType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';

export const mailStatusName: Record<number, string> = { 1: 'pending', 2: 'processed', 3: 'refused' };

export interface FileAnswer {
  uuid: string;
  name: string;
  mimeType: string;
  size: number;
  payable: { id: number } | null;
  mail: { id: number } | null;
  createdAt: string;
}

interface FileRow {
  uuid: string;
  name: string;
  mime_type: string;
  size: number;
  payable_id: number | null;
  mail_id: number | null;
  created_at: string;
  [key: string]: unknown;
}
export const FILE_COLUMNS = 'uuid, name, mime_type, size, payable_id, mail_id, created_at';
export const toFile = (row: FileRow): FileAnswer => ({
  uuid: row.uuid,
  name: row.name,
  mimeType: row.mime_type,
  size: row.size,
  payable: row.payable_id === null ? null : { id: row.payable_id },
  mail: row.mail_id === null ? null : { id: row.mail_id },
  createdAt: row.created_at,
});

/** What `file/list` filters on; each given filter narrows the list. */
export interface FileFilter {
  /** The files of one bill. */
  payableId?: number | undefined;
  /** Only files of no bill. */
  unassigned?: boolean | undefined;
  /** The attachments of one mail (`{ id }`), or with `null` the files uploaded on their own. */
  mail?: { id: number } | null | undefined;
  /** One file. */
  uuid?: string | undefined;
}

/**
 * One page of the inbox files of `filter`, newest first (decision 036): keyset on (created_at,
 * uuid), both descending — `cursor` carries the last row's upload time to the microsecond (text,
 * UTC) and its uuid, `page` is an offset. `total` is counted up to COUNT_CAP (`totalCapped`
 * above) on a walk's first page and carried by the cursor to the next; `nextCursor` is null on the
 * last page.
 * @throws 400 on `cursor` for a cursor that is not one of this list's.
 */
export async function listFilePage(
  tx: Tx,
  instanceId: string,
  filter: FileFilter,
  page: PageRequest,
): Promise<{ data: FileAnswer[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, filter.payableId ?? null, filter.unassigned ?? false, filter.mail === null, filter.mail?.id ?? null, filter.uuid ?? null];
  const where = `instance_id = $1 AND ($2::integer IS NULL OR payable_id = $2) AND (NOT $3 OR payable_id IS NULL)
     AND (NOT $4 OR mail_id IS NULL) AND ($5::integer IS NULL OR mail_id = $5) AND ($6::uuid IS NULL OR uuid = $6)`;
  const counted = await countUpTo(tx, `SELECT 1 FROM inbox_file WHERE ${where}`, params, page);
  let after = '';
  if (page.cursor) {
    const key = decodeCursor(page.cursor, ['timestamp', 'uuid']);
    after = ` AND ${afterKey(['created_at', 'uuid'], ['timestamptz', 'uuid'], 'desc', key, params)}`;
  }
  // The key's time as text: the answer's createdAt is cut to milliseconds, the column is not.
  const rows = await tx.query<FileRow & { created_key: string }>(
    `SELECT ${FILE_COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
       FROM inbox_file WHERE ${where}${after}
      ORDER BY created_at DESC, uuid DESC ${limitOffset(page)}`,
    params,
  );
  const paged = pageOf(rows, page, (row) => [row.created_key, row.uuid], counted);
  return { data: paged.rows.map(toFile), ...counted, nextCursor: paged.nextCursor };
}

export interface MailAnswer {
  id: number;
  status: number;
  statusName: string;
  from: string;
  subject: string;
  text: string;
  receivedAt: string;
  messageId: string | null;
  files: FileAnswer[];
}

interface MailRow {
  id: number;
  status: number;
  sender: string;
  subject: string;
  body: string;
  received_at: string;
  message_id: string | null;
  [key: string]: unknown;
}

/** Mails with their attachments (two queries whatever the count), newest first. */
export async function listMails(
  tx: Tx,
  instanceId: string,
  filters: { status?: number | undefined; id?: number | undefined } = {},
  page: { page: number; pageSize: number } = { page: 1, pageSize: 500 },
): Promise<{ data: MailAnswer[]; total: number; totalCapped: boolean }> {
  const params = [instanceId, filters.status ?? null, filters.id ?? null];
  const where = 'instance_id = $1 AND ($2::smallint IS NULL OR status = $2) AND ($3::integer IS NULL OR id = $3)';
  const counted = await countUpTo(tx, `SELECT 1 FROM mail WHERE ${where}`, params);
  const rows = await tx.query<MailRow>(
    `SELECT id, status, sender, subject, body, received_at, message_id FROM mail WHERE ${where}
      ORDER BY received_at DESC, id DESC LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
    params,
  );
  const files = rows.length
    ? await tx.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM inbox_file WHERE instance_id = $1 AND mail_id = ANY($2::integer[]) ORDER BY created_at, name, uuid`, [
        instanceId,
        rows.map((row) => row.id),
      ])
    : [];
  return {
    ...counted,
    data: rows.map((row) => ({
      id: row.id,
      status: row.status,
      statusName: mailStatusName[row.status] ?? String(row.status),
      from: row.sender,
      subject: row.subject,
      text: row.body,
      receivedAt: row.received_at,
      messageId: row.message_id,
      files: files.filter((file) => file.mail_id === row.id).map(toFile),
    })),
  };
}

/** One mail with its attachments; 404 when it is not one of the instance's. */
export async function getMail(tx: Tx, instanceId: string, id: number): Promise<MailAnswer> {
  const [mail] = (await listMails(tx, instanceId, { id })).data;
  if (!mail) throw payableError('mail_not_found', `Mail ${id} not found`);
  return mail;
}

/** Pending → processed or refused; 409 once it is either (both are final), 404 unknown. */
export async function changeMailStatus(tx: Tx, instanceId: string, id: number, status: 2 | 3): Promise<MailAnswer> {
  const [row] = await tx.query<{ status: number }>('SELECT status FROM mail WHERE instance_id = $1 AND id = $2 FOR UPDATE', [instanceId, id]);
  if (!row) throw payableError('mail_not_found', `Mail ${id} not found`);
  if (row.status !== MailStatus.pending) {
    throw payableError('mail_processed', `the mail is already ${mailStatusName[row.status]}`, { 'data.status': 'only a pending mail changes status' });
  }
  await tx.query('UPDATE mail SET status = $3 WHERE instance_id = $1 AND id = $2', [instanceId, id, status]);
  return getMail(tx, instanceId, id);
}

/**
 * Makes an inbox file the voucher of a bill. A file that came with a pending mail marks that mail
 * processed: the bill it brought is entered (issue #5 §2, "pending → processed"). `field` names the
 * file in 400/409 answers. 409 when the file already belongs to another bill, so one voucher is
 * never entered (and paid) twice.
 */
export async function attachFileToPayable(tx: Tx, instanceId: string, fileUuid: string, payableId: number, field: string): Promise<FileAnswer> {
  const [file] = await tx.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM inbox_file WHERE instance_id = $1 AND uuid = $2 FOR UPDATE`, [instanceId, fileUuid]);
  if (!file) throw payableError('invalid_file', `${field}: file ${fileUuid} not found`, { [field]: `file ${fileUuid} not found` });
  if (file.payable_id !== null && file.payable_id !== payableId) {
    throw payableError('file_attached', `${field}: the file is already the voucher of bill ${file.payable_id}`, { [field]: `already the voucher of bill ${file.payable_id}` });
  }
  const [row] = await tx.query<FileRow>(`UPDATE inbox_file SET payable_id = $3 WHERE instance_id = $1 AND uuid = $2 RETURNING ${FILE_COLUMNS}`, [
    instanceId,
    fileUuid,
    payableId,
  ]);
  if (file.mail_id !== null) {
    await tx.query('UPDATE mail SET status = $3 WHERE instance_id = $1 AND id = $2 AND status = $4', [instanceId, file.mail_id, MailStatus.processed, MailStatus.pending]);
  }
  return toFile(row!);
}

/**
 * The type of a voucher by its first bytes (PDF, PNG, JPEG, WebP), whatever the mail declared:
 * mailers often send PDFs as application/octet-stream, and a file is served with the type stored.
 */
export function sniffVoucherType(bytes: Uint8Array): VoucherType | null {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'; // %PDF-
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp'; // RIFF....WEBP
  return null;
}

const EXTENSION: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Plain text of an HTML-only mail, for reading beside its attachments (never rendered as HTML). */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|tr|li|h[1-6]|table)\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&amp;/gi, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const mailbox = (address: Email['from']): string => {
  if (!address) return '';
  const box = address.address !== undefined ? address : address.group[0];
  if (!box?.address) return '';
  return box.name ? `${box.name} <${box.address}>` : box.address;
};

export interface EmlImport {
  mail: MailAnswer;
  /** Attachments that are no voucher (not PDF or image, or images the mail's HTML shows inline). */
  skipped: { name: string; mimeType: string }[];
}

/**
 * Reads an uploaded .eml (RFC 5322 / MIME, parsed with postal-mime) into a pending mail: sender,
 * subject, date, text (the text part, else the HTML part as text) and the original bytes; every
 * PDF or image attachment becomes an inbox file of that mail (type by its bytes). Images the HTML
 * body shows by Content-ID (logos, signatures) are skipped. 400 `file` when it is no mail (no
 * From address); 409 `file` when a mail with the same Message-ID was imported before.
 */
export async function importEml(tx: Tx, instanceId: string, raw: Buffer, uploadedName: string): Promise<EmlImport> {
  let email: Email;
  try {
    email = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw payableError('invalid_file', `file: ${uploadedName} is not a readable e-mail message`, { file: `not a readable e-mail message (${(error as Error).message})` });
  }
  const from = mailbox(email.from ?? email.sender).slice(0, 320);
  if (!from) throw payableError('invalid_file', `file: ${uploadedName} is not an e-mail message (no From address)`, { file: 'not an e-mail message (no From address)' });
  const messageId = email.messageId?.trim().slice(0, 998) || null;
  if (messageId) {
    const [known] = await tx.query<{ id: number }>('SELECT id FROM mail WHERE instance_id = $1 AND message_id = $2', [instanceId, messageId]);
    if (known) throw payableError('mail_imported', `file: this mail was imported before as mail ${known.id}`, { file: `already imported as mail ${known.id}` });
  }
  const date = email.date && !Number.isNaN(Date.parse(email.date)) ? new Date(email.date).toISOString() : null;
  const text = (email.text?.trim() ? email.text : email.html ? htmlToText(email.html) : '').slice(0, 100_000);
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO mail (instance_id, id, sender, subject, body, received_at, message_id, raw)
     VALUES ($1, next_ids($1, 'mail'), $2, $3, $4, coalesce($5::timestamptz, now()), $6, $7) RETURNING id`,
    [instanceId, from, (email.subject ?? '').slice(0, 500), text, date, messageId, raw],
  );
  const skipped: EmlImport['skipped'] = [];
  for (const [index, attachment] of email.attachments.entries()) {
    const bytes = new Uint8Array(attachment.content as ArrayBuffer);
    const type = sniffVoucherType(bytes);
    const name = (attachment.filename?.trim() || `attachment-${index + 1}${type ? `.${EXTENSION[type]}` : ''}`).slice(0, 255);
    if (!type || (attachment.related && type.startsWith('image/'))) {
      skipped.push({ name, mimeType: attachment.mimeType });
      continue;
    }
    await tx.query('INSERT INTO inbox_file (instance_id, name, mime_type, size, content, mail_id) VALUES ($1, $2, $3, $4, $5, $6)', [
      instanceId,
      name,
      type,
      bytes.length,
      Buffer.from(bytes),
      row!.id,
    ]);
  }
  return { mail: await getMail(tx, instanceId, row!.id), skipped };
}
