import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `Link: <…?cursor=…>; rel="next"` (RFC 8288) on a GET list's first page, as GitHub's API does:
 * the spec's unfiltered lists answer a page, and a client follows the link (or the body's
 * `nextCursor`) to the next one (issue 18 §2). Other query parameters are kept.
 */
export function linkNext(request: FastifyRequest, reply: FastifyReply, nextCursor: string | null): void {
  if (nextCursor === null) return;
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('cursor', nextCursor);
  url.searchParams.delete('page');
  reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
}
