import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import TimeBudgetReporter from './time-budget-reporter.ts';
import { BUDGET_EXCEPTIONS, BUDGET_MS_BY_KIND, kindOfProject } from './time-budgets.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A finished test file as the reporter sees it: `ms` spent running its tests. */
function finished(file: string, project: string, ms: number): TestModule {
  const diagnostic = {
    environmentSetupDuration: 0,
    prepareDuration: 0,
    setupDuration: 0,
    collectDuration: 0,
    duration: ms,
  };
  return {
    moduleId: path.join(ROOT, file),
    project: { name: project },
    state: () => 'passed',
    diagnostic: () => diagnostic,
  } as unknown as TestModule;
}

describe('the per-file time budget', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  });
  const report = (modules: TestModule[]) => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    process.exitCode = undefined;
    new TimeBudgetReporter().onTestRunEnd(modules);
    return { exitCode: process.exitCode, printed: errors.mock.calls.join('\n') };
  };

  it('fails the run and names a file over its kind’s budget', () => {
    const { exitCode, printed } = report([
      finished('test/integration/quick.test.ts', 'integration', 200),
      finished('test/integration/slow.test.ts', 'integration', BUDGET_MS_BY_KIND.integration + 1),
    ]);
    expect(exitCode).toBe(1);
    expect(printed).toContain('test/integration/slow.test.ts');
    expect(printed).not.toContain('quick.test.ts');
  });

  it('lets files within budget, and listed exceptions within theirs, pass', () => {
    const [file, exception] = Object.entries(BUDGET_EXCEPTIONS)[0]!;
    const { exitCode } = report([
      finished('test/e2e/journey.test.ts', 'e2e', BUDGET_MS_BY_KIND.e2e - 1),
      finished(file, 'integration', exception.budgetMs - 1),
    ]);
    expect(exitCode).toBeUndefined();
  });

  it('counts an isolated integration project as integration', () => {
    expect(kindOfProject('integration-isolated')).toBe('integration');
    expect(kindOfProject('process')).toBe('process');
  });
});
