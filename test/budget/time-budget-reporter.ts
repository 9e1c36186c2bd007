import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import {
  BUDGET_EXCEPTIONS,
  BUDGET_EXCEPTIONS_ON_POSTGRES,
  BUDGET_MS_BY_KIND,
  BUDGET_MS_BY_PROJECT,
  kindOfProject,
} from './time-budgets.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Fails the run when a test file keeps its worker busy longer than its kind's budget (time-budgets.ts),
 * and prints the slowest files of each kind, so a slow file is seen the day it lands.
 */
export default class TimeBudgetReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const rows = testModules
      .filter((m) => m.state() !== 'skipped')
      .map((m) => {
        const file = path.relative(ROOT, m.moduleId);
        const kind = kindOfProject(m.project.name);
        const project = m.project.name;
        const budgetMs =
          project === 'integration-postgres'
            ? (BUDGET_EXCEPTIONS_ON_POSTGRES[file]?.budgetMs ?? BUDGET_MS_BY_PROJECT[project]!)
            : (BUDGET_EXCEPTIONS[file]?.budgetMs ?? BUDGET_MS_BY_PROJECT[project] ?? BUDGET_MS_BY_KIND[kind]);
        return { file, kind, budgetMs, ms: busyMs(m) };
      });
    const over = rows.filter((r) => r.ms > r.budgetMs).sort((a, b) => b.ms - a.ms);
    const slowest = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 8);
    const line = (r: (typeof rows)[number]) =>
      `  ${(r.ms / 1000).toFixed(1).padStart(6)} s of ${(r.budgetMs / 1000).toFixed(0)} s  ${r.kind.padEnd(11)} ${r.file}`;
    console.log(
      `\nSlowest test files (time budget per file, test/budget/time-budgets.ts):\n${slowest.map(line).join('\n')}`,
    );
    if (over.length > 0) {
      console.error(
        `\n${over.length} test file(s) over their time budget:\n${over.map(line).join('\n')}\n` +
          'Make the file cheaper (ADR 0031 lists how) or list it in BUDGET_EXCEPTIONS with its reason.',
      );
      process.exitCode = 1;
    }
  }
}

/** The time the file held its worker: setting up, importing, and running its hooks and tests. */
function busyMs(m: TestModule): number {
  const d = m.diagnostic();
  return d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
}
