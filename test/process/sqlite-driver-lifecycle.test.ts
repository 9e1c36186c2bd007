import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

/**
 * Issue 24: better-sqlite3 12 aborted whole processes on Node 24.19+ (`Assertion failed: (env) !=
 * nullptr` in RemoveEnvironmentCleanupHook) when a garbage collection or a worker thread's teardown
 * finalised a statement. The driver we ship must survive both on the Node this suite runs on; `npm test`
 * runs on every supported line in CI (.ci/run), so this runs on each of them.
 */
it('survives statements finalised by collections and by worker-thread teardown, in WAL mode', () => {
  const script = path.resolve(import.meta.dirname, '../fixtures/sqlite-collection-stress.mjs');
  const run = spawnSync(process.execPath, ['--expose-gc', script], { encoding: 'utf8', timeout: 60_000 });
  expect({ signal: run.signal, status: run.status, stderr: run.stderr }).toEqual({
    signal: null,
    status: 0,
    stderr: '',
  });
  expect(run.stdout).toMatch(/^ok 10000 rows$/m);
});
