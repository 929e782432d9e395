/**
 * Accounting locks (spec §2.2 `/accounting/lock`, §7.1 "Locks", issue 12 §1): nothing dated on or
 * before the latest lock date may be posted, changed or deleted. The database triggers of migration
 * 0001 enforce the lock; this service only sets and removes it, each change in the audit trail.
 */
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import { recordAudit, type LockAuditEvent } from '../audit/audit.service.js';
import { AccountingError, invalidField, notFoundError } from './accounting.errors.js';
import { selectAccountingSettings, selectClosingOfLock } from './closing.sql.js';
import { fiscalYear } from './fiscal-year.js';
import { deleteAccountingLock, insertAccountingLock, selectAccountingLocks, type AccountingLock } from './accounting.sql.js';
import { selectJournalEntryHead } from './journal-entry.sql.js';

export type { AccountingLock } from './accounting.sql.js';

/** Who changes a lock, for the audit trail. */
export interface LockActor {
  userId: string | null;
  ip?: string | null;
  userAgent?: string | null;
}

/** The lock date is either given or the ledger date of `endEntryId` (spec §7.1: `endEntry{id}`). */
export type LockTarget = { date: string } | { endEntryId: number };

/** The instance's locks, the latest lock date first. */
export const listAccountingLocks = (tx: Tx, instanceId: string): Promise<AccountingLock[]> => selectAccountingLocks(tx, instanceId);

async function audit(tx: Tx, instanceId: string, actor: LockActor, event: LockAuditEvent, lock: AccountingLock): Promise<void> {
  await recordAudit(tx, { event, instanceId, userId: actor.userId, ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, detail: { lock } });
}

/**
 * Locks the books up to a date and returns the lock. 400 on `endEntry.id` for an entry that is not
 * the instance's; 409 `already_done` when a lock with that date exists (one lock per date, also
 * under parallel requests: migration 0017's unique key). Audited.
 */
export async function createAccountingLock(tx: Tx, instanceId: string, target: LockTarget, actor: LockActor): Promise<AccountingLock> {
  let lockDate: string;
  let endEntryId: number | null = null;
  if ('endEntryId' in target) {
    const entry = await selectJournalEntryHead(tx, instanceId, target.endEntryId);
    if (!entry) throw invalidField('endEntry.id', `journal entry ${target.endEntryId} not found`);
    lockDate = entry.dateLedger;
    endEntryId = entry.id;
  } else {
    lockDate = target.date;
  }
  const lock = await insertAccountingLock(tx, instanceId, { lockDate, endEntryId, createdBy: actor.userId });
  if (!lock) throw alreadyDone(`the books are already locked up to ${lockDate}`);
  await audit(tx, instanceId, actor, 'accounting_lock.created', lock);
  return lock;
}

/**
 * Locks the books up to `lockDate` unless a lock with that date exists already, and returns the
 * lock of that date (a filed VAT return locks its period end, issue 13 §3: a lock set by hand
 * before is kept). Audited when it creates one.
 */
export async function ensureAccountingLock(tx: Tx, instanceId: string, lockDate: string, actor: LockActor): Promise<AccountingLock> {
  const lock = await insertAccountingLock(tx, instanceId, { lockDate, endEntryId: null, createdBy: actor.userId });
  if (lock) {
    await audit(tx, instanceId, actor, 'accounting_lock.created', lock);
    return lock;
  }
  const existing = (await selectAccountingLocks(tx, instanceId)).find((l) => l.lockDate === lockDate);
  if (!existing) throw new Error(`lock of ${lockDate} neither inserted nor found`);
  return existing;
}

/**
 * Deletes a lock (the period after the previous lock date opens again) and returns it; 404
 * `accounting_lock_not_found` for a uuid that is not one of the instance's locks; 409
 * `lock_closes_fiscal_year` for the lock a year-end closing set (issue 12 §1: only reopening the
 * year removes it; migration 0020's foreign key refuses it too). Audited.
 */
export async function removeAccountingLock(tx: Tx, instanceId: string, uuid: string, actor: LockActor): Promise<AccountingLock> {
  const closing = await selectClosingOfLock(tx, instanceId, uuid);
  if (closing) {
    const startMonth = (await selectAccountingSettings(tx, instanceId))?.fiscalYearStartMonth ?? 1;
    const { label } = fiscalYear(closing.fiscalYear, startMonth);
    throw new AccountingError('lock_closes_fiscal_year', `the lock of ${closing.dateTo} closes the fiscal year ${label}; reopen the year to remove it`);
  }
  const lock = await deleteAccountingLock(tx, instanceId, uuid);
  if (!lock) throw notFoundError('accounting_lock_not_found', 'accounting lock', uuid);
  await audit(tx, instanceId, actor, 'accounting_lock.deleted', lock);
  return lock;
}
