/**
 * /api/accounting (spec §7.1; shapes in docs/api.md "Accounting"): ledger accounts and groups,
 * journal entries, balances and checks, CSV imports, locks (spec §7.1 "Locks"), VAT codes (issue 13).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { balanceRoutes } from './balance.routes.js';
import { importRoutes } from './import.routes.js';
import { journalEntryRoutes, type JournalEntryRouteOptions } from './journal-entry.routes.js';
import { ledgerAccountRoutes } from './ledger-account.routes.js';
import { lockRoutes } from './lock.routes.js';
import { vatCodeRoutes } from './vat-code.routes.js';
import { requirePort } from '../../lib/ports.js';

/**
 * Registers the accounting routes; every one declares `config.access` and zod schemas for body and
 * answers. `documents` names the document behind a document posting (issue 11 §2); start-up fails
 * without it.
 */
export const accountingRoutes: FastifyPluginAsyncZod<JournalEntryRouteOptions> = async (app, options) => {
  await app.register(ledgerAccountRoutes);
  await app.register(journalEntryRoutes, { documents: requirePort(options, 'documents', 'accountingRoutes') });
  await app.register(balanceRoutes);
  await app.register(importRoutes);
  await app.register(lockRoutes);
  await app.register(vatCodeRoutes);
};
