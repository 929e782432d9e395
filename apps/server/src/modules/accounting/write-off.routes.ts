/** The write-off tolerance of document payments under /api/accounting/settings (issue 14 §3, decision 021). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { zAmount } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errors, strictObject } from './accounting.schemas.js';
import { paymentTolerance, setPaymentTolerance } from './write-off.service.js';

const tags = ['accounting'];
const toleranceSchema = z.object({
  percent: z.string().describe('percent of the document total, 0–10, 2 decimals'),
  amount: z.string().describe("amount in the books' currency, 0–1000, 2 decimals"),
});
const DESCRIPTION =
  'How far a payment may fall short of a document\'s open amount and still settle it with a write-off (cash discount or small ' +
  'difference): up to `percent` of the total or up to `amount`, whichever is larger. Default 2 % or 5.00.';

export const writeOffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings/payment-tolerance',
    { config: { access: 'read' }, schema: { tags, description: DESCRIPTION, response: { 200: toleranceSchema, ...errors } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => paymentTolerance(tx, instanceId));
    },
  );

  app.post(
    '/settings/payment-tolerance',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: `${DESCRIPTION} Owner and admin; 400 naming \`percent\` or \`amount\` out of range.`,
        body: strictObject({ percent: zAmount(2), amount: zAmount(2) }),
        response: { 200: toleranceSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => setPaymentTolerance(tx, instanceId, userId, request.body));
    },
  );
};
