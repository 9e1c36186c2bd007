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
  process: 45_000,
  /** Debian's Chromium against a real server (e2e project, test/e2e). */
  e2e: 60_000,
} as const;

export type TestKind = keyof typeof BUDGET_MS_BY_KIND;

/** Files allowed more than their kind's budget, each with the reason it cannot be cheaper today. */
export const BUDGET_EXCEPTIONS: Readonly<Record<string, { budgetMs: number; reason: string }>> = {};
