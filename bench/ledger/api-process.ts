/**
 * Part (a)'s API path with the Bilan server and the benchmark's HTTP client in two processes
 * (issue 18 §4), so that the API's CPU time (server process + database) does not count the client:
 *   PostgreSQL: the server runs in a child process (api-child.ts `server`) on the same database,
 *     the client (undici fetch) in this process;
 *   PGlite: one process holds the database alone, so the server and PGlite stay in this process
 *     and the client runs in a child process (api-child.ts `client`).
 * The children run with this process's Node flags (`process.execArgv`: the tsx loader).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { ChildAnswer, ChildRequest } from './api-child.js';
import { log } from './measure.js';
import type { Api, BenchEnv } from './setup.js';

export interface ApiProcess {
  /** Where the server and the client ran, for the JSON. */
  layout: 'server in a child process, client in the bench process' | 'server and PGlite in the bench process, client in a child process';
  /** The Api of `api` aimed at the server that is measured. */
  serverApi(api: Api): Api;
  /** POSTs `bodies` to `path` with at most `concurrency` in flight; the wall time in ms. */
  post(api: Api, path: string, bodies: readonly unknown[], concurrency: number): Promise<number>;
  /** CPU ms used so far (user + system) by the server's process (without the database's backends) and by the client's. */
  cpu(): Promise<{ serverMs: number; clientMs: number }>;
  close(): Promise<void>;
}

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** A forked api-child.ts, with requests answered by id. */
class Child {
  private nextId = 0;
  private readonly waiting = new Map<number | 'ready' | 'loaded', { resolve: (answer: ChildAnswer) => void; reject: (error: Error) => void }>();
  private exited: Error | undefined;

  constructor(readonly process: ChildProcess) {
    process.on('message', (answer: ChildAnswer) => {
      const key = answer.type === 'ready' || answer.type === 'loaded' ? answer.type : answer.id;
      if (key === undefined) {
        // A failure before ready.
        for (const waiter of this.waiting.values()) waiter.reject(new Error(`api-child: ${(answer as { error: string }).error}`));
        this.waiting.clear();
        return;
      }
      const waiter = this.waiting.get(key);
      this.waiting.delete(key);
      if (answer.type === 'failed') waiter?.reject(new Error(`api-child: ${answer.error}`));
      else waiter?.resolve(answer);
    });
    process.on('exit', (code, signal) => {
      this.exited = new Error(`api-child exited (${signal ?? code})`);
      for (const waiter of this.waiting.values()) waiter.reject(this.exited);
      this.waiting.clear();
    });
  }

  static async start(args: string[]): Promise<{ child: Child; port?: number }> {
    const script = fileURLToPath(new URL('./api-child.ts', import.meta.url));
    // stdout carries the bench's JSON: the child's output goes to stderr.
    const forked = fork(script, args, { execArgv: process.execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
    const child = new Child(forked);
    const ready = await child.wait('ready');
    return { child, ...(ready.type === 'ready' && ready.port !== undefined ? { port: ready.port } : {}) };
  }

  private wait(key: number | 'ready' | 'loaded'): Promise<ChildAnswer> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => this.waiting.set(key, { resolve, reject }));
  }

  async ask(request: ChildRequest): Promise<ChildAnswer> {
    const key = request.type === 'load' ? 'loaded' : request.type === 'close' ? undefined : request.type === 'cpu' || request.type === 'post' ? request.id : undefined;
    const answer = key === undefined ? Promise.resolve({ type: 'loaded' } as ChildAnswer) : this.wait(key);
    this.process.send(request);
    return answer;
  }

  id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  async cpuMs(): Promise<number> {
    const answer = await this.ask({ type: 'cpu', id: this.id() });
    return answer.type === 'cpu' ? answer.ms : Number.NaN;
  }

  async close(): Promise<void> {
    if (this.exited || !this.process.connected) return;
    const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    this.process.send({ type: 'close' } satisfies ChildRequest);
    const timeout = setTimeout(() => this.process.kill(), 5_000);
    await gone;
    clearTimeout(timeout);
  }
}

/** Starts the second process of the API path for `env` (see the file's comment). */
export async function startApiProcess(env: BenchEnv): Promise<ApiProcess> {
  if (env.engine === 'postgres') {
    if (!env.databaseUrl) throw new Error('the PostgreSQL bench env has no database URL');
    const { child, port } = await Child.start(['server', env.databaseUrl]);
    const baseUrl = `http://127.0.0.1:${port}`;
    log(`${env.engine} (a): Bilan server in child process ${child.process.pid} at ${baseUrl}`);
    // One Api per user, so its token is minted once, not inside every timed round.
    const targets = new Map<Api, Api>();
    const serverApi = (api: Api) => targets.get(api) ?? targets.set(api, api.at(baseUrl)).get(api)!;
    return {
      layout: 'server in a child process, client in the bench process',
      serverApi,
      post: async (api, path, bodies, concurrency) => {
        const target = serverApi(api);
        const start = performance.now();
        let next = 0;
        const worker = async () => {
          while (next < bodies.length) {
            const index = next;
            next += 1;
            await target.post(path, bodies[index]);
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, bodies.length)) }, worker));
        return performance.now() - start;
      },
      cpu: async () => ({ serverMs: await child.cpuMs(), clientMs: ownCpuMs() }),
      close: () => child.close(),
    };
  }
  const { child } = await Child.start(['client']);
  log(`${env.engine} (a): HTTP client in child process ${child.process.pid} (PGlite is held by one process: the server stays in the bench process)`);
  return {
    layout: 'server and PGlite in the bench process, client in a child process',
    serverApi: (api) => api,
    post: async (api, path, bodies, concurrency) => {
      // Loaded before the wall time starts; the child times its own loop.
      await child.ask({ type: 'load', baseUrl: api.baseUrl, path, token: await api.bearer(), bodies: [...bodies], concurrency });
      const answer = await child.ask({ type: 'post', id: child.id() });
      return answer.type === 'posted' ? answer.ms : Number.NaN;
    },
    cpu: async () => ({ serverMs: ownCpuMs(), clientMs: await child.cpuMs() }),
    close: () => child.close(),
  };
}
