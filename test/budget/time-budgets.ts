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
 * again on PostgreSQL (vitest.config.ts ON_BOTH_ENGINES): each test's database is a copy of a migrated
 * template on a server (~0.3 s, test-postgres.ts) where SQLite's is a file copy, and every statement is a
 * round trip. A file over this budget there still needs its own entry in BUDGET_EXCEPTIONS_ON_POSTGRES.
 */
export const BUDGET_MS_BY_PROJECT: Readonly<Record<string, number>> = {
  'integration-postgres': 20_000,
};

/** Files of `integration-postgres` allowed more than its budget, each with the reason. */
export const BUDGET_EXCEPTIONS_ON_POSTGRES: Readonly<Record<string, { budgetMs: number; reason: string }>> = {
  'test/integration/auth.test.ts': {
    budgetMs: 45_000,
    reason: '35 cases of sign-up, sign-in, verification and sessions, each on its own scratch database',
  },
  'test/integration/security-access-matrix.test.ts': {
    budgetMs: 30_000,
    reason: 'every buyer-side procedure × every caller, each case on its own scratch database',
  },
  'test/integration/event-team.test.ts': {
    budgetMs: 30_000,
    reason:
      'invitations sent, accepted, cancelled and expired through the console, each case on its own database',
  },
  'test/integration/gst-exemption-and-rates.test.ts': {
    budgetMs: 30_000,
    reason:
      'seven purchases under different GST rules, each on its own database, most rendering the invoice PDF',
  },
  'test/integration/orders-csv.test.ts': {
    budgetMs: 30_000,
    reason:
      'seeds 5,000 orders to prove the CSV streams in pages (4.5 s of inserts on PostgreSQL, 0.8 s on SQLite)',
  },
  'test/integration/sales-dashboard.test.ts': {
    budgetMs: 30_000,
    reason: 'nine cases, each on its own copy of a seeded database of sales (a template copy per case)',
  },
};

/** A project's kind: its name, or the part before a dash ('integration-isolated' is integration). */
export function kindOfProject(project: string): TestKind {
  const kind = project.split('-')[0] as TestKind;
  return kind in BUDGET_MS_BY_KIND ? kind : 'integration';
}

/** Files allowed more than their kind's budget, each with the reason it cannot be cheaper today. */
export const BUDGET_EXCEPTIONS: Readonly<Record<string, { budgetMs: number; reason: string }>> = {
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
