/**
 * Access control declared per route (`config.access`) and enforced in one hook (STYLE.md #12).
 * Every /api and /napi route must declare its access level; registering one without it fails at
 * start-up, so no endpoint is left unguarded by omission.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { RoleName } from '@bilan/domain';
import { forbidden, unauthenticated } from './errors.js';

/**
 * - public: anyone (version, sign-in start).
 * - session: a signed-in user, whatever the role (profile, onboarding, page views).
 * - read: a member of the instance (any role).
 * - write: may post and edit books and documents (owner, admin, accountant).
 * - admin: may change the instance's settings and staff (owner, admin).
 * - superadmin: the platform's support staff (app_user.is_superadmin), whatever the instance role.
 */
export type Access = 'public' | 'session' | 'read' | 'write' | 'admin' | 'superadmin';

export interface AuthContext {
  userId: string;
  instanceId: string;
  role: RoleName;
  /** Session family id: the refresh-token chain this access token belongs to. */
  sessionId: string;
  isSuperadmin: boolean;
}

export interface GuardedRoute {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api and /napi route with its access level, for the refusal suites (STYLE.md #12). */
    guardedRoutes: GuardedRoute[];
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const WRITERS: readonly RoleName[] = ['owner', 'admin', 'accountant'];
const ADMINS: readonly RoleName[] = ['owner', 'admin'];

/** The authenticated context of a request whose route is not public. */
export function auth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export const accessPlugin = fp(async (app) => {
  app.decorateRequest('auth', null);
  app.decorate('guardedRoutes', [] as GuardedRoute[]);

  app.addHook('onRoute', (route) => {
    const guarded = (route.url.startsWith('/api/') || route.url.startsWith('/napi/')) && !route.url.startsWith('/api/docs');
    if (!guarded) return;
    const access = route.config?.access;
    if (!access) throw new Error(`route ${String(route.method)} ${route.url} declares no config.access`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.guardedRoutes.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (!token) throw unauthenticated();
    const context = await app.sessions.verifyAccessToken(token);
    if (!context) throw unauthenticated('Session expired or invalid');
    request.auth = context;
    if (access === 'write' && !WRITERS.includes(context.role)) {
      throw forbidden(`Your role (${context.role}) may only read in this workplace`);
    }
    if (access === 'superadmin' && !context.isSuperadmin) {
      throw forbidden('Only platform support (superadmin) may do this');
    }
    if (access === 'admin' && !ADMINS.includes(context.role)) {
      throw forbidden(`Only an owner or admin may do this (your role: ${context.role})`);
    }
  });
});
