/**
 * The signed-in user's profile and instance list (spec §7.1 "Meta and profile", §7.2 "GET /profile",
 * "GET /profile/instance/list"); registered by app.ts just before the instance routes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currencyCodes, numberFormats, uiLanguages } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errorSchema as sharedErrorSchema } from '../../http/schemas.js';
import { listUserInstances, loadProfile } from './profile.service.js';

const roleSchema = z.enum(['owner', 'admin', 'accountant', 'viewer']);
const currencySchema = z.enum(currencyCodes as [string, ...string[]]);
// Passes extra keys through: the profile's 409 carries `onboarding: true`.
const errorSchema = sharedErrorSchema.loose();

/** The signed-in user in the current instance (GET /napi/profile; also in a refresh's answer on request). */
export const profileSchema = z.object({
  uuid: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  isSuperadmin: z.boolean(),
  permissions: z.array(z.enum(['read', 'write', 'admin'])),
  instance: z.object({ uuid: z.string(), name: z.string(), currency: currencySchema, initialized: z.boolean() }),
  language: z.enum(uiLanguages).nullable().describe('UI language chosen by the user; null: the browser\'s'),
  numberFormat: z.enum(numberFormats).nullable().describe('number format chosen by the user; null: fr-CH (spec §9)'),
});

const instanceListSchema = z.object({ data: z.array(z.object({ uuid: z.string(), name: z.string(), role: roleSchema })) });

/** GET /api/profile, /napi/profile, /api/instance/list, /napi/profile/instance/list. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const profileRoute = {
    config: { access: 'session' as const },
    schema: {
      tags: ['profile'],
      description: 'The signed-in user in the current instance. 409 { onboarding: true } before onboarding has finished (the web then opens /onboarding, spec §4).',
      response: { 200: profileSchema, 401: errorSchema, 409: errorSchema },
    },
  };
  app.get('/api/profile', profileRoute, async (request) => loadProfile(app.db, auth(request).instanceId, auth(request).userId));
  app.get('/napi/profile', profileRoute, async (request) => loadProfile(app.db, auth(request).instanceId, auth(request).userId));

  const listRoute = {
    config: { access: 'session' as const },
    schema: { tags: ['profile'], description: "The user's instances, sorted by name.", response: { 200: instanceListSchema } },
  };
  app.get('/api/instance/list', listRoute, async (request) => ({ data: await listUserInstances(app.db, auth(request).userId) }));
  app.get('/napi/profile/instance/list', listRoute, async (request) => ({ data: await listUserInstances(app.db, auth(request).userId) }));
};
