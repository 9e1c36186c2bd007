import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p97_5: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytesPerRequest: number;
  /** Requests answered in the whole measurement. */
  requests: number;
  /** CPU time the server process spent per request (user + system), when its pid is given. */
  serverCpuMicrosPerRequest?: number;
}

/**
 * Runs autocannon against one URL for a fixed duration with keep-alive connections. Latencies are in
 * milliseconds. The load generator runs in this process; the server under test is another process.
 */
export async function measure(
  name: string,
  /** Several URLs (several server processes): autocannon spreads its connections round-robin over them. */
  url: string | string[],
  options: {
    connections?: number;
    durationSeconds?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    body?: string;
    /**
     * The server's pid: its CPU time per request is then reported too. Unlike requests per second it
     * hardly moves when something else shares the machine, so runs on a busy machine stay comparable.
     */
    serverPid?: number;
    /** Several server processes (each its own, e.g. one per port): their CPU time is summed. */
    serverPids?: number[];
    /** Changes each request before it is sent (e.g. a different buyer's session cookie). */
    setupRequest?: (request: autocannon.Request) => autocannon.Request;
  } = {},
): Promise<LoadResult> {
  const pids = options.serverPids ?? (options.serverPid ? [options.serverPid] : []);
  const cpuNow = () => pids.reduce((sum, pid) => sum + processCpuMicros(pid), 0);
  const cpuBefore = cpuNow();
  const result = await autocannon({
    // autocannon takes several targets and spreads its connections over them (its types say one).
    url: url as string,
    connections: options.connections ?? 64,
    duration: options.durationSeconds ?? 10,
    headers: options.headers,
    ...(options.method && { method: options.method }),
    ...(options.body !== undefined && { body: options.body }),
    ...(options.setupRequest && { requests: [{ setupRequest: options.setupRequest }] }),
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerRequest:
      result.requests.total > 0 ? Math.round(result.throughput.total / result.requests.total) : 0,
    requests: result.requests.total,
    ...(pids.length > 0 &&
      result.requests.total > 0 && {
        serverCpuMicrosPerRequest: Math.round((cpuNow() - cpuBefore) / result.requests.total),
      }),
  };
}

/**
 * User + system CPU time so far of a process and its children (a cluster's workers), from /proc
 * (Linux), in microseconds.
 */
export function processCpuMicros(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((sum, each) => sum + ownCpuMicros(each), 0);
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone in between: nothing to add
  }
}

function ownCpuMicros(pid: number): number {
  const { user, system } = ownCpuSplit(pid);
  return user + system;
}

/** Of a process's and its children's CPU time so far, the time in the kernel (system), in microseconds. */
export function processSystemCpuMicros(pid: number): number {
  return [pid, ...childrenOf(pid)].reduce((sum, each) => sum + ownCpuSplit(each).system, 0);
}

function ownCpuSplit(pid: number): { user: number; system: number } {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return { user: 0, system: 0 };
  }
  // Fields after the command name (which may hold spaces) start at the closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime (fields 14 and 15 of stat)
  const micros = (ticks: string | undefined) => (Number(ticks) * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  return { user: micros(fields[11]), system: micros(fields[12]) };
}

/** Linux's USER_HZ, which /proc/<pid>/stat counts in; 100 on every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Prints a human table, then the figures as one JSON line (the last line of every benchmark's output). */
export function report(
  title: string,
  rows: Record<string, string | number>[],
  summary: Record<string, unknown>,
) {
  console.log(`\n${title}`);
  if (rows.length > 0) console.table(rows);
  console.log(JSON.stringify(summary));
}
