import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ONE_ADDRESS_CROWD_ENV, startServerProcess } from '../helpers/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    e2eDataDir: string;
    /** The built client, for tests that start a server of their own (e.g. on a large catalogue). */
    e2eClientDir: string;
  }
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the client once per run and starts the real server on a free port with its own data folder,
 * demo data and the offline payment simulator. Each run builds into its own folder, so test runs
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

  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-e2e-'));
  // Every browser of the run reaches the one server from 127.0.0.1 (ONE_ADDRESS_CROWD_ENV's reason).
  const server = await startServerProcess({
    dataDir,
    env: { CLIENT_DIR: clientDir, ...ONE_ADDRESS_CROWD_ENV },
  });
  project.provide('baseURL', server.baseURL);
  project.provide('e2eDataDir', dataDir);
  project.provide('e2eClientDir', clientDir);

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(clientDir, { recursive: true, force: true });
  };
}
