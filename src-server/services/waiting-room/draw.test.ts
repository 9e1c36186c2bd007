import { describe, expect, it } from 'vitest';
import { shuffle } from './draw';

describe('shuffle', () => {
  it('gives every order of five exactly once over all 120 sequences of random choices', () => {
    // Fisher–Yates asks for a number below 5, then 4, 3, 2: 120 sequences in all. Feeding each one
    // in turn must produce each of the 5! orders once; any bias (a swap with the whole range, an
    // off-by-one) repeats some order and misses another. Exact, so it cannot fail by chance.
    const seen = new Map<string, number>();
    for (let code = 0; code < 120; code++) {
      let rest = code;
      const randomBelow = (n: number) => {
        const pick = rest % n;
        rest = Math.floor(rest / n);
        return pick;
      };
      const order = shuffle([1, 2, 3, 4, 5], randomBelow).join('');
      seen.set(order, (seen.get(order) ?? 0) + 1);
    }
    expect(seen.size).toBe(120);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
  });
});
