import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { perOrderMaxMessage, perOrderMaxOf, perOrderMaxProblem } from './per-order-max.ts';
import { MAX_TICKETS_PER_TYPE } from './pricing.ts';

describe('the per-order maximum', () => {
  it("is the organiser's maximum, never above the platform's", () => {
    expect(perOrderMaxOf({ maxPerOrder: 4 })).toBe(4);
    expect(perOrderMaxOf({ maxPerOrder: MAX_TICKETS_PER_TYPE })).toBe(MAX_TICKETS_PER_TYPE);
    expect(perOrderMaxOf({ maxPerOrder: 50 })).toBe(MAX_TICKETS_PER_TYPE);
  });

  it('lets an order take up to the maximum and refuses one more, naming the type', () => {
    const gold = { name: 'Gold', maxPerOrder: 2 };
    expect(perOrderMaxProblem(gold, 2)).toBeNull();
    expect(perOrderMaxProblem(gold, 3)).toBe('You can book at most 2 tickets of Gold');
    expect(perOrderMaxProblem({ name: 'VIP', maxPerOrder: 1 }, 2)).toBe(
      'You can book at most 1 ticket of VIP',
    );
    expect(perOrderMaxProblem({ name: 'Floor', maxPerOrder: 99 }, 11)).toBe(
      'You can book at most 10 tickets of Floor',
    );
  });

  it("words the platform's limit the same way when the type is not known", () => {
    expect(perOrderMaxMessage(MAX_TICKETS_PER_TYPE)).toBe('You can book at most 10 tickets of one type');
    expect(perOrderMaxOf(null)).toBe(MAX_TICKETS_PER_TYPE);
    expect(perOrderMaxProblem(null, MAX_TICKETS_PER_TYPE)).toBeNull();
    expect(perOrderMaxProblem(null, MAX_TICKETS_PER_TYPE + 1)).toBe(
      'You can book at most 10 tickets of one type',
    );
  });

  it('is written once: no server code compares a quantity with the platform maximum itself', () => {
    // Issue 39: the reservation checked `quantity > MAX_TICKETS_PER_TYPE` beside this rule. zod's
    // `.max(MAX_TICKETS_PER_TYPE, …)` at the edge is the input's shape, not a second copy of the rule.
    const root = path.resolve(import.meta.dirname, '..');
    const own = sourceFiles(path.join(root, 'src-server'))
      .filter((file) =>
        /[<>]=?\s*MAX_TICKETS_PER_TYPE\b|MAX_TICKETS_PER_TYPE\s*[<>]/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(root, file));
    expect(own).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [full] : [];
  });
}
