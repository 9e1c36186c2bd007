import { describe, expect, it } from 'vitest';
import { oncePer } from './once-per.ts';

describe('oncePer', () => {
  it('builds once per key, and separately for each key', () => {
    let built = 0;
    const labelOf = oncePer((key: { name: string }) => {
      built += 1;
      return `${key.name}#${built}`;
    });
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect([labelOf(a), labelOf(a), labelOf(b), labelOf(a)]).toEqual(['a#1', 'a#1', 'b#2', 'a#1']);
    expect(built).toBe(2);
  });
});
