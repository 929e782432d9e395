/** Accounting locks under /api/accounting/lock (spec §2.2 `/accounting/lock`, §7.1 "Locks"; issue 12 §1). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { auditClient } from '../audit/audit.service.js';
import { errorsWithConflict, errorsWithNotFound, idRef, ledgerDate, strictObject } from './accounting.schemas.js';
import { invalidField } from './accounting.errors.js';
import { createAccountingLock, listAccountingLocks, removeAccountingLock, type AccountingLock, type LockActor } from './lock.service.js';

const tags = ['accounting'];

export const accountingLockSchema = z.object({
  uuid: z.string(),
  lockDate: z.string().meta({ format: 'date', description: 'nothing dated on or before it may be posted, changed or deleted' }),
  endEntry: z.object({ id: z.number().int() }).nullable().describe('the entry whose ledger date gave the lock date'),
  createdAt: z.string().describe('ISO timestamp'),
  createdBy: z.object({ id: z.string() }).nullable().describe('the user who set the lock (a member of the instance)'),
});

const toAnswer = (lock: AccountingLock): z.infer<typeof accountingLockSchema> => ({
  uuid: lock.uuid,
  lockDate: lock.lockDate,
  endEntry: lock.endEntryId === null ? null : { id: lock.endEntryId },
  createdAt: lock.createdAt,
  createdBy: lock.createdBy === null ? null : { id: lock.createdBy },
});

/**
 * lock/list, lock/insert and lock/delete. Every member may read the locks (the entry form and the
 * imports show the lock date); only owner and admin lock and unlock (`access: 'admin'`).
 */
export const lockRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = (request: Parameters<typeof auth>[0]): LockActor => ({ userId: auth(request).userId, ...auditClient(request) });

  app.get(
    '/lock/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The instance\'s accounting locks, the latest lock date (the one in force) first. Every role may read them.',
        response: { 200: z.object({ locks: z.array(accountingLockSchema) }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const locks = await app.db.withInstance(instanceId, (tx) => listAccountingLocks(tx, instanceId));
      return { locks: locks.map(toAnswer) };
    },
  );

  app.post(
    '/lock/insert',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Locks the books up to `date`, or up to the ledger date of `endEntry` (exactly one of them; 400 on `date` or ' +
          '`endEntry` otherwise, 400 on `endEntry.id` for an unknown entry). Afterwards nothing dated on or before the latest ' +
          'lock date may be posted, changed or deleted (409 `period_locked`). 409 `already_done` when a lock with that date ' +
          'exists. Owner and admin only; audited.',
        body: strictObject({ date: ledgerDate.optional(), endEntry: idRef.optional() }),
        response: { 200: accountingLockSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { date, endEntry } = request.body;
      if (date !== undefined && endEntry !== undefined) throw invalidField('endEntry', 'give either a date or an end entry, not both');
      if (date === undefined && endEntry === undefined) throw invalidField('date', 'give a date or an end entry');
      const target = endEntry !== undefined ? { endEntryId: endEntry.id } : { date: date! };
      const lock = await app.db.withInstance(instanceId, (tx) => createAccountingLock(tx, instanceId, target, actor(request)));
      return toAnswer(lock);
    },
  );

  app.post(
    '/lock/delete',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          'Deletes a lock; the books open again after the previous lock date, if any. 404 unknown uuid; 409 ' +
          '`lock_closes_fiscal_year` for the lock of a closed fiscal year (only reopening the year removes it). Owner and admin only; audited.',
        body: strictObject({ uuid: zUuid }),
        response: { 200: accountingLockSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const lock = await app.db.withInstance(instanceId, (tx) => removeAccountingLock(tx, instanceId, request.body.uuid, actor(request)));
      return toAnswer(lock);
    },
  );
};
