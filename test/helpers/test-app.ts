import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { createApp } from '../../src-server/app.ts';
import { composeDeps } from '../../src-server/compose-deps.ts';
import { openDatabase } from '../../src-server/db/client.ts';
import type { AppDeps, Clock } from '../../src-server/deps.ts';
import { EnvSchema } from '../../src-server/env.ts';
import { createLogger } from '../../src-server/logger.ts';
import { TEST_CLOCK_START } from './fixture-dates.ts';
import { copyMigratedTemplate } from './migrated-template.ts';

/** A clock tests can move: `clock.advance(ms)`. */
export interface TestClock extends Clock {
  set: (date: Date) => void;
  advance: (ms: number) => void;
}

export function testClock(start = TEST_CLOCK_START): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    // Time passes at once: a wait (the mail sender's spacing) costs the test nothing.
    sleep: async (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface TestApp {
  deps: AppDeps;
  clock: TestClock;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** Calls the real app over its fetch interface (real routing, middleware, cookies as headers). */
  request: (pathname: string, init?: RequestInit) => Promise<Response>;
  close: () => void;
}

/**
 * The real app on a fresh, migrated SQLite file (a copy of the migrated template) in a temporary folder. Each test file (or test) gets
 * its own, so tests never share state. A `DATA_DIR` override opens (and migrates) an existing folder's
 * database instead, e.g. one an older release made; `close` removes it all the same.
 */
export function createTestApp(
  overrides: Partial<z.input<typeof EnvSchema>> = {},
  depsOverrides: Partial<AppDeps> = {},
): TestApp {
  const dataDir = overrides.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'jalsa-test-'));
  if (!overrides.DATA_DIR) copyMigratedTemplate(path.join(dataDir, 'jalsa.db'));
  const env = EnvSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...overrides });
  const database = openDatabase(path.join(dataDir, 'jalsa.db'));
  const clock = testClock();
  const deps = composeDeps({
    db: database.db,
    sqlite: database.sqlite,
    env,
    logger: createLogger(env.LOG_LEVEL),
    clock,
    appSecret: 'test-secret-0123456789abcdef0123456789abcdef',
    ...depsOverrides,
  });
  const app = createApp(deps);
  return {
    deps,
    clock,
    app,
    dataDir,
    request: async (pathname, init) => app.request(`http://localhost${pathname}`, init),
    close: () => {
      database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
