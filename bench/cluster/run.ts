/**
 * Several app servers (issue 18 §5): two compiled Bilan servers on one PostgreSQL database, with
 * pgbouncer (transaction pooling) between them and PostgreSQL and haproxy (round robin, health
 * check on /api/meta/version) in front of them; a mixed workload through haproxy, one app server
 * killed (SIGKILL) mid-run and restarted 10 s later; then every idempotent write is checked to
 * have landed exactly once and the books to balance.
 *
 * Usage: `npm run bench:cluster [-- --duration 60 | --quick] [--pg-url postgres://postgres@127.0.0.1:5432/postgres]`.
 * JSON on stdout, progress on stderr. Exit 1 only when the run breaks; misses are reported.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config.js';
import { openPostgres, type Database } from '../../apps/server/src/db/database.js';
import { SessionService } from '../../apps/server/src/modules/identity/session.service.js';
import { log } from '../ledger/measure.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    quick: { type: 'boolean', default: false },
    clients: { type: 'string', default: '8' },
    'pg-url': { type: 'string', default: process.env.BILAN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
    'no-restart': { type: 'boolean', default: false },
  },
});
const durationS = values.quick ? 15 : Number(values.duration);
const clients = Number(values.clients);
const root = resolve(import.meta.dirname, '../..');
const pid = process.pid;
const dbName = `bilan_cluster_${pid}`;
const appRole = `bilan_cluster_app_${pid}`;
const BOUNCER_PORT = 16432 + (pid % 1000);
const HAPROXY_PORT = 18080 + (pid % 1000);
const APP_PORTS = [19080 + (pid % 1000), 20080 + (pid % 1000)];
const tmp = mkdtempSync(join(tmpdir(), 'bilan-cluster-'));
const children: ChildProcess[] = [];
const servers: (ChildProcess | undefined)[] = [undefined, undefined];

// ---------- tools ----------

function ensureTools(): void {
  const missing = ['haproxy', 'pgbouncer'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status !== 0);
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} with apt-get`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  for (const args of [['apt-get', 'update'], ['apt-get', 'install', '-y', ...missing]]) {
    const run = spawnSync(sudo[0] ?? args[0]!, [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (run.status !== 0) throw new Error(`${args.join(' ')} failed`);
  }
}
const bin = (tool: string) => (spawnSync('sh', ['-c', `command -v ${tool}`]).stdout.toString().trim() || `/usr/sbin/${tool}`);

function start(command: string, args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (!stopping && signal !== 'SIGKILL') log(`${name} exited (${code ?? signal}): ${stderr.slice(-1500)}`);
  });
  children.push(child);
  return child;
}

async function waitForPg(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client(url);
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (child.exitCode != null || Date.now() > until) throw new Error(`pgbouncer at ${url} did not answer: ${(error as Error).message}`, { cause: error });
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function waitFor(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode != null) throw new Error(`the process behind ${url} exited (${child.exitCode})`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------- set-up ----------

let stopping = false;
let admin: pg.Client | undefined;
let appDb: Database | undefined;
/** Whether the pgbouncer here carries named prepared statements (1.21+), set when it is configured. */
let bouncerCarriesPrepared = false;

async function cleanUp(): Promise<void> {
  stopping = true;
  for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  for (const child of children) if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
  await appDb?.close().catch(() => undefined);
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e: Error) => log(`drop database: ${e.message}`));
    await admin.query(`DROP ROLE IF EXISTS ${appRole}`).catch((e: Error) => log(`drop role: ${e.message}`));
    await admin.end().catch(() => undefined);
  }
  rmSync(tmp, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  log('interrupted: cleaning up');
  void cleanUp().finally(() => process.exit(130));
});

function serverEnv(index: number, bouncerUrl: string, ownerUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(APP_PORTS[index]),
    HOST: '127.0.0.1',
    DATABASE_URL: bouncerUrl,
    BILAN_MIGRATION_DATABASE_URL: ownerUrl,
    BILAN_PUBLIC_URL: `http://127.0.0.1:${HAPROXY_PORT}`,
    BILAN_DATA_DIR: join(tmp, `data${index}`),
    BILAN_TRUSTED_PROXIES: '127.0.0.1',
    BILAN_DATABASE_PREPARED_STATEMENTS: bouncerCarriesPrepared ? '1' : '0',
    LOG_LEVEL: 'warn',
  };
}

