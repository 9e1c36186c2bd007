import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { ON_BOTH_ENGINES } from './test/setup/engines-of-integration-files.ts';
import SlowKindsFirstSequencer from './test/setup/slow-kinds-first-sequencer.ts';
import { PREACT_FOR_REACT } from './vite.config.ts';

// Node 25+ has a global localStorage of its own, which warns on every touch without --localstorage-file and
// would shadow the DOM test environment's; the tests never want Node's.
const execArgv = ['--no-experimental-webstorage'];

// Vitest's default leaves one core free, which is one worker on a 2-core machine; the tests mostly wait on
// SQLite, child processes and a browser, so one worker per core keeps both busy. TEST_WORKERS overrides it
// (1 runs the files one after another, as before ADR 0031).
const maxWorkers = Number(process.env.TEST_WORKERS ?? Math.max(2, availableParallelism()));

// Packages that import 'react' or 'react-dom', inlined in the unit project so the Preact alias reaches them.
const REACT_LIBRARIES = [
  /@tanstack\/react-/,
  /@trpc\/react-query/,
  /react-hook-form/,
  /@hookform\/resolvers/,
  /@radix-ui\//,
  /use-sync-external-store/,
];

// Integration files that replace a module with vi.mock: they run isolated (see the integration project).
const INTEGRATION_WITH_MODULE_MOCKS = ['test/integration/security-sign-in-limits.test.ts'];

/**
 * Whether the PostgreSQL project can run here: CI (which must fail rather than skip without
 * TEST_DATABASE_URL, as testPostgresUrl does), a TEST_DATABASE_URL, or Debian's server installed so
 * scripts/start-test-postgres.sh can start one. Decided without starting anything: the config is loaded by
 * every run, the unit project's too.
 */
function postgresForTests(): boolean {
  if (process.env.CI === 'true' || process.env.CI === '1' || process.env.TEST_DATABASE_URL) return true;
  const debian = '/usr/lib/postgresql';
  const installed =
    existsSync(debian) && readdirSync(debian).some((major) => existsSync(`${debian}/${major}/bin/initdb`));
  if (!installed) {
    console.warn(
      'integration-postgres skipped: no TEST_DATABASE_URL and no PostgreSQL server installed (apt-get install -y postgresql)',
    );
  }
  return installed;
}

// One `npm test` runs four kinds of test (ADR 0031), each a project with a time budget per file
// (test/budget/time-budgets.ts): unit tests beside the code; integration tests of the real app in-process on
// a real SQLite file; process tests of real server processes, scripts and signals; and end-to-end tests in
// Debian's Chromium against the built app. All four share one pool of workers, so a slow browser file
// runs beside integration files rather than after them. `npm run test:fast` is unit and integration.
export default defineConfig({
  test: {
    maxWorkers,
    reporters: ['default', './test/budget/time-budget-reporter.ts'],
    sequence: { sequencer: SlowKindsFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          execArgv,
          maxWorkers,
          include: [
            'shared/**/*.test.ts',
            'src-server/**/*.test.ts',
            'src-client/**/*.test.{ts,tsx}',
            'test/budget/**/*.test.ts',
            'test/setup/**/*.test.ts',
          ],
          environment: 'node',
          // The client's components render on Preact as in the build (vite.config.ts): the libraries that
          // import React go through Vite's resolver too, so none of them loads React itself.
          server: { deps: { inline: REACT_LIBRARIES } },
          // use-sync-external-store is CommonJS, whose require('react') Node would answer with React;
          // pre-bundled, its require goes through the alias as in the build.
          deps: {
            optimizer: {
              client: { enabled: true, include: ['use-sync-external-store/shim/with-selector'] },
              ssr: { enabled: true, include: ['use-sync-external-store/shim/with-selector'] },
            },
          },
        },
        resolve: {
          alias: [
            {
              find: /^react$/,
              replacement: path.resolve(import.meta.dirname, 'test/setup/react-on-preact.js'),
            },
            ...PREACT_FOR_REACT,
          ],
          dedupe: ['preact'],
        },
      },
      {
        test: {
          name: 'integration',
          execArgv,
          maxWorkers,
          include: ['test/integration/**/*.test.{ts,tsx}'],
          exclude: INTEGRATION_WITH_MODULE_MOCKS,
          setupFiles: ['test/setup/msw.ts'],
          environment: 'node',
          testTimeout: 20_000,
          // Each file builds its own app from its own deps (createTestApp), so the files of a worker share
          // the imported modules instead of importing the server again per file (~1 s each, 64 files).
          isolate: false,
        },
      },
      {
        test: {
          // The files of ON_BOTH_ENGINES again, on a scratch PostgreSQL database each (createTestAppOn).
          name: 'integration-postgres',
          execArgv,
          maxWorkers,
          include: postgresForTests() ? ON_BOTH_ENGINES : [],
          env: { TEST_ENGINE: 'postgres' },
          setupFiles: ['test/setup/msw.ts'],
          environment: 'node',
          testTimeout: 20_000,
          isolate: false,
        },
      },
      {
        test: {
          // vi.mock replaces a module for one file, which needs the file's own module graph.
          name: 'integration-isolated',
          execArgv,
          maxWorkers,
          include: INTEGRATION_WITH_MODULE_MOCKS,
          setupFiles: ['test/setup/msw.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'process',
          execArgv,
          maxWorkers,
          include: ['test/process/**/*.test.ts'],
          setupFiles: ['test/setup/msw.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          execArgv,
          maxWorkers,
          include: ['test/e2e/**/*.test.ts'],
          // One server per worker (e2e-server.ts): a server serves one browser file at a time.
          globalSetup: ['test/setup/e2e-global.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
