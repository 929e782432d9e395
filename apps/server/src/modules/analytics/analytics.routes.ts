import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { countInvoices } from '../invoicing/invoicing.service.js';

const countsSchema = z.object({
  Mail: z.number().int(),
  Payable: z.number().int(),
  TransactionGroup: z.number().int(),
  Invoice: z.number().int(),
});

/**
 * GET /api/analytics/counts → the dashboard tiles (spec §2.4, §7.1). Modules not built yet count 0;
 * each module adds its count here when its table exists.
 */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/analytics/counts',
    { config: { access: 'read' }, schema: { tags: ['analytics'], response: { 200: countsSchema } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const [row] = await tx.query<{ payables: string; groups: string; mails: string }>(
          'SELECT (SELECT count(*) FROM payable) AS payables, (SELECT count(*) FROM transaction_group) AS groups, (SELECT count(*) FROM mail) AS mails',
        );
        return { Mail: Number(row!.mails), Payable: Number(row!.payables), TransactionGroup: Number(row!.groups), Invoice: await countInvoices(tx, instanceId) };
      });
    },
  );
};
