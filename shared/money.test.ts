import { describe, expect, it, vi } from 'vitest';
import { formatCount, formatPaise, formatPaiseExact, rupeesToPaise } from './money.ts';

/** What money.ts formatted with until issue 39, and what it must still print. */
const intlRupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const intlExact = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
});

describe('money', () => {
  it('formats paise as rupees with Indian digit grouping', () => {
    expect(formatPaise(12_345_050)).toBe('₹1,23,450.50');
    expect(formatPaise(49_900)).toBe('₹499');
    expect(formatPaiseExact(19_999)).toBe('₹199.99');
    expect(formatPaiseExact(100_000)).toBe('₹1,000.00');
  });

  it('prints what Intl en-IN currency formatting prints, for every size and sign', () => {
    const samples = [0, 1, 5, 10, 99, 100, 101, 999, 1_000, 9_999, 10_000, 49_900, 99_999, 100_000];
    // Every power of ten up to ₹10^13, and its neighbours, so each grouping boundary is crossed.
    for (let p = 10; p <= 1e15; p *= 10) samples.push(p - 1, p, p + 1, p + 50, 7 * p + 23);
    for (let i = 0; i < 2_000; i += 1) samples.push(Math.floor(Math.random() * 10 ** (1 + (i % 14))));
    const all = [...samples, ...samples.filter((n) => n > 0).map((n) => -n)];
    for (const paise of all) {
      const intl = paise % 100 === 0 ? intlRupees.format(paise / 100) : intlExact.format(paise / 100);
      expect(formatPaise(paise), String(paise)).toBe(intl);
      expect(formatPaiseExact(paise), String(paise)).toBe(intlExact.format(paise / 100));
    }
  });

  it('prints a count as toLocaleString en-IN does, without Intl (issue 39)', () => {
    const counts = [0, 1, 12, 999, 1_000, 12_345, 1_23_456, 99_99_999, 1_00_00_000, 9_007_199_254_740_991];
    for (let i = 0; i < 1_000; i += 1) counts.push(Math.floor(Math.random() * 10 ** (1 + (i % 15))));
    const spy = vi.spyOn(Number.prototype, 'toLocaleString');
    const ours = [...counts, ...counts.filter((n) => n > 0).map((n) => -n)].map((n) => formatCount(n));
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(ours).toEqual(
      [...counts, ...counts.filter((n) => n > 0).map((n) => -n)].map((n) => n.toLocaleString('en-IN')),
    );
  });

  it('rounds a fraction of a paisa half away from zero, as Intl did', () => {
    expect(formatPaise(12.5)).toBe('₹0.13');
    expect(formatPaise(12.4)).toBe('₹0.12');
    expect(formatPaise(-12.5)).toBe('-₹0.13');
    expect(formatPaiseExact(99.6)).toBe('₹1.00');
  });

  it('builds no Intl number formatter, neither when loaded nor when formatting (issue 39)', async () => {
    // On a phone the first en-IN currency formatter costs 50–80 ms in the start-up task.
    const spy = vi.spyOn(Intl, 'NumberFormat');
    try {
      vi.resetModules();
      const fresh = await import('./money.ts');
      fresh.formatPaise(12_345_050);
      fresh.formatPaiseExact(49_900);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('converts rupees to paise without float drift', () => {
    expect(rupeesToPaise(199.99)).toBe(19_999);
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
  });
});
