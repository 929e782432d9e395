/**
 * `Idempotency-Key` on the write POSTs of /api, as Stripe does (issue #11 §1, decision 013): the
 * first answer to a key is stored per instance for 24 hours and replayed for a repeat of the same
 * request, so a double click or a retry after a dropped connection books once.
 *
 * - The key is claimed in its own short transaction before the handler runs (INSERT … ON CONFLICT:
 *   of parallel repeats exactly one claims it); the answer is stored when it is sent.
 * - Every transaction of the handler that writes also marks the claim `committed_at`, inside that
 *   transaction: a claim whose write committed never runs again. When its answer was lost (the
 *   server died between the COMMIT and storing it), a repeat answers 409 `idempotency_answer_lost`
 *   instead of booking a second time.
 * - A repeat while the first still runs answers 409 `idempotency_in_progress`; the same key with
 *   another request (method, URL, body or user) answers 422 `idempotency_key_reused`.
 * - A 5xx (or any answer outside 2xx–4xx) or a non-JSON answer releases the claim, so a retry runs again. A 4xx is stored: the same
 *   request would be refused the same way (Stripe). A body refused by validation claims nothing.
 * - Without the header nothing changes.
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import { runWithBeforeCommit, type Database, type Tx } from '../db/database.js';
import { auth, type Access } from './access.js';
import { fieldError } from './errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long an answer is kept and replayed (Stripe: 24 hours). */
const KEEP = "interval '24 hours'";
/**
 * A claim without an answer after this long was left by a server that died mid-request (its own
 * transaction rolled back): the key may be claimed again. No request runs this long, and were one
 * to, its state changes are still race-free (row locks, issue 11 §1), so it could not book twice.
 */
const ABANDONED = "interval '10 minutes'";
/**
 * A claim whose write committed but that has no answer this long after the commit lost its answer:
 * storing it follows the COMMIT within milliseconds, so only a server that died in between leaves
 * one. The write is not run again; the repeat is told so.
 */
const ANSWER_LOST = "interval '1 minute'";
/** 1–255 printable ASCII characters (Stripe allows 255; a UUID is the usual choice). */
const KEY = /^[\x20-\x7E]{1,255}$/;
const KEY_MESSAGE = 'The Idempotency-Key must be 1 to 255 printable ASCII characters';
/** Expired rows swept by one claim, at most: the clean-up stays a small, bounded side job. */
const SWEEP_LIMIT = 100;

interface IdempotentRequest {
  key: string;
  fingerprint: string;
  /** `claimed` once this request owns the key; `settled` once its answer is stored or released. */
  state: 'checked' | 'claimed' | 'settled';
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotentRequest | null;
  }
}

/** Whether a route honours `Idempotency-Key`: the POSTs of /api that write (access write or admin). */
export function isIdempotentWrite(method: string, url: string, access: Access | undefined): boolean {
  return method === 'POST' && url.startsWith('/api/') && (access === 'write' || access === 'admin');
}

/**
 * The body as one text whatever its key order: objects with sorted keys, JSON-encoded; text and
 * binary bodies (CSV, XML, files) as they came. Throws a 400 naming the body when it nests too
 * deeply to encode.
 */
function canonicalBody(body: unknown): string | Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return `text:${body}`;
  try {
    const json = JSON.stringify(body ?? null, (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    );
    return `json:${json}`;
  } catch {
    throw fieldError('body', 'The body is nested too deeply');
  }
}

/** SHA-256 (hex) of method, URL (path and query) and canonical body: what a repeat must match. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method}\n${url}\n`).update(canonicalBody(body)).digest('hex');
}

interface StoredKey {
  user_id: string;
  fingerprint: string;
  status_code: number | null;
  response_body: unknown;
  /** Whether the claim's write committed without an answer long enough ago that none will come. */
  answer_lost: boolean;
}

type Claim = { kind: 'claimed' } | { kind: 'stored'; row: StoredKey } | { kind: 'vanished' };

/**
 * Claims `key` for this request in one short transaction: a new key, one whose answer is older
 * than 24 hours, or an abandoned claim (no answer and no committed write after 10 minutes) becomes
 * this request's; otherwise the stored row is returned. Sweeps a few other
 * expired keys of the instance on the way (SKIP LOCKED: never waits for, nor deadlocks with, a
 * parallel claim).
 */
