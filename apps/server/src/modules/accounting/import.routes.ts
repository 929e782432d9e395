/** CSV imports of a chart of accounts and of a journal under /api/accounting (spec §5). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { errorsWithConflict } from './accounting.schemas.js';
import { importChart } from './chart.service.js';
import { importJournal } from './journal-import.service.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';

const tags = ['accounting'];
const csvBody = z.string().min(1, 'the body is empty: send the CSV text with content-type text/csv');

/** import/chart and import/journal: CSV bodies (text/csv), one transaction each, shared with the CLI. */
export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/import/chart',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Chart CSV `number,name,type[,currency]` or `number,name,kind,type` (text/csv), upserted by number; counts accounts and groups; 400 names line and column.',
        consumes: ['text/csv'],
        body: csvBody,
        response: { 200: z.object({ created: z.number().int(), updated: z.number().int() }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => importChart(tx, instanceId, request.body));
    },
  );

  app.post(
    '/import/journal',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          "Journal CSV `date,entry,description,account,amount,currency` (text/csv; signed amount, debit positive; rows sharing `entry` form one entry dated and described by its first row), all or nothing; 400 'could not map account N, …' listing every unknown number; only the instance currency.",
        consumes: ['text/csv'],
        body: csvBody,
        response: {
          200: z.object({ entries: z.number().int(), lines: z.number().int(), dateFrom: z.string(), dateTo: z.string() }),
          ...errorsWithConflict,
        },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => importJournal(tx, instanceId, userId, request.body));
    },
  );
};
