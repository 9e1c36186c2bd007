import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  baseURL: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed, for diagnosing a failed test. */
  output: () => string;
  /** Signals the server process alone (its workers, if any, react as they would in production). */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /**
   * Ends the server's whole process group (the primary, its workers and tsx's esbuild helper): SIGTERM,
   * then SIGKILL for anything still there once the primary has gone or after 10 s. For afterAll.
   */
  stopAll: () => Promise<void>;
}

/** Every server this helper started whose process group may still be alive. */
const liveGroups = new Set<number>();
// Last resort if a test run ends without its afterAll: no server process outlives the test process.
process.once('exit', () => {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
});

/**
 * Starts `src-server/index.ts` as a real child process and waits until /healthz answers. The child
 * leads its own process group, so `stopAll` (and the exit hook above) can end everything it started.
 */
export async function startServerProcess(options: {
  dataDir: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const pid = child.pid!;
  liveGroups.add(pid);
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
    signalGroup(pid, 'SIGKILL');
    liveGroups.delete(pid);
    throw err;
  }
  return {
    baseURL,
    port,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    stopAll: async () => {
      if (!liveGroups.has(pid)) return;
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
      });
      signalGroup(pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      signalGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
    },
  };
}

/** Sends `signal` to every process in the group `pid` leads; a group that is gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
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
