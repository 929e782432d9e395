import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auth } from '../../http/access.js';
import { errors } from '../../http/schemas.js';
import { analyticsBodySchema, analyticsParamsSchema, analyticsSchema, countsQuerySchema, countsSchema } from './analytics.schemas.js';
import { ANALYTICS_KINDS, analytics, dashboardCounts } from './analytics.service.js';

const tags = ['analytics'];

/**
 * GET /api/analytics/counts → the dashboard tiles (spec §2.4, §7.1), each counted by the module
 * that owns the documents; POST /api/accounting/analytics/{kind} {year} → one analysis of a year
 * (spec §7.1 "Analytics", issue 12 §4), sorted by amount descending.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/analytics/counts',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Counts of mails, bills and expenses, transaction groups and invoices; with `year` only those of that fiscal year.',
        querystring: countsQuerySchema,
        response: { 200: countsSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => dashboardCounts(tx, instanceId, request.query.year ?? null));
    },
  );

  app.post(
    '/accounting/analytics/:kind',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          `One analysis of a fiscal year (named by the calendar year it starts in; the calendar year by default), rows sorted by amount descending. kind: ${ANALYTICS_KINDS.join(', ')}. ` +
          'revenue-by-customer: what the invoices posted to revenue accounts (net of VAT, books\' currency) by ledger date, denials subtracted; ' +
          'expenses-by-supplier: what bill bookings posted to expense accounts (net of input VAT), reversals subtracted, staff expenses as one row; ' +
          'revenue-by-account / expenses-by-account: the period turnover (credit − debit, debit − credit) of revenue / expense accounts, ' +
          'year-end closing entries left out. 400 naming `kind` (with the list) or `year`.',
        params: analyticsParamsSchema,
        body: analyticsBodySchema,
        response: { 200: analyticsSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => analytics(tx, instanceId, request.params.kind, request.body.year));
    },
  );
};
