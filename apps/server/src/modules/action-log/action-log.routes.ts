import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { recordPageView } from './action-log.service.js';

/** POST /napi/action-log/insert {url}: a page view (spec §2.10); the web only logs a failure. */
export const actionLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/action-log/insert',
    {
      config: { access: 'session' },
      schema: {
        tags: ['session'],
        body: z.strictObject({ url: z.string().min(1).max(2000) }),
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => recordPageView(tx, instanceId, userId, request.body.url));
      return { ok: true as const };
    },
  );
};
