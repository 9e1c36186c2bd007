import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/helpers/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface BenchServer {
  baseURL: string;
  dataDir: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * Starts bench/lib/serve.ts in its own process (one core for the server, the other for the load
 * generator) on a fresh database with the demo catalogue, NODE_ENV=production.
 */
export async function startBenchServer(extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-bench-'));
  const port = await freePort();
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server (read it with bench/profile-top.ts).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  // BENCH_NODE_FLAGS adds Node flags to the server (e.g. `--trace-gc`; its lines go to the server's log).
  const nodeFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  // The server's log goes to a file, as a deployment's stdout goes to its log collector.
  const logFile = path.join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  // --expose-gc: `/__bench/bare-gc` (bench/lib/serve.ts) collects garbage before reading the RSS.
  const child = spawn(
    process.execPath,
    [...profile, '--expose-gc', ...nodeFlags, '--import', 'tsx', 'bench/lib/serve.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        // No Razorpay keys here: production mode with the offline simulator as the gateway.
        ALLOW_PAYMENT_SIMULATOR: 'true',
        // Production no longer adds demo data unasked; the benchmarks measure the demo catalogue.
        SEED_DEMO_DATA: 'true',
        LOG_LEVEL: 'info',
        // The load generator's thousands of buyers all come from 127.0.0.1, where a real rush comes from
        // thousands of addresses: the per-address hold cap (ADR 0023) is off (0) here. And each bench buyer
        // presses Proceed many times a minute, which the re-hold limit exists to refuse: raised, so the
        // benchmarks keep measuring a Proceed that holds (its count still runs on every Proceed).
        HOLD_SEATS_PER_ADDRESS: '0',
        HOLDS_PER_SLOT_PER_HOUR: '1000000',
        ...extraEnv,
      },
      stdio: ['ignore', log, 'inherit', 'ipc'],
      // Its own process group, so stop() also ends any worker processes (WEB_CONCURRENCY) it started.
      detached: true,
    },
  );
  closeSync(log);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}; see ${logFile}`)));
    child.once('message', () => resolve());
  });
  return {
    baseURL: `http://127.0.0.1:${port}`,
    dataDir,
    child,
    stop: async () => {
      child.removeAllListeners('exit');
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the whole group is gone already
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
