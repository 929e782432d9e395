/**
 * Mail sync (issue 16 §1, spec §2.6 Mail Sync, §7.1 GET /profile/mail-sync; decision 028): a user
 * connects an IMAP mailbox (imapflow); the job runner polls it every BILAN_MAIL_SYNC_MINUTES and
 * takes each new message of the chosen folder once — keyed by UIDVALIDITY and UID in
 * `mail_sync_message`, written in the same transaction as the Mail — through the payables inbox's
 * own e-mail import (`importEml`: pending Mail, PDF and image attachments as inbox files, which the
 * inbox reads for QR bills). Taken or refused messages optionally move to folders of the user's
 * choice. The app password is stored AES-256-GCM encrypted with a key kept in server_secret.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
// Types only at start: imapflow (160 ms to load) comes with the first mailbox opened (issue 18 §3).
import type { ImapFlow } from 'imapflow';
import type { Database, Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { serverSecret } from '../identity/session.service.js';
import { importEml } from '../payables/inbox.service.js';
import type { JobRunner } from '../jobs/job-runner.js';

export const MAIL_SYNC_QUEUE = 'mail-sync';

export interface MailAccountInput {
  email: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
  folder: string;
  processedFolder?: string | undefined;
  refusedFolder?: string | undefined;
}

/** A connected mailbox as the profile lists it: never its password. */
export interface MailAccount {
  id: number;
  email: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  folder: string;
  processedFolder: string | null;
  refusedFolder: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  createdAt: string;
}

type AccountRow = {
  id: number;
  user_id: string;
  email: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password_encrypted: Buffer | null;
  folder: string;
  processed_folder: string | null;
  refused_folder: string | null;
  uid_validity: string | null;
  last_uid: string;
  last_sync_at: string | null;
  last_error: string | null;
  created_at: string;
};

const toAccount = (row: AccountRow): MailAccount => ({
  id: row.id,
  email: row.email,
  host: row.host,
  port: row.port,
  tls: row.tls,
  username: row.username,
  folder: row.folder,
  processedFolder: row.processed_folder,
  refusedFolder: row.refused_folder,
  lastSyncAt: row.last_sync_at,
  lastError: row.last_error,
  createdAt: row.created_at,
});

interface SyncJob {
  instanceId: string;
  accountId: number;
}

/** Result of one poll of one mailbox. */
export interface SyncResult {
  taken: number;
  refused: number;
  error: string | null;
}

export class MailSync {
  private constructor(
    private readonly db: Database,
    private readonly jobs: JobRunner,
    private readonly key: Buffer,
    private readonly minutes: number,
  ) {
    jobs.register<SyncJob>(MAIL_SYNC_QUEUE, async (job) => {
      await this.sync(job.data.instanceId, job.data.accountId);
      // Recurring: the next poll of this mailbox, once (singleton per mailbox).
      if (await this.isConnected(job.data.instanceId, job.data.accountId)) await this.schedule(null, job.data, this.minutes * 60);
    });
  }

  static async create(db: Database, jobs: JobRunner, minutes: number): Promise<MailSync> {
    const secret = await serverSecret(db, 'mail-sync-aes256', () => randomBytes(32).toString('base64url'));
    return new MailSync(db, jobs, Buffer.from(secret, 'base64url'), minutes);
  }

  private schedule(tx: Tx | null, job: SyncJob, seconds: number) {
    return this.jobs.enqueue(tx, MAIL_SYNC_QUEUE, job, { startAfterSeconds: seconds, singletonKey: `${job.instanceId}:${job.accountId}` });
  }

  encrypt(password: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  decrypt(stored: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, stored.subarray(0, 12));
    decipher.setAuthTag(stored.subarray(12, 28));
    return Buffer.concat([decipher.update(stored.subarray(28)), decipher.final()]).toString('utf8');
  }

