import { describe, expect, it } from 'vitest';
import { formatOnwards, lowestPricePaise } from './lowest-price.ts';

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
