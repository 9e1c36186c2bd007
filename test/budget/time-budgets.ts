/**
 * How long one test file may keep a worker busy (import, hooks and tests), by kind of test, which is the
 * vitest project it runs in; ADR 0031 says
 * what belongs in each kind. The budget reporter fails `npm test` when a file goes over, so the suite
 * stays fast as it grows. The figures leave room for a busy 2-core machine running two workers.
 */
export const BUDGET_MS_BY_KIND = {
  /** Pure functions and components beside the code (unit project). */
  unit: 3_000,
  /** The real app in-process on a copied SQLite file (integration project, test/integration). */
  integration: 10_000,
  /** Real server processes, scripts and signals (process project, test/process). */
  process: 60_000,
  /** Debian's Chromium against a real server (e2e project, test/e2e). */
  e2e: 90_000,
} as const;

export type TestKind = keyof typeof BUDGET_MS_BY_KIND;

/**
 * Projects allowed more than their kind's budget per file. `integration-postgres` runs integration files
 * again on PostgreSQL (vitest.config.ts ON_BOTH_ENGINES): every statement is a round trip to a server
 * process that shares the two cores, where SQLite's is a call. (Each test's database is a reused one
 * emptied in ~15 ms, test-postgres.ts, no dearer than SQLite's file copy.) A file over this budget there
 * still needs its own entry in BUDGET_EXCEPTIONS_ON_POSTGRES.
 */
export const BUDGET_MS_BY_PROJECT: Readonly<Record<string, number>> = {
  'integration-postgres': 15_000,
};

/**
 * Files of `integration-postgres` allowed more than its budget, each with the reason. A test's database is
 * an emptied pooled one instead of a new copy (0.4–0.7 s each, the reason of every entry that was here
 * before), so what is left is work the file must do.
 */
export const BUDGET_EXCEPTIONS_ON_POSTGRES: Readonly<Record<string, { budgetMs: number; reason: string }>> = {
  'test/integration/security-console-access-matrix.test.ts': {
    budgetMs: 25_000,
    reason:
      'every console and admin procedure and page for every role (674 cases, each with its own event): 10.7 s alone on PostgreSQL, 19.5–20.9 s beside the rest of the suite',
  },
  'test/integration/invoices.test.ts': {
    budgetMs: 25_000,
    reason:
      '200 simultaneous confirmations through four pools prove gap-free invoice numbers: each waits for the counter row the one before holds until its commit',
  },
};

/** A project's kind: its name, or the part before a dash ('integration-isolated' is integration). */
export function kindOfProject(project: string): TestKind {
  const kind = project.split('-')[0] as TestKind;
  return kind in BUDGET_MS_BY_KIND ? kind : 'integration';
}

/** Files allowed more than their kind's budget, each with the reason it cannot be cheaper today. */
export const BUDGET_EXCEPTIONS: Readonly<Record<string, { budgetMs: number; reason: string }>> = {
  // Only in CI's leg that runs issue 38's sale at its full size (.ci/run sets PG_FLASH_SALE_BUYERS); `npm test`
  // runs a tenth of it (1,500 buyers for 150 seats) within the process budget.
  ...(process.env.PG_FLASH_SALE_BUYERS && {
    'test/process/postgres-flash-sale.test.ts': {
      budgetMs: 150_000,
      reason:
        '5,000 buyers for 500 seats on three servers, one killed mid-sale: 28 s alone on 2 cores, 65–70 s beside other work',
    },
  }),
  'src-client/layouts.test.tsx': {
    budgetMs: 5_000,
    reason:
      'renders the real router with the buyer, console, admin and gate layouts in happy-dom: importing their routes is half of its 3 s',
  },
  'src-client/storefront.test.tsx': {
    budgetMs: 12_000,
    reason:
      'the storefront’s component tests in happy-dom: copy, validation and focus that e2e no longer walks',
  },
  'test/integration/invoices.test.ts': {
    budgetMs: 25_000,
    reason: '200 simultaneous confirmations on four worker threads prove gap-free invoice numbers',
  },
  'test/integration/pg-move.test.ts': {
    budgetMs: 20_000,
    reason:
      'builds an installation through the real checkout, gate and cancellation, then moves it into a real PostgreSQL (three new databases, their migrations, every table compared)',
  },
  'test/integration/engine-app.test.ts': {
    budgetMs: 20_000,
    reason:
      'the real app on both engines: a purchase, 50 buyers racing through two app instances for the last 5 seats, the waiting room',
  },
  'test/integration/engine-journeys.test.ts': {
    budgetMs: 20_000,
    reason:
      'a buyer’s cancellation and an organiser’s full and part refunds end to end over HTTP, each world built through the app (sign-ups, GST profile, publish, purchases), once per engine',
  },
  'test/integration/engine-journeys-gate.test.ts': {
    budgetMs: 20_000,
    reason:
      'a transfer and the gate online and offline end to end over HTTP (a volunteer invited and accepted by mail), the world built through the app once per engine',
  },
  'test/integration/engine-sales-reports.test.ts': {
    budgetMs: 20_000,
    reason:
      'a month and a half of sales through the real checkout (cancellation, part refund, door sale, comp), every report read on SQLite, then the installation moved to a real PostgreSQL and read again',
  },
  'test/integration/move-then-sell-on-postgres.test.ts': {
    budgetMs: 25_000,
    reason:
      'the previous release’s installation rebuilt from its 34 migrations and rows, upgraded, moved into a real PostgreSQL, then scanned, sold and refunded there over HTTP',
  },
  'test/e2e/organiser-journey.test.ts': {
    budgetMs: 150_000,
    reason:
      'one story whose steps need the ones before (request → publish → sale → refund → gate), then every console page at two sizes through axe',
  },
};
