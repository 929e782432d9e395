/**
 * /api/accounting (spec §7.1; shapes in docs/api.md "Accounting"): ledger accounts and groups,
 * journal entries, balances and checks, the accounting checks, CSV imports, locks (spec §7.1 "Locks"),
 * financial statements.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { balanceRoutes } from './balance.routes.js';
import { checksRoutes, type ChecksRouteOptions } from './checks.routes.js';
import { importRoutes } from './import.routes.js';
import { journalEntryRoutes, type JournalEntryRouteOptions } from './journal-entry.routes.js';
import { ledgerAccountRoutes } from './ledger-account.routes.js';
import { lockRoutes } from './lock.routes.js';
import { statementRoutes, type StatementRouteOptions } from './statements.routes.js';
import { requirePort } from '../../lib/ports.js';

/** The accounting routes' ports (wiring.ts). */
export type AccountingRouteOptions = JournalEntryRouteOptions & ChecksRouteOptions & StatementRouteOptions;

/**
 * Registers the accounting routes; every one declares `config.access` and zod schemas for body and
 * answers. `documents` names the document behind a document posting (issue 11 §2), `letterhead` the
 * company on the financial statements (issue 12 §4), `checkSources` gives the checks the open
 * documents and bank statements (issue 12 §2); start-up fails without them.
 */
export const accountingRoutes: FastifyPluginAsyncZod<AccountingRouteOptions> = async (app, options) => {
  await app.register(ledgerAccountRoutes);
  await app.register(journalEntryRoutes, { documents: requirePort(options, 'documents', 'accountingRoutes') });
  await app.register(balanceRoutes);
  await app.register(checksRoutes, { checkSources: requirePort(options, 'checkSources', 'accountingRoutes') });
  await app.register(importRoutes);
  await app.register(lockRoutes);
  await app.register(statementRoutes, { letterhead: requirePort(options, 'letterhead', 'accountingRoutes') });
};