function startServer(index: number, env: NodeJS.ProcessEnv): ChildProcess {
  const child = start(process.execPath, [join(root, 'apps/server/dist/main.js')], env, `server ${index + 1}`);
  servers[index] = child;
  return child;
}

// ---------- workload ----------

type Kind = 'post' | 'entry/list' | 'invoice/list' | 'company/list' | 'balance' | 'pdf';
const KINDS: Kind[] = ['post', 'post', 'post', 'entry/list', 'invoice/list', 'company/list', 'balance', 'pdf'];
type Phase = 'before kill' | 'after kill' | 'after restart';
interface Sample {
  phase: Phase;
  kind: Kind;
  ms: number;
  /** HTTP status, or 0 for a connection error. */
  status: number;
}
const samples: Sample[] = [];
let phase: Phase = 'before kill';
const phaseTimes: Record<string, { start: number; end: number }> = {};

async function call(base: string, token: string, kind: Kind, body: unknown, method: string, path: string, key?: string): Promise<number> {
  const started = performance.now();
  const phaseAt = phase;
  let status: number;
  try {
    const response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    status = 0;
  }
  samples.push({ phase: phaseAt, kind, ms: performance.now() - started, status });
  return status;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
}

async function main(): Promise<void> {
  ensureTools();
  admin = new pg.Client(values['pg-url']);
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`DROP ROLE IF EXISTS ${appRole}`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  // The server's login role: no SUPERUSER, no BYPASSRLS (production start-up refuses those);
  // the owner's migrations grant it bilan_app and bilan_auth.
  await admin.query(`CREATE ROLE ${appRole} LOGIN NOINHERIT`);
  const pgUrl = new URL(values['pg-url']);
  const ownerUrl = new URL(pgUrl);
  ownerUrl.pathname = `/${dbName}`;
  const directAppUrl = new URL(ownerUrl);
  directAppUrl.username = appRole;
  const bouncerUrl = `postgres://${appRole}@127.0.0.1:${BOUNCER_PORT}/${dbName}`;

  // pgbouncer, transaction pooling, trust on 127.0.0.1 (bench only). From 1.21 it carries named
  // prepared statements across the server connections it lends (max_prepared_statements); before,
  // the servers must not name any (decision 038).
  const bouncerVersion = spawnSync(bin('pgbouncer'), ['--version']).stdout.toString();
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(bouncerVersion) ?? []).slice(1).map(Number);
  bouncerCarriesPrepared = major > 1 || (major === 1 && minor >= 21);
  writeFileSync(join(tmp, 'userlist.txt'), `"${appRole}" ""\n`);
  writeFileSync(
    join(tmp, 'pgbouncer.ini'),
    [
      '[databases]',
      `${dbName} = host=${pgUrl.hostname} port=${pgUrl.port || 5432} dbname=${dbName}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${BOUNCER_PORT}`,
      `unix_socket_dir = ${tmp}`,
      'auth_type = trust',
      `auth_file = ${join(tmp, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      ...(bouncerCarriesPrepared ? ['max_prepared_statements = 256'] : []),
      `pidfile = ${join(tmp, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: it drops to `nobody` (-u) then; the temp dir must be readable.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) spawnSync('chmod', ['-R', 'a+rwX', tmp]);
  const bouncer = start(bin('pgbouncer'), [...(asRoot ? ['-u', 'nobody'] : []), join(tmp, 'pgbouncer.ini')], process.env, 'pgbouncer');
  await waitForPg(bouncerUrl, 10_000, bouncer);
  log(`build the server when stale`);
  const build = spawnSync(process.execPath, [join(root, 'apps/server/scripts/build.mjs'), '--if-stale'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('server build failed');

  // haproxy: round robin over the two servers, health check on /api/meta/version.
  writeFileSync(
    join(tmp, 'haproxy.cfg'),
    [
      'global',
      '  maxconn 1000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  option http-server-close',
      '  retries 2',
      '  option redispatch',
      'frontend bilan',
      `  bind 127.0.0.1:${HAPROXY_PORT}`,
      '  default_backend apps',
      'backend apps',
      '  balance roundrobin',
      '  option httpchk GET /api/meta/version',
      '  default-server inter 1s fall 2 rise 2',
      ...APP_PORTS.map((port, i) => `  server app${i + 1} 127.0.0.1:${port} check`),
      '',
    ].join('\n'),
  );

  // Server 1 first: its start-up migrates as the owner; then server 2 (migrations already applied).
  const envs = [0, 1].map((i) => serverEnv(i, bouncerUrl, ownerUrl.toString()));
  let t = performance.now();
  await waitFor(`http://127.0.0.1:${APP_PORTS[0]}/api/meta/version`, 120_000, startServer(0, envs[0]!));
  log(`server 1 up (migrated) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  await waitFor(`http://127.0.0.1:${APP_PORTS[1]}/api/meta/version`, 120_000, startServer(1, envs[1]!));
  log(`server 2 up in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  start(bin('haproxy'), ['-f', join(tmp, 'haproxy.cfg'), '-db'], process.env, 'haproxy');
  const base = `http://127.0.0.1:${HAPROXY_PORT}`;
  await waitFor(`${base}/api/meta/version`, 20_000);

  // Workplace: user, instance, membership and a bearer token made in the bench process (as the
  // app login role, straight on PostgreSQL), onboarding through haproxy.
  appDb = await openPostgres(directAppUrl.toString(), { max: 2 });
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', BILAN_PUBLIC_URL: base, BILAN_DATA_DIR: join(tmp, 'bench'), LOG_LEVEL: 'silent' });
  const sessions = await SessionService.create(appDb, config);
  const { instanceId, userId } = await appDb.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(`INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'Cluster', 'Bench') RETURNING id`, [`cluster.${pid}@example.ch`]);
    const [instance] = await tx.query<{ id: string }>('INSERT INTO instance (name) VALUES ($1) RETURNING id', [`Cluster ${pid}`]);
    await tx.query(`INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, 'owner')`, [instance!.id, user!.id]);
    return { instanceId: instance!.id, userId: user!.id };
  });
  const { accessToken: token } = await appDb.withAuth((tx) => sessions.start(tx, userId, instanceId, {}));
  const setup = async (path: string, body: unknown) => {
    const response = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as any;
  };
  const init = await setup('/api/instance/init', {
    company: { name: 'Cluster AG' },
    address: { street: 'Bahnhofstrasse 1', city: 'Zürich', zip: '8001', country: { id: 1 } },
    extra: { vat: '8.1', currency: 'CHF' },
  });
  await setup('/api/instance/init/accounts', {
    company: { uuid: init.company.uuid },
    accounts: [{ ledgerCode: 1020, name: 'Bank', iban: 'CH9300762011623852957', bic: '', type: 1 }],
    currency: 'CHF',
  });
  await setup('/api/company/insert', { data: { name: 'Kunde GmbH', address: { street: 'Marktgasse 2', zip: '3011', city: 'Bern', country: { id: 1 } } } });
  const imported = await setup('/api/invoice/import', {
    data: [{ invoice: 'C1', company: 'Kunde GmbH', dateInvoice: '2026-01-15', name: 'Beratung', amount: '3', price: '150.00' }],
  });
  const invoiceUuid = imported.invoices[0].uuid as string;
  const accounts = new Map(
    (
      await appDb.withInstance(instanceId, (tx) => tx.query<{ id: number; number: string }>('SELECT id, number FROM ledger_account WHERE instance_id = $1', [instanceId]))
    ).map((r) => [r.number, r.id]),
  );
  const bank = accounts.get('1020');
  const revenue = accounts.get('3200') ?? accounts.get('3400') ?? [...accounts.values()].at(-1);
  if (bank == null || revenue == null) throw new Error('accounts 1020 / revenue missing after onboarding');
  log(`workplace ready (instance ${instanceId}); ${clients} clients for ${durationS} s through haproxy :${HAPROXY_PORT}`);

  // ---------- the run ----------
  const tag = `cluster-${pid}`;
  const succeeded = new Set<string>();
  const unresolved = new Map<string, number>();
  let retries = 0;
  const runStart = performance.now();
  const endAt = runStart + durationS * 1000;
  const killAt = runStart + (durationS * 1000) / 2;
  phaseTimes['before kill'] = { start: runStart, end: endAt };

  async function post(n: number): Promise<void> {
    const key = randomUUID();
    const body = {
      data: {
        dateLedger: '2026-02-10',
        description: `${tag} ${key}`,
        entryAccounts: [
          { account: { id: bank }, amount: `${(n % 900) + 10}.05`, direction: 1 },
          { account: { id: revenue }, amount: `${(n % 900) + 10}.05`, direction: -1 },
        ],
      },
    };
    // The same key again on a connection error, a 5xx or 409 "in progress", until the end + 15 s.
    for (let attempt = 0; ; attempt += 1) {
      const status = await call(base, token, 'post', body, 'POST', '/api/accounting/entry/insert', key);
      if (status === 200) {
        succeeded.add(key);
        return;
      }
      if (status !== 0 && status < 500 && status !== 409) {
        unresolved.set(key, status);
        return;
      }
      if (performance.now() > endAt + 15_000) {
        unresolved.set(key, status);
        return;
      }
      retries += 1;
      await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    }
  }

  let counter = 0;
  async function client(index: number): Promise<void> {
    while (performance.now() < endAt) {
      counter += 1;
      const kind = KINDS[(counter + index) % KINDS.length]!;
      if (kind === 'post') await post(counter);
      else if (kind === 'entry/list') await call(base, token, kind, {}, 'POST', '/api/accounting/entry/list');
      else if (kind === 'invoice/list') await call(base, token, kind, {}, 'POST', '/api/invoice/list-w-amounts');
      else if (kind === 'company/list') await call(base, token, kind, undefined, 'GET', '/api/company/list');
      else if (kind === 'balance') await call(base, token, kind, { date: '2026-12-31' }, 'POST', '/api/accounting/balance/get');
      else await call(base, token, kind, { lang: 'de', uuid: invoiceUuid }, 'POST', '/api/invoice/pdf');
    }
  }

  const chaos = (async () => {
    await new Promise((r) => setTimeout(r, killAt - performance.now()));
    const now = performance.now();
    phaseTimes['before kill']!.end = now;
    phase = 'after kill';
    phaseTimes['after kill'] = { start: now, end: endAt };
    log(`SIGKILL server 2 at ${((now - runStart) / 1000).toFixed(1)} s`);
    servers[1]!.kill('SIGKILL');
    if (values['no-restart']) return;
    await new Promise((r) => setTimeout(r, 10_000));
    if (performance.now() > endAt) return;
    log('restarting server 2');
    const restartedAt = performance.now();
    startServer(1, envs[1]!);
    await waitFor(`http://127.0.0.1:${APP_PORTS[1]}/api/meta/version`, 60_000).catch(() => undefined);
    const up = performance.now();
    log(`server 2 answering again after ${((up - restartedAt) / 1000).toFixed(1)} s`);
    if (up < endAt) {
      phaseTimes['after kill']!.end = up;
      phase = 'after restart';
      phaseTimes['after restart'] = { start: up, end: endAt };
    }
  })();
  await Promise.all([...Array.from({ length: clients }, (_, i) => client(i)), chaos]);
  const runEnd = performance.now();
  for (const times of Object.values(phaseTimes)) times.end = Math.min(times.end, runEnd);

  // ---------- report ----------
  const phases: Record<string, unknown> = {};
  for (const [name, times] of Object.entries(phaseTimes)) {
    const inPhase = samples.filter((s) => s.phase === name);
    const seconds = (times.end - times.start) / 1000;
    const perKind: Record<string, unknown> = {};
    for (const kind of new Set(KINDS)) {
      const ok = inPhase.filter((s) => s.kind === kind && s.status >= 200 && s.status < 300).map((s) => s.ms).sort((a, b) => a - b);
      perKind[kind] = { ok: ok.length, p50: quantile(ok, 0.5), p99: quantile(ok, 0.99) };
    }
    const errors: Record<string, number> = {};
    for (const s of inPhase) if (s.status === 0 || s.status >= 300) errors[s.status === 0 ? 'connection' : String(s.status)] = (errors[String(s.status === 0 ? 'connection' : s.status)] ?? 0) + 1;
    const okCount = inPhase.filter((s) => s.status >= 200 && s.status < 300).length;
    phases[name] = { seconds: Number(seconds.toFixed(1)), requests: inPhase.length, okPerSecond: Number((okCount / seconds).toFixed(1)), perKind, errors };
  }

  // Exactly once: the entries the bench posted, by description, against the keys the clients saw succeed.
  const rows = await appDb.withInstance(instanceId, (tx) =>
    tx.query<{ description: string; n: number }>(
      `SELECT description, count(*)::int AS n FROM journal_entry WHERE instance_id = $1 AND description LIKE $2 GROUP BY description`,
      [instanceId, `${tag} %`],
    ),
  );
  const landed = new Map(rows.map((r) => [r.description.slice(tag.length + 1), r.n]));
  const twice = [...landed].filter(([, n]) => n > 1).map(([k]) => k);
  const missing = [...succeeded].filter((k) => !landed.has(k));
  const unknownLanded = [...landed.keys()].filter((k) => !succeeded.has(k) && !unresolved.has(k));
  const unbalanced = await appDb.withInstance(instanceId, (tx) =>
    tx.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM (
         SELECT l.entry_id FROM journal_line l WHERE l.instance_id = $1
         GROUP BY l.entry_id HAVING sum(l.amount * l.direction) <> 0) x`,
      [instanceId],
    ),
  );
  const checkResponse = await fetch(`${base}/api/accounting/balance/check`, { headers: { authorization: `Bearer ${token}` } });
  const check = checkResponse.ok ? ((await checkResponse.json()) as unknown) : `answered ${checkResponse.status}`;

  const report = {
    date: new Date().toISOString(),
    setup: `2 compiled servers (NODE_ENV=production, login role without SUPERUSER/BYPASSRLS) -> pgbouncer ${spawnSync(bin('pgbouncer'), ['--version']).stdout.toString().split('\n')[0]} (pool_mode=transaction, default_pool_size=20) -> ${(await admin.query<{ version: string }>('SELECT version()')).rows[0]!.version.split(',')[0]}; haproxy roundrobin with httpchk GET /api/meta/version (inter 1s fall 2 rise 2, retries 2, redispatch)`,
    clients,
    durationS,
    workload: 'per client round robin: 3/8 POST entry/insert (new Idempotency-Key, same key again on connection error/5xx/409), entry/list, invoice/list-w-amounts, GET company/list, balance/get, invoice/pdf',
    phases,
    postRetries: retries,
    idempotency: {
      keysSucceeded: succeeded.size,
      keysUnresolved: unresolved.size,
      /** Last status of each unresolved key (0 = connection error; 409 = a claim left "in progress" by the killed server, taken over only after 10 minutes). */
      unresolvedLastStatus: [...unresolved.values()].reduce<Record<string, number>>((acc, s) => ({ ...acc, [String(s)]: (acc[String(s)] ?? 0) + 1 }), {}),
      unresolvedLanded: [...unresolved.keys()].filter((k) => landed.has(k)).length,
      entriesLanded: landed.size,
      landedTwice: twice.length,
      succeededButMissing: missing.length,
      landedWithoutSuccessSeen: unknownLanded.length,
      exactlyOnce: twice.length === 0 && missing.length === 0,
    },
    books: { unbalancedEntries: unbalanced[0]!.entries, balanceCheck: check },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  log(`bench:cluster broke: ${(error as Error).stack ?? String(error)}`);
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
