import { describe, expect, it } from 'vitest';
import { formatOnwards, formatPrice as formatPlusGstPrice, lowestPricePaise } from './lowest-price.ts';

describe("'₹X Onwards'", () => {
  it('takes the minimum over every ticket of every slot of every date', () => {
    const dates = [
      { slots: [{ tickets: [{ pricePaise: 149900 }, { pricePaise: 99900 }] }] },
      { slots: [{ tickets: [] }, { tickets: [{ pricePaise: 49950 }, { pricePaise: 250000 }] }] },
    ];
    expect(lowestPricePaise(dates)).toBe(49950);
    expect(formatOnwards(lowestPricePaise(dates))).toBe('₹499.50 Onwards');
  });

  it('formats whole rupees with Indian grouping', () => {
    expect(formatOnwards(49900)).toBe('₹499 Onwards');
    expect(formatOnwards(12500000)).toBe('₹1,25,000 Onwards');
  });

  it('is hidden (null) when the event has no ticket types', () => {
    expect(lowestPricePaise([])).toBeNull();
    expect(lowestPricePaise([{ slots: [{ tickets: [] }] }])).toBeNull();
    expect(formatOnwards(null)).toBeNull();
  });
});

describe('prices plus GST (issue 40)', () => {
  it('says "+ GST" where GST is added at checkout, and nothing where prices include it', () => {
    expect(formatPlusGstPrice(75_000, true)).toBe('₹750 + GST');
    expect(formatPlusGstPrice(75_000, false)).toBe('₹750');
    expect(formatOnwards(75_000, true)).toBe('₹750 + GST Onwards');
    expect(formatOnwards(75_000)).toBe('₹750 Onwards');
  });
});
