import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { countInvoices } from '../invoicing/invoicing.service.js';
import { payablesCounts } from '../payables/payables.counts.js';

const countsSchema = z.object({
  Mail: z.number().int(),
  Payable: z.number().int(),
  TransactionGroup: z.number().int(),
  Invoice: z.number().int(),
});

/**
 * GET /api/analytics/counts → the dashboard tiles (spec §2.4, §7.1), each counted by the module
 * that owns the documents.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/analytics/counts',
    { config: { access: 'read' }, schema: { tags: ['analytics'], response: { 200: countsSchema } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const counts = await payablesCounts(tx);
        return { Mail: counts.mails, Payable: counts.payables, TransactionGroup: counts.transactionGroups, Invoice: await countInvoices(tx, instanceId) };
      });
    },
  );
};
