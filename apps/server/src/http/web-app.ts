/**
 * Serves the built single-page app (apps/web/dist). Unknown GET paths outside /api, /napi and /oidc
 * answer index.html (see the not-found handler in app.ts) so /accounting/journal etc. load directly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';

declare module 'fastify' {
  interface FastifyInstance {
    /** True when the built web app is served (index.html exists). */
    hasWebApp: boolean;
  }
}

export const webApp = fp(async (app) => {
  const root = app.config.webDist;
  const available = existsSync(join(root, 'index.html'));
  app.decorate('hasWebApp', available);
  if (!available) {
    app.log.warn(`web app not built (${root}); run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    index: false,
    // The build writes .br and .gz beside each text file (apps/web/scripts/precompress.mjs): sent as the browser accepts.
    preCompressed: true,
    // Vite names assets by content hash: cache them for good; index.html is sent with no-cache.
    setHeaders: (res, path) => {
      if (path.startsWith(join(root, 'assets'))) res.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  // The static wildcard treats '/' as a directory and refuses it (403); the app's home is index.html.
  app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false }));
});

/** True when a path belongs to the single-page app rather than to the API or the identity provider. */
export const isSpaPath = (path: string) => !/^\/(api|napi|oidc)(\/|$)/.test(path);
