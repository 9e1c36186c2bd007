import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { E2eServer } from '../helpers/e2e-server.ts';
import { ONE_ADDRESS_CROWD_ENV, startServerProcess } from '../helpers/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker; a test file reaches its worker's through e2eServer(). */
    e2eServers: E2eServer[];
    /** The built client, for tests that start a server of their own (e.g. on a large catalogue). */
    e2eClientDir: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the client once per run and starts, for each worker that may run e2e files, the real server on a
 * free port with its own data folder, demo data and the offline payment simulator. Each run builds into its own folder, so test runs
 * started side by side never overwrite each other's files.
 */
export default async function setup(project: TestProject) {
  const clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-'));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', clientDir, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: 'inherit',
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });

  // Every browser of the run reaches its server from 127.0.0.1 (ONE_ADDRESS_CROWD_ENV's reason).
  const started = await Promise.all(
    Array.from({ length: Math.max(1, project.config.maxWorkers) }, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-e2e-'));
      const server = await startServerProcess({
        dataDir,
        env: { CLIENT_DIR: clientDir, ...ONE_ADDRESS_CROWD_ENV },
      });
      return { server, dataDir };
    }),
  );
  project.provide(
    'e2eServers',
    started.map(({ server, dataDir }) => ({ baseURL: server.baseURL, dataDir })),
  );
  project.provide('e2eClientDir', clientDir);

  return async () => {
    for (const { server, dataDir } of started) {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    rmSync(clientDir, { recursive: true, force: true });
  };
}
