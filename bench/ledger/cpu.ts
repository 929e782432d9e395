/**
 * CPU time of a measured phase (issue 18 §4): the benchmark process (the in-process paths, and
 * PGlite, which runs in it) from `process.cpuUsage()`, and on PostgreSQL the backends of the bench
 * database from /proc/<pid>/stat (utime + stime). For the API path, the server and the HTTP client
 * run in two processes (api-process.ts) and posting.ts counts them apart. CPU time is what a path costs whatever else the machine does,
 * so unlike throughput it does not flip with the machine's load (a commit-bound path waits on the
 * disk, not the CPU).
 */
import { readFileSync } from 'node:fs';
import type { BenchEnv } from './setup.js';

/** Linux's USER_HZ: /proc times are in 1/100 s on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime of a process in ms, 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    // Fields after the command name, which is in brackets and may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The pids of the client backends serving the bench database (none on PGlite). */
async function databaseBackends(env: BenchEnv): Promise<number[]> {
  if (env.engine !== 'postgres' || !env.direct) return [];
  // Client backends only: an autovacuum worker on the bench database is PostgreSQL's own work, not a path's.
  const { rows } = await env.direct.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'");
  return rows.map((row) => row.pid);
}

export interface CpuTime {
  /** The benchmark process (for the API path: the server's process, see posting.ts); the database itself on PGlite. */
  processMs: number;
  /** PostgreSQL backends of the bench database; 0 on PGlite. */
  databaseMs: number;
  totalMs: number;
}

/** Starts counting; `stop()` gives the CPU time used since. Backends opened meanwhile count from 0. */
export async function cpuTimer(env: BenchEnv): Promise<{ stop: () => Promise<CpuTime> }> {
  const process0 = process.cpuUsage();
  const before = new Map((await databaseBackends(env)).map((pid) => [pid, processCpuMs(pid)]));
  return {
    stop: async () => {
      const { user, system } = process.cpuUsage(process0);
      const pids = new Set([...before.keys(), ...(await databaseBackends(env))]);
      let databaseMs = 0;
      for (const pid of pids) databaseMs += Math.max(0, processCpuMs(pid) - (before.get(pid) ?? 0));
      const processMs = (user + system) / 1000;
      return { processMs, databaseMs, totalMs: processMs + databaseMs };
    },
  };
}
