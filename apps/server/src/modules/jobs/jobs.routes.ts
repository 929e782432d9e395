/**
 * The superadmin's view of the job runner (issue 15 §5): GET /napi/admin/jobs — queues with counts
 * per state, the latest jobs and the latest failures. Superadmins only, like the other platform
 * support pages (identity/admin.routes.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '../../http/schemas.js';
import { JOB_STATES, listJobs, listQueues } from './jobs.service.js';

const jobAnswer = z.object({
  id: z.string(),
  queue: z.string(),
  state: z.enum(JOB_STATES),
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  data: z.unknown().describe('what the job works on, e.g. { instanceId, messageId }'),
  error: z.string().nullable(),
  createdOn: z.string(),
  startAfter: z.string(),
  startedOn: z.string().nullable(),
  completedOn: z.string().nullable(),
});

export const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/napi/admin/jobs',
    {
      config: { access: 'superadmin' },
      schema: {
        tags: ['superadmin'],
        description:
          'The job runner (pg-boss): every queue with its retry settings and jobs per state (created, retry, active, completed, ' +
          'cancelled, failed), the latest 50 jobs and the latest 50 failures (failed, or failed and waiting for a retry) with their error.',
        querystring: z.object({ queue: z.string().max(100).optional() }),
        response: {
          200: z.object({
            queues: z.array(
              z.object({
                name: z.string(),
                policy: z.string(),
                retryLimit: z.number().int(),
                retryDelaySeconds: z.number().int(),
                retryBackoff: z.boolean(),
                expireSeconds: z.number().int(),
                counts: z.record(z.enum(JOB_STATES), z.number().int()),
              }),
            ),
            recent: z.array(jobAnswer),
            failures: z.array(jobAnswer),
          }),
          ...errors,
        },
      },
    },
    async (request) =>
      app.db.withAuth(async (tx) => ({
        queues: await listQueues(tx),
        recent: await listJobs(tx, { queue: request.query.queue, limit: 50 }),
        failures: await listJobs(tx, { queue: request.query.queue, failuresOnly: true, limit: 50 }),
      })),
  );
};
