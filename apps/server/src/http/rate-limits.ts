/**
 * Rate limits of the sign-in surface (issue #3 §5; ASVS 5 V6.3.1 "controls against credential
 * stuffing and brute force"): per IP on every sign-in, 2FA, passkey and instance-exists call, and
 * per account where the body names one. Counters live in memory per server: with several servers
 * behind a balancer the effective limit is the sum, which still bounds guessing (the 2FA block
 * after 5 wrong codes is the per-account limit that holds across servers, in the database).
 */
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

const WINDOW = '1 minute';
const WINDOW_MS = 60_000;

/** Per-IP limit of a sign-in route (requests per minute). */
export const perIp = (max: number) => ({ max, timeWindow: WINDOW });

export const rateLimits = fp(async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError('too_many_requests', `Too many attempts; please wait ${context.after} and try again`, undefined, { retryAfter: context.after }),
  });
});

/**
 * A preHandler limiting calls per account: `key` picks the account from the request (user uuid,
 * the user of a 2FA payload or of a passkey ceremony, the workplace of a sign-in, the name looked
 * up); requests without one are left to the per-IP limit. It runs after validation, so only
 * well-formed requests count. A small fixed-window counter of our own: @fastify/rate-limit runs
 * only one of its limiters per request, and the per-IP one of the route has already run.
 */
export function perAccount(
  _app: FastifyInstance,
  name: string,
  max: number,
  key: (request: FastifyRequest) => string | undefined | Promise<string | undefined>,
) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const account = await key(request);
    if (!account) return;
    const now = Date.now();
    if (windows.size > 10_000) for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    const id = `${name}:${account}`;
    let window = windows.get(id);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_MS };
      windows.set(id, window);
    }
    window.count += 1;
    if (window.count > max) {
      const seconds = Math.ceil((window.resetAt - now) / 1000);
      void reply.header('retry-after', String(seconds));
      throw new AppError('too_many_requests', `Too many attempts; please wait ${seconds} seconds and try again`, undefined, { retryAfter: seconds });
    }
  };
}
