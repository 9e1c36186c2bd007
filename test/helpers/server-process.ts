import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { procStat } from './proc-stat.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * tsx's loader by absolute address, so that a server started from an operator's folder (asOperatorIn)
 * finds it; `import.meta.resolve` is not available where vitest's global set-up runs this file.
 */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const EXIT_WITH_TEST_PROCESS = path.resolve(import.meta.dirname, 'exit-with-test-process.cjs');

/** Process groups of the servers this test process started and has not stopped yet. */
const liveGroups = new Set<number>();
// Last resort when a test file ends without its clean-up: nothing it started outlives it.
process.once('exit', () => {
  for (const group of liveGroups) killGroup(group);
});

export interface ServerProcess {
  baseURL: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed, for diagnosing a failed test. */
  output: () => string;
  /**
   * Sends `signal` to the server's main process (as a supervisor would), waits for it to exit, then
   * kills whatever is left of its process group (cluster workers, tsx's esbuild helper).
   */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /** Sends `signal` to the main process only and waits for it to exit; the rest of the group is left. */
  signalMainProcess: (signal: NodeJS.Signals) => Promise<void>;
}

/**
 * The crowd of a fault or load test reaches the server from one loopback address, where a real rush
 * comes from thousands: the per-address hold cap (issue 19, ADR 0023) is turned off (0), so these
 * tests keep measuring what they are about. Every other hoarding rule stays on.
 */
export const ONE_ADDRESS_CROWD_ENV = { HOLD_SEATS_PER_ADDRESS: '0' } as const;

/**
 * Starts `src-server/index.ts` as a real child process in a process group of its own and waits until
 * /healthz answers. The group is killed by `stop()`, when this test process exits, and, should this
 * process die without either, by the server itself (exit-with-test-process.cjs).
 */
export async function startServerProcess(options: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
  /**
   * Started as an operator does (README "Run it for real"): from this folder, whose `.env` holds every
   * setting (PORT included, so `port` must match it), with nothing of the test's environment but PATH.
   */
  asOperatorIn?: string;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  let output = '';
  const settings = options.asOperatorIn
    ? { PATH: process.env.PATH ?? '' }
    : {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: options.dataDir,
        LOG_LEVEL: 'warn',
      };
  const entry = options.asOperatorIn ? path.join(ROOT, 'src-server/index.ts') : 'src-server/index.ts';
  const child = spawn(process.execPath, ['--import', TSX_LOADER, entry], {
    cwd: options.asOperatorIn ?? ROOT,
    env: {
      ...settings,
      ...options.env,
      NODE_OPTIONS:
        `${options.env?.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? ''} --require ${EXIT_WITH_TEST_PROCESS}`.trim(),
      JALSA_TEST_PROCESS_PID: String(process.pid),
      JALSA_TEST_PROCESS_STARTED: ownStartTime(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const group = child.pid!;
  liveGroups.add(group);
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, child, () => output);
  } catch (err) {
    // Nobody else holds the child yet: end it here, or it outlives the test run.
    killGroup(group);
    liveGroups.delete(group);
    throw err;
  }
  const signalMainProcess = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    baseURL,
    port,
    child,
    output: () => output,
    signalMainProcess,
    stop: async (signal = 'SIGTERM') => {
      await signalMainProcess(signal);
      killGroup(group);
      liveGroups.delete(group);
    },
  };
}

/** This process's start time from /proc (what exit-with-test-process.cjs compares), or '' without /proc. */
function ownStartTime(): string {
  return procStat('self')?.startTime ?? '';
}

function killGroup(group: number) {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      const res = await fetch(`${baseURL}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy in 30 s:\n${output()}`);
}
