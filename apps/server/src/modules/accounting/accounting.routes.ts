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
import { vatReturnDocument } from './vat-filing.service.js';
import { vatRoutes, type VatRouteOptions } from './vat.routes.js';
import { vatCodeRoutes } from './vat-code.routes.js';
import { requirePort } from '../../lib/ports.js';

export type AccountingRouteOptions = JournalEntryRouteOptions & VatRouteOptions;

/**
 * Registers the accounting routes; every one declares `config.access` and zod schemas for body and
 * answers. `documents` names the document behind a document posting (issue 11 §2), `vatOrganisation`
 * the taxable person of the VAT return (issue 13 §3); start-up fails without them. The settlement
 * entries of filed VAT returns (source 'vat') are accounting's own documents.
 */
export const accountingRoutes: FastifyPluginAsyncZod<AccountingRouteOptions> = async (app, options) => {
  const documents = { ...requirePort(options, 'documents', 'accountingRoutes'), vat: vatReturnDocument };
  await app.register(ledgerAccountRoutes);
  await app.register(journalEntryRoutes, { documents });
  await app.register(balanceRoutes);
  await app.register(importRoutes);
  await app.register(lockRoutes);
  await app.register(vatRoutes, { vatOrganisation: requirePort(options, 'vatOrganisation', 'accountingRoutes') });
  await app.register(vatCodeRoutes);
};
