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
  });
});
