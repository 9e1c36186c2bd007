import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { allowLocalServers } from '../mocks/server.ts';
import { FAULT_APP_SECRET } from './fault-process.ts';
import { ONE_ADDRESS_CROWD_ENV, type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * One server of a fleet: the real `src-server/index.ts` on the fleet's PostgreSQL, with its own DATA_DIR
 * (removed when it stops). `stop` is a clean shutdown (SIGTERM: it gives its job leads up); `kill` is
 * kill -9 (its leads go only when PostgreSQL notices the connection gone).
 */
export interface FleetServer extends ServerProcess {
  kill: () => Promise<void>;
}

export interface Fleet {
  servers: FleetServer[];
  /** Stops every server still running (SIGTERM), for afterAll. */
  stopAll: () => Promise<void>;
}

/**
 * `n` real server processes on one PostgreSQL database (DATABASE_URL), as an installation of several
 * servers runs (ADR 0035): one APP_SECRET (the fault tests', so a test can sign simulator webhooks too),
 * the offline simulator, every background job every 200 ms, the log at info (job leadership and what
 * jobs did are said there), the per-address hold cap off (the test's crowd comes from one address).
 * `env` adds or overrides settings. Started at once: PostgreSQL's migrator lock lets one apply each
 * migration while the others wait.
 */
export async function startFleet(
  n: number,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Fleet> {
  allowLocalServers();
  const folders: string[] = [];
  const started = await Promise.allSettled(
    Array.from({ length: n }, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-pg-fleet-'));
      folders.push(dataDir);
      const server = await startServerProcess({
        dataDir,
        env: {
          DATABASE_URL: databaseUrl,
          DATABASE_POOL_SIZE: '4',
          APP_SECRET: FAULT_APP_SECRET,
          SEED_DEMO_DATA: 'false',
          JOB_INTERVAL_MS: '200',
          LOG_LEVEL: 'info',
          ...ONE_ADDRESS_CROWD_ENV,
          ...env,
        },
      });
      const remove = () => rmSync(dataDir, { recursive: true, force: true });
      const fleetServer: FleetServer = {
        ...server,
        stop: async (signal) => {
          await server.stop(signal);
          remove();
        },
        kill: async () => {
          await server.stop('SIGKILL');
          remove();
        },
      };
      return fleetServer;
    }),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  return { servers, stopAll };
}