  /**
   * Connects a mailbox of the user: checks the credentials and the folder against the server first
   * (400 naming `password` or `folder`, `host` when unreachable), then stores it and schedules its
   * first poll at once, in one transaction. Answers the stored mailbox.
   */
  async connect(instanceId: string, userId: string, input: MailAccountInput): Promise<MailAccount> {
    await this.check(input);
    return this.db.withInstance(instanceId, async (tx) => {
      const [row] = await tx.query<AccountRow>(
        `INSERT INTO mail_account (instance_id, id, user_id, email, host, port, tls, username, password_encrypted, folder, processed_folder, refused_folder)
         VALUES ($1, next_ids($1, 'mail_account'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
        [instanceId, userId, input.email, input.host, input.port, input.tls, input.username, this.encrypt(input.password), input.folder, input.processedFolder ?? null, input.refusedFolder ?? null],
      );
      await this.schedule(tx, { instanceId, accountId: row!.id }, 0);
      return toAccount(row!);
    });
  }

  /** The user's connected mailboxes (spec §2.6: rows carry an email). */
  list(tx: Tx, userId: string): Promise<MailAccount[]> {
    return tx.query<AccountRow>('SELECT * FROM mail_account WHERE user_id = $1 AND disconnected_at IS NULL ORDER BY id', [userId]).then((rows) => rows.map(toAccount));
  }

  /** Disconnects: removes the credentials; no more polls. 404 when not the user's connected mailbox. */
  async disconnect(tx: Tx, userId: string, id: number): Promise<void> {
    const done = await tx.query(
      `UPDATE mail_account SET password_encrypted = NULL, disconnected_at = now() WHERE id = $1 AND user_id = $2 AND disconnected_at IS NULL RETURNING id`,
      [id, userId],
    );
    if (!done.length) throw new AppError('not_found', 'Mail sync not found', { id: 'Mail sync not found' });
  }

  private async isConnected(instanceId: string, accountId: number): Promise<boolean> {
    const rows = await this.db.withInstance(instanceId, (tx) => tx.query('SELECT 1 FROM mail_account WHERE id = $1 AND disconnected_at IS NULL', [accountId]));
    return rows.length > 0;
  }

  private async client(input: { host: string; port: number; tls: boolean; username: string; password: string }): Promise<ImapFlow> {
    const { ImapFlow } = await import('imapflow');
    return new ImapFlow({
      host: input.host,
      port: input.port,
      secure: input.tls,
      auth: { user: input.username, pass: input.password },
      logger: false,
      // STARTTLS only when the server offers it; certificates are checked (no rejectUnauthorized: false).
      connectionTimeout: 20_000,
      greetingTimeout: 20_000,
      socketTimeout: 120_000,
    });
  }

  private async check(input: MailAccountInput): Promise<void> {
    const client = await this.client(input);
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      const failure = error as { authenticationFailed?: boolean; message: string };
      if (failure.authenticationFailed) throw new AppError('validation', 'password: the mail server refused the user or app password', { password: 'the mail server refused the user or app password' });
      throw new AppError('validation', `host: cannot connect (${failure.message})`, { host: `cannot connect (${failure.message})` });
    }
    try {
      for (const [field, folder] of [['folder', input.folder], ['processedFolder', input.processedFolder], ['refusedFolder', input.refusedFolder]] as const) {
        if (folder && !(await client.mailboxOpen(folder, { readOnly: true }).then(() => true, () => false))) {
          throw new AppError('validation', `${field}: no folder "${folder}" in this mailbox`, { [field]: `no folder "${folder}" in this mailbox` });
        }
      }
    } finally {
      await client.logout().catch(() => undefined);
    }
  }

  /**
   * One poll of one mailbox: takes every message with a UID above the last one taken (all of them
   * again when UIDVALIDITY changed — the (uidvalidity, uid) rows keep each taken once), each in its
   * own transaction with its `mail_sync_message` row; a malformed message or one imported before
   * is recorded as refused. Then moves them to the chosen folders. Keeps the time and the error.
   */
  async sync(instanceId: string, accountId: number): Promise<SyncResult> {
    const [account] = await this.db.withInstance(instanceId, (tx) =>
      tx.query<AccountRow>('SELECT * FROM mail_account WHERE id = $1 AND disconnected_at IS NULL', [accountId]),
    );
    if (!account?.password_encrypted) return { taken: 0, refused: 0, error: null };
    const result: SyncResult = { taken: 0, refused: 0, error: null };
    const client = await this.client({ ...account, password: this.decrypt(account.password_encrypted) });
    client.on('error', () => undefined);
    const processed: number[] = [];
    const refused: number[] = [];
    try {
      await client.connect();
      const lock = await client.getMailboxLock(account.folder);
      try {
        const box = client.mailbox;
        const uidValidity = box ? String(box.uidValidity) : '0';
        const from = account.uid_validity === uidValidity ? Number(account.last_uid) + 1 : 1;
        let last = account.uid_validity === uidValidity ? Number(account.last_uid) : 0;
        const uids = ((await client.search({ uid: `${from}:*` }, { uid: true })) || []).filter((uid) => uid >= from).sort((a, b) => a - b);
        for (const uid of uids) {
          const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
          const raw = message && message.source ? message.source : Buffer.alloc(0);
          const outcome = await this.db.withInstance(instanceId, async (tx) => {
            const claimed = await tx.query(
              `INSERT INTO mail_sync_message (instance_id, account_id, uid_validity, uid) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING uid`,
              [instanceId, accountId, uidValidity, uid],
            );
            if (!claimed.length) return 'seen' as const;
            try {
              const { mail } = await importEml(tx, instanceId, raw, `${account.email} UID ${uid}`);
              await tx.query('UPDATE mail_sync_message SET mail_id = $5 WHERE instance_id = $1 AND account_id = $2 AND uid_validity = $3 AND uid = $4', [
                instanceId,
                accountId,
                uidValidity,
                uid,
                mail.id,
              ]);
              return 'taken' as const;
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              await tx.query('UPDATE mail_sync_message SET refused_reason = $5 WHERE instance_id = $1 AND account_id = $2 AND uid_validity = $3 AND uid = $4', [
                instanceId,
                accountId,
                uidValidity,
                uid,
                error.message.slice(0, 500),
              ]);
              return 'refused' as const;
            }
          });
          if (outcome === 'taken') {
            result.taken += 1;
            processed.push(uid);
          } else if (outcome === 'refused') {
            result.refused += 1;
            refused.push(uid);
          }
          last = Math.max(last, uid);
          await this.db.withInstance(instanceId, (tx) =>
            tx.query('UPDATE mail_account SET uid_validity = $2, last_uid = GREATEST(CASE WHEN uid_validity = $2 THEN last_uid ELSE 0 END, $3) WHERE id = $1', [accountId, uidValidity, last]),
          );
        }
        if (account.processed_folder && processed.length) await client.messageMove(processed.join(','), account.processed_folder, { uid: true });
        if (account.refused_folder && refused.length) await client.messageMove(refused.join(','), account.refused_folder, { uid: true });
      } finally {
        lock.release();
      }
    } catch (error) {
      result.error = ((error as { responseText?: string }).responseText ?? (error as Error).message).slice(0, 500);
    } finally {
      await client.logout().catch(() => undefined);
    }
    await this.db.withInstance(instanceId, (tx) => tx.query('UPDATE mail_account SET last_sync_at = now(), last_error = $2 WHERE id = $1', [accountId, result.error]));
    return result;
  }
}