function claim(db: Database, instanceId: string, userId: string, key: string, fingerprint: string): Promise<Claim> {
  return db.withInstance(instanceId, async (tx) => {
    const claimed = await tx.query(
      `WITH swept AS (
         DELETE FROM idempotency_key
          WHERE (instance_id, key) IN (
            SELECT instance_id, key FROM idempotency_key
             WHERE instance_id = $1 AND key <> $2 AND created_at < now() - ${KEEP}
             LIMIT ${SWEEP_LIMIT} FOR UPDATE SKIP LOCKED))
       INSERT INTO idempotency_key AS k (instance_id, key, user_id, fingerprint) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance_id, key) DO UPDATE
          SET user_id = excluded.user_id, fingerprint = excluded.fingerprint, status_code = NULL, response_body = NULL,
              committed_at = NULL, created_at = now()
        WHERE k.created_at < now() - ${KEEP}
           OR (k.status_code IS NULL AND k.committed_at IS NULL AND k.created_at < now() - ${ABANDONED})
       RETURNING key`,
      [instanceId, key, userId, fingerprint],
    );
    if (claimed.length) return { kind: 'claimed' };
    // A new statement, a new snapshot: it sees the claim a parallel request committed meanwhile.
    const [row] = await tx.query<StoredKey & Record<string, unknown>>(
      `SELECT user_id, fingerprint, status_code, response_body,
              status_code IS NULL AND committed_at < now() - ${ANSWER_LOST} AS answer_lost
         FROM idempotency_key WHERE instance_id = $1 AND key = $2`,
      [instanceId, key],
    );
    return row ? { kind: 'stored', row } : { kind: 'vanished' };
  });
}

/**
 * Sends a JSON answer as text, past the route's response serializer: its error schema would drop
 * `code`, and a stored 4xx is not the shape of the route's 200.
 */
const sendJson = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));

const inProgress = (reply: FastifyReply) =>
  sendJson(reply, 409, { error: 'A request with this Idempotency-Key is still being processed; retry later', code: 'idempotency_in_progress' });

/** Replays a stored answer, or refuses the repeat (422 another request, 409 still running). */
function answerRepeat(reply: FastifyReply, row: StoredKey, fingerprint: string, userId: string): FastifyReply {
  if (row.fingerprint !== fingerprint || row.user_id !== userId) {
    const message = 'This Idempotency-Key was already used for another request; use a new key for a new request';
    return sendJson(reply, 422, { error: message, fields: { [IDEMPOTENCY_HEADER]: message }, code: 'idempotency_key_reused' });
  }
  if (row.answer_lost) {
    const message =
      'The request with this Idempotency-Key was carried out, but its answer was lost when the server stopped; look up the result instead of repeating the request';
    return sendJson(reply, 409, { error: message, code: 'idempotency_answer_lost' });
  }
  if (row.status_code === null) return inProgress(reply);
  return sendJson(reply.header('Idempotent-Replayed', 'true'), row.status_code, row.response_body);
}

/**
 * Marks the claim as booked, as the last statement of a handler's transaction: only when that
 * transaction wrote (PostgreSQL gave it a transaction id), so a read-only transaction leaves a
 * claim that a crash may abandon and a retry may run. The initPlan reads the id before this
 * UPDATE would assign one.
 */
const markCommitted = (idempotency: IdempotentRequest) => async (tx: Tx, instanceId: string) => {
  // Storing the answer (onSend, same async context) has nothing left to mark.
  if (idempotency.state !== 'claimed') return;
  await tx.query(
    `UPDATE idempotency_key SET committed_at = now()
      WHERE instance_id = $1 AND key = $2 AND status_code IS NULL AND committed_at IS NULL
        AND (SELECT pg_current_xact_id_if_assigned()) IS NOT NULL`,
    [instanceId, idempotency.key],
  );
};

