import { describe, expect, it } from 'vitest';
import { formatPaise, formatPaiseExact, rupeesToPaise } from './money.ts';

describe('money', () => {
  it('formats paise as rupees with Indian digit grouping', () => {
    expect(formatPaise(12_345_050)).toBe('₹1,23,450.50');
    expect(formatPaise(49_900)).toBe('₹499');
    expect(formatPaiseExact(19_999)).toBe('₹199.99');
    expect(formatPaiseExact(100_000)).toBe('₹1,000.00');
  });

  it('converts rupees to paise without float drift', () => {
    expect(rupeesToPaise(199.99)).toBe(19_999);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
  });
});
