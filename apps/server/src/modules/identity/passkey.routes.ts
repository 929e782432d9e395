import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Passkeys (WebAuthn): filled in by the passkey step of issue #3. */
export const passkeyRoutes: FastifyPluginAsyncZod = async () => {};
