import { defineConfig } from 'vitest/config';

// Node 25+ has a global localStorage of its own, which warns on every touch without --localstorage-file and
// would shadow the DOM test environment's; the tests never want Node's.
const execArgv = ['--no-experimental-webstorage'];

// One `npm test` runs three projects: pure unit tests beside the code, integration tests on a real
// SQLite database and real HTTP, and end-to-end tests in Debian's Chromium against the built app.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          execArgv,
          include: ['shared/**/*.test.ts', 'src-server/**/*.test.ts', 'src-client/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          execArgv,
          include: ['test/integration/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup/msw.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          execArgv,
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/setup/e2e-global.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One browser at a time: the machine has two cores and the server needs one.
          fileParallelism: false,
        },
      },
    ],
  },
});
