/**
 * /api/accounting (spec §7.1; shapes in docs/api.md "Accounting"): ledger accounts and groups,
 * journal entries, balances and checks, the accounting checks, CSV imports, locks (spec §7.1 "Locks"),
 * financial statements, year-end closing and settings (issue 12 §3, §4), VAT codes (issue 13).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { balanceRoutes } from './balance.routes.js';
import { checksRoutes, type ChecksRouteOptions } from './checks.routes.js';
import { importRoutes } from './import.routes.js';
import { journalEntryRoutes, type JournalEntryRouteOptions } from './journal-entry.routes.js';
import { ledgerAccountRoutes } from './ledger-account.routes.js';
import { lockRoutes } from './lock.routes.js';
import { statementRoutes, type StatementRouteOptions } from './statements.routes.js';
import { closingRoutes } from './closing.routes.js';
import { closingDocument } from './closing.service.js';
import { runChecks } from './checks.service.js';
import { CLOSING_SOURCE } from './balance.sql.js';
import { vatReturnDocument } from './vat-filing.service.js';
import { vatRoutes, type VatRouteOptions } from './vat.routes.js';
import { vatCodeRoutes } from './vat-code.routes.js';
import { writeOffRoutes } from './write-off.routes.js';
import { requirePort } from '../../lib/ports.js';

/** The accounting routes' ports (wiring.ts). */
export type AccountingRouteOptions = JournalEntryRouteOptions & ChecksRouteOptions & StatementRouteOptions & VatRouteOptions;

/**
 * Registers the accounting routes; every one declares `config.access` and zod schemas for body and
 * answers. `documents` names the document behind a document posting (issue 11 §2), `letterhead` the
 * company on the financial statements (issue 12 §4), `checkSources` gives the checks the open
 * documents and bank statements (issue 12 §2), `vatOrganisation` the taxable person of the VAT
 * return (issue 13 §3); start-up fails without them. Closing entries (source 'closing') and the
 * settlement entries of filed VAT returns (source 'vat') are accounting's own documents.
 */
export const accountingRoutes: FastifyPluginAsyncZod<AccountingRouteOptions> = async (app, options) => {
  await app.register(ledgerAccountRoutes);
  const documents = { ...requirePort(options, 'documents', 'accountingRoutes'), [CLOSING_SOURCE]: closingDocument, vat: vatReturnDocument };
  await app.register(journalEntryRoutes, { documents });
  await app.register(balanceRoutes);
  const checkSources = requirePort(options, 'checkSources', 'accountingRoutes');
  await app.register(checksRoutes, { checkSources });
  await app.register(importRoutes);
  await app.register(lockRoutes);
  await app.register(statementRoutes, { letterhead: requirePort(options, 'letterhead', 'accountingRoutes') });
  // The closing re-runs the same checks as the checks page, for the fiscal year.
  await app.register(closingRoutes, { checks: (tx, instanceId, period, language) => runChecks(tx, instanceId, checkSources, period, language) });
  await app.register(vatRoutes, { vatOrganisation: requirePort(options, 'vatOrganisation', 'accountingRoutes') });
  await app.register(vatCodeRoutes);
  await app.register(writeOffRoutes);
};
