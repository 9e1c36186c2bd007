import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { kindOfProject } from '../budget/time-budgets.ts';

/** Browser and process files take the longest (time-budgets.ts), so they start first. */
const KIND_ORDER = ['e2e', 'process', 'integration', 'unit'];

/**
 * Vitest's own order (longest first by the last run's times, else largest first) within each kind, but
 * the kinds in KIND_ORDER rather than by name: a 40-second process file that starts last keeps one worker
 * busy while the other has nothing left to run.
 */
export default class SlowKindsFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

function rank(spec: TestSpecification): number {
  const index = KIND_ORDER.indexOf(kindOfProject(spec.project.name));
  return index === -1 ? KIND_ORDER.length : index;
}
