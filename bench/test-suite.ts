import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Issue 34's targets, in seconds of wall time on the 2-core machine. */
const TARGETS: Record<string, number> = { 'npm test': 480, 'npm run test:fast': 120 };

/**
 * `npm run bench -- test-suite [--runs 2] [--only fast|full]`: runs the whole suite and the fast subset
 * `runs` times each, one after another, and prints the wall times, their median and the target. The
 * test runs themselves hold no timed assertion (ADR 0031); this is where their speed is measured.
 */
export async function runTestSuite(options: { runs: number; only: string }) {
  const commands: [string, string[]][] = [];
  if (options.only !== 'fast') commands.push(['npm test', ['test']]);
  if (options.only !== 'full') commands.push(['npm run test:fast', ['run', 'test:fast']]);
  const rows = [];
  for (const [label, args] of commands) {
    const seconds: number[] = [];
    for (let run = 0; run < options.runs; run += 1) {
      const started = process.hrtime.bigint();
      const result = spawnSync('npm', args, { cwd: ROOT, stdio: 'ignore', env: process.env });
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status}) on run ${run + 1}`);
      seconds.push(Math.round(elapsed));
    }
    const sorted = [...seconds].sort((a, b) => a - b);
    const median =
      sorted.length % 2
        ? sorted[(sorted.length - 1) / 2]!
        : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    rows.push({
      command: label,
      runs: seconds.join(', '),
      'median s': median,
      'target s': TARGETS[label],
      met: median <= TARGETS[label]!,
    });
  }
  console.table(rows);
  return rows;
}