/** Stores the answer of a claimed key, or releases the claim for a 5xx or a non-JSON answer. Never throws. */
async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown, db: Database): Promise<void> {
  const { key } = request.idempotency!;
  const { instanceId } = auth(request);
  const status = reply.statusCode;
  const isJson = String(reply.getHeader('content-type') ?? '').includes('application/json') && typeof payload === 'string';
  let body: string | null = null;
  if (status >= 200 && status < 500 && isJson) {
    try {
      JSON.parse(payload);
      body = payload;
    } catch {
      body = null;
    }
  }
  try {
    await db.withInstance(instanceId, (tx) =>
      body === null
        ? // A claim whose write committed stays: a retry must not book again (it learns the answer was lost).
          tx.query('DELETE FROM idempotency_key WHERE instance_id = $1 AND key = $2 AND status_code IS NULL AND committed_at IS NULL', [
            instanceId,
            key,
          ])
        : tx.query(
            'UPDATE idempotency_key SET status_code = $3, response_body = $4::jsonb WHERE instance_id = $1 AND key = $2 AND status_code IS NULL',
            [instanceId, key, status, body],
          ),
    );
  } catch (error) {
    // The answer itself is sent anyway. The claim stays "in progress" until it expires: releasing
    // it could let a retry book a second time what the handler has already booked.
    request.log.error({ err: error, key }, 'could not store the idempotent answer');
  }
}

/**
 * The plugin: register after the access plugin (the claim needs the authenticated instance and
 * user). Hooks: preValidation checks the header and fingerprints the body as it came; preHandler
 * claims (after validation, so a refused body claims nothing) and runs the handler with the
 * committed mark joined to its transactions; onSend stores or releases.
 */
export const idempotencyPlugin = fp(async (app) => {
  app.decorateRequest('idempotency', null);

  app.addHook('preValidation', async (request) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (!isIdempotentWrite(request.method, request.routeOptions.url ?? '', request.routeOptions.config?.access)) return;
    if (typeof header !== 'string' || !KEY.test(header)) throw fieldError(IDEMPOTENCY_HEADER, KEY_MESSAGE);
    request.idempotency = { key: header, fingerprint: requestFingerprint(request.method, request.url, request.body), state: 'checked' };
  });

  app.addHook('preHandler', async (request, reply) => {
    const idempotency = request.idempotency;
    if (!idempotency || idempotency.state !== 'checked') return;
    const { instanceId, userId } = auth(request);
    // A claim released (5xx) between our insert and our read leaves nothing to read: claim again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const outcome = await claim(app.db, instanceId, userId, idempotency.key, idempotency.fingerprint);
      if (outcome.kind === 'claimed') {
        idempotency.state = 'claimed';
        return;
      }
      if (outcome.kind === 'stored') {
        idempotency.state = 'settled';
        return answerRepeat(reply, outcome.row, idempotency.fingerprint, userId);
      }
    }
    idempotency.state = 'settled';
    return inProgress(reply);
  });

  // Callback style on purpose: `done` runs the handler inside `runWithBeforeCommit`, so the async
  // context reaches every transaction the handler starts (an async hook's continuation would not).
  app.addHook('preHandler', (request, _reply, done) => {
    const idempotency = request.idempotency;
    if (idempotency?.state !== 'claimed') return done();
    runWithBeforeCommit(markCommitted(idempotency), () => done());
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.idempotency?.state !== 'claimed') return payload;
    request.idempotency.state = 'settled';
    await settle(request, reply, payload, app.db);
    return payload;
  });
});

/**
 * Wraps the swagger `transform` so that every route that honours the key documents the optional
 * `Idempotency-Key` request header in the OpenAPI document.
 */
export function documentIdempotencyKey<S extends FastifySchema>(transform: SwaggerTransform<S>): SwaggerTransform<S> {
  return (input) => {
    const result = transform(input);
    const route: RouteOptions = input.route;
    const honours = [route.method].flat().some((method) => isIdempotentWrite(method, input.url, route.config?.access));
    if (!honours) return result;
    const headers = (result.schema.headers ?? {}) as { type?: string; properties?: Record<string, unknown> };
    const header = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Optional. A unique key per logical request (a UUID): a repeat with the same key and body within 24 hours replays the ' +
        'first answer (response header `Idempotent-Replayed: true`) instead of running again; the same key with another ' +
        'request answers 422 `idempotency_key_reused`, a repeat while the first runs 409 `idempotency_in_progress` (docs/api.md).',
    };
    return {
      ...result,
      schema: { ...result.schema, headers: { ...headers, type: 'object', properties: { ...headers.properties, [IDEMPOTENCY_HEADER]: header } } },
    };
  };
}
