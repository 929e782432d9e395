/**
 * The second process of part (a)'s API path (issue 18 §4), forked by api-process.ts with the
 * parent's Node flags (the tsx loader), so that `process.cpuUsage()` counts one side of the HTTP
 * connection only:
 *   `server <database url>`: opens the bench's PostgreSQL database, builds the app with the bench's
 *     configuration (setup.ts) and listens on 127.0.0.1:0; the benchmark's HTTP client stays in
 *     the parent.
 *   `client`: the benchmark's HTTP client, for PGlite, which one process holds alone: the app and
 *     the database stay in the parent and this process posts the entries to it.
 * Messages (IPC): it sends `{ type: 'ready', port? }` once; it answers `{ type: 'cpu', id }` with
 * `{ type: 'cpu', id, ms }` (its own `process.cpuUsage()`, user + system, in ms), `{ type: 'load',
 * … }` with `{ type: 'loaded' }` and `{ type: 'post', id }` with `{ type: 'posted', id, ms }` (the
 * client's wall time); `{ type: 'close' }` ends it. It also ends when the parent goes away.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp, type App } from '../../apps/server/src/app.js';
import { openPostgres, type Database } from '../../apps/server/src/db/database.js';
import { benchConfig } from './setup.js';

export type ChildRequest =
  | { type: 'cpu'; id: number }
  | { type: 'load'; baseUrl: string; path: string; token: string; bodies: unknown[]; concurrency: number }
  | { type: 'post'; id: number }
  | { type: 'close' };

export type ChildAnswer =
  | { type: 'ready'; port?: number }
  | { type: 'cpu'; id: number; ms: number }
  | { type: 'loaded' }
  | { type: 'posted'; id: number; ms: number }
  | { type: 'failed'; id?: number; error: string };

const send = (answer: ChildAnswer) => process.send!(answer);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The posts of one round, loaded before the round's timers start so that IPC is not timed. */
let loaded: Extract<ChildRequest, { type: 'load' }> | undefined;

/** As Api.post in setup.ts: fetch (once more when the connection fails before an answer), 200 or throw, parse. */
async function post(baseUrl: string, path: string, token: string, body: unknown): Promise<void> {
  const init: RequestInit = { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  let response: Response;
  try {
    response = await fetch(baseUrl + path, init);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    response = await fetch(baseUrl + path, init);
  }
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  JSON.parse(text);
}

async function postLoaded(): Promise<number> {
  const round = loaded;
  if (!round) throw new Error('post before load');
  loaded = undefined;
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < round.bodies.length) {
      const index = next;
      next += 1;
      await post(round.baseUrl, round.path, round.token, round.bodies[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(round.concurrency, round.bodies.length)) }, worker));
  return performance.now() - start;
}

const role = process.argv[2];
let app: App | undefined;
let db: Database | undefined;

let closing: Promise<void> | undefined;
/** Idempotent: the parent's `close` and its going away may both ask. */
function close(): Promise<void> {
  return (closing ??= (async () => {
    await app?.close();
    await db?.close();
    process.exit(0);
  })());
}

process.on('disconnect', () => void close());
process.on('message', (request: ChildRequest) => {
  switch (request.type) {
    case 'cpu':
      send({ type: 'cpu', id: request.id, ms: cpuMs() });
      break;
    case 'load':
      loaded = request;
      send({ type: 'loaded' });
      break;
    case 'post':
      postLoaded().then(
        (ms) => send({ type: 'posted', id: request.id, ms }),
        (error: Error) => send({ type: 'failed', id: request.id, error: error.stack ?? String(error) }),
      );
      break;
    case 'close':
      void close();
      break;
  }
});

try {
  if (role === 'server') {
    const url = process.argv[3];
    if (!url) throw new Error('usage: api-child.ts server <database url> | client');
    db = await openPostgres(url);
    app = await buildApp({ config: benchConfig(), db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    send({ type: 'ready', port: (app.server.address() as AddressInfo).port });
  } else if (role === 'client') {
    send({ type: 'ready' });
  } else {
    throw new Error('usage: api-child.ts server <database url> | client');
  }
} catch (error) {
  send({ type: 'failed', error: (error as Error).stack ?? String(error) });
  await app?.close();
  await db?.close();
  process.exit(1);
}
