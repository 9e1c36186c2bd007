import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { createApp } from '../../src-server/app.ts';
import { noSqliteOnPostgres } from '../../src-server/app-database.ts';
import { composeDeps } from '../../src-server/compose-deps.ts';
import { type Db, openDatabase } from '../../src-server/db/client.ts';
import { openPostgres } from '../../src-server/db/engine/postgres.ts';
import type { Tables } from '../../src-server/db/engine/tables.ts';
import * as sqliteSchema from '../../src-server/db/schema/index.ts';
import * as pgSchema from '../../src-server/db/schema-pg/index.ts';
import type { AppDeps, Clock } from '../../src-server/deps.ts';
import { EnvSchema } from '../../src-server/env.ts';
import { createLogger } from '../../src-server/logger.ts';
import { TEST_CLOCK_START } from './fixture-dates.ts';
import { copyMigratedTemplate } from './migrated-template.ts';
import { freshPostgresDatabase, testPostgresUrl } from './test-postgres.ts';

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

/** The engines the app runs on (ADR 0035): SQLite's file, or a PostgreSQL (DATABASE_URL). */
export type Engine = 'sqlite' | 'postgres';

/**
 * The engine this run of an integration file is for: vitest.config.ts runs the files of ON_BOTH_ENGINES in
 * the `integration` project (SQLite) and again in `integration-postgres`, which sets TEST_ENGINE=postgres.
 * Such a file builds its app with `createTestAppOn(testEngine())` and its data with engine-fixtures.ts.
 */
export function testEngine(): Engine {
  const engine = process.env.TEST_ENGINE ?? 'sqlite';
  if (engine !== 'sqlite' && engine !== 'postgres') {
    throw new Error(`TEST_ENGINE=${engine}: expected sqlite or postgres`);
  }
  return engine;
}

/**
 * The engines a file that proves both within one run (`describe.each`, the engine-*.test.ts files) runs
 * on: SQLite, and PostgreSQL where a test server is configured (`testPostgresUrl`: in CI it must be).
 */
export function enginesFor(testFile: string): Engine[] {
  return testPostgresUrl(testFile) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The tables of `engine`, as `tablesOf(t.deps.db)` gives them (ADR 0045): a file run on both engines
 * takes its tables from here instead of importing SQLite's, so its own queries are the engine's own.
 */
export function tablesFor(engine: Engine): Tables {
  return (engine === 'postgres' ? pgSchema : sqliteSchema) as unknown as Tables;
}

export interface TestApp {
  engine: Engine;
  deps: AppDeps;
  clock: TestClock;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** Calls the real app over its fetch interface (real routing, middleware, cookies as headers). */
  request: (pathname: string, init?: RequestInit) => Promise<Response>;
  /** Removes the app's data: synchronous on SQLite; on PostgreSQL await it (the pool ends, the database is dropped). */
  close: () => void | Promise<void>;
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
    engine: 'sqlite',
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

/**
 * The real app on `engine`, as the composition root opens it (app-database.ts): on SQLite as
 * `createTestApp`; on PostgreSQL a scratch database of the test server (test-postgres.ts, migrated as a
 * server start migrates it) with `deps.sqlite` the stand-in that refuses every use, and a temporary
 * DATA_DIR for what lives there on either engine (the mailbox, uploads). A file that asks for PostgreSQL
 * skips where none is configured: `testPostgresUrl(file)` undefined, as the engine-*.test.ts files do.
 * A `DATABASE_URL` override opens that database instead (migrated as a start migrates it), e.g. one an
 * installation was moved into; `close` then only ends the pool: the database is the caller's to drop.
 */
export async function createTestAppOn(
  engine: Engine,
  overrides: Partial<z.input<typeof EnvSchema>> = {},
  depsOverrides: Partial<AppDeps> = {},
): Promise<TestApp> {
  if (engine === 'sqlite') return createTestApp(overrides, depsOverrides);
  const database = overrides.DATABASE_URL
    ? await existingPostgresDatabase(overrides.DATABASE_URL)
    : await freshPostgresDatabase(postgresServer());
  const dataDir = overrides.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'jalsa-test-pg-'));
  const env = EnvSchema.parse({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    ...overrides,
  });
  const clock = testClock();
  const deps = composeDeps({
    db: database.db as unknown as Db,
    sqlite: noSqliteOnPostgres(),
    env,
    logger: createLogger(env.LOG_LEVEL),
    clock,
    appSecret: 'test-secret-0123456789abcdef0123456789abcdef',
    ...depsOverrides,
  });
  const app = createApp(deps);
  return {
    engine,
    deps,
    clock,
    app,
    dataDir,
    request: async (pathname, init) => app.request(`http://localhost${pathname}`, init),
    close: async () => {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function existingPostgresDatabase(url: string) {
  const db = await openPostgres(url);
  return { db, url, drop: () => db.$client.end() };
}

let serverUrl: string | undefined;
function postgresServer(): string {
  serverUrl ??= testPostgresUrl('createTestAppOn');
  if (!serverUrl) {
    throw new Error(
      "createTestAppOn('postgres'): no test PostgreSQL (see the warning above); skip the file when testPostgresUrl(file) is undefined",
    );
  }
  return serverUrl;
}
