import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VERSION } from '@bilan/domain';

/** GET /api/meta/version → {"version":"v1.0.3"} (spec §7.1, §9); public. */
export const metaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/meta/version',
    {
      config: { access: 'public' },
      schema: { tags: ['meta'], security: [], response: { 200: z.object({ version: z.literal(VERSION) }) } },
    },
    async () => ({ version: VERSION as typeof VERSION }),
  );
};
