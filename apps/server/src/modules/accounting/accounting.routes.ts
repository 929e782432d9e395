/**
 * /api/accounting (spec §7.1; shapes in docs/api.md "Accounting"): ledger accounts and groups,
 * journal entries, balances and checks, CSV imports, locks (spec §7.1 "Locks"), year-end closing and settings (issue 12 §3).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { balanceRoutes } from './balance.routes.js';
import { importRoutes } from './import.routes.js';
import { journalEntryRoutes, type JournalEntryRouteOptions } from './journal-entry.routes.js';
import { ledgerAccountRoutes } from './ledger-account.routes.js';
import { lockRoutes } from './lock.routes.js';
import { closingRoutes } from './closing.routes.js';
import { closingDocument, ledgerIntegrityChecks } from './closing.service.js';
import { CLOSING_SOURCE } from './balance.sql.js';
import { requirePort } from '../../lib/ports.js';

/**
 * Registers the accounting routes; every one declares `config.access` and zod schemas for body and
 * answers. `documents` names the document behind a document posting (issue 11 §2); start-up fails
 * without it.
 */
export const accountingRoutes: FastifyPluginAsyncZod<JournalEntryRouteOptions> = async (app, options) => {
  await app.register(ledgerAccountRoutes);
  // Closing entries are accounting's own document postings (issue 12 §3).
  const documents = { ...requirePort(options, 'documents', 'accountingRoutes'), [CLOSING_SOURCE]: closingDocument };
  await app.register(journalEntryRoutes, { documents });
  await app.register(balanceRoutes);
  await app.register(importRoutes);
  await app.register(lockRoutes);
  await app.register(closingRoutes, { checks: ledgerIntegrityChecks });
};
