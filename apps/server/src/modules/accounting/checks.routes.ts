/** Accounting checks under /api/accounting (spec §2.2 `/accounting/checks`; issue 12 §2). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageLanguageOf } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { checksReportSchema, errors, ledgerDate, strictObject } from './accounting.schemas.js';
import { invalidField } from './accounting.errors.js';
import { todayInSwitzerland } from './balance.service.js';
import { runChecks, type CheckSources } from './checks.service.js';

const tags = ['accounting'];

export interface ChecksRouteOptions {
  /** Open documents, bank statements and documents' VAT from the modules above accounting (wiring.ts). */
  checkSources: CheckSources;
}

/**
 * POST checks: every accounting check for a period, the same answer as `runChecks`; names, details
 * and labels in the language of `Accept-Language` (de, fr, it; English otherwise).
 */
export const checksRoutes: FastifyPluginAsyncZod<ChecksRouteOptions> = async (app, { checkSources }) => {
  app.post(
    '/checks',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Runs the accounting checks for `dateFrom`…`dateTo` (YYYY-MM-DD, inclusive; default 1 January of `dateTo`\'s year … ' +
          'today in Switzerland; 400 on `dateFrom` when after `dateTo`): entries balanced, trial balance, month balances, ' +
          'receivables / payables / staff expenses against the documents open at `dateTo`, bank balances against the last ' +
          'statements, bank lines unreconciled after 30 days, clearing accounts, VAT, entries after today, duplicates and balances ' +
          'on the wrong side. Each check is passed, warning or failed with a detail and at most 50 offending items linked to their ' +
          'pages; `status` is the worst. Read-only; amounts in the instance currency.',
        body: strictObject({ dateFrom: ledgerDate.optional(), dateTo: ledgerDate.optional() }).optional(),
        response: { 200: checksReportSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const dateTo = request.body?.dateTo ?? todayInSwitzerland();
      const dateFrom = request.body?.dateFrom ?? `${dateTo.slice(0, 4)}-01-01`;
      if (dateFrom > dateTo) throw invalidField('dateFrom', `must be on or before dateTo ${dateTo}`);
      return app.db.withInstance(instanceId, (tx) => runChecks(tx, instanceId, checkSources, { dateFrom, dateTo }, messageLanguageOf(request.headers['accept-language'])));
    },
  );
};
