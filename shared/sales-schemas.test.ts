import { describe, expect, it } from 'vitest';
import { OrdersFilter, OrdersPageInput, SalesOverTimeInput } from './sales-schemas.ts';

describe('OrdersFilter', () => {
  it('treats empty controls as no filter and trims the search', () => {
    expect(OrdersFilter.parse({ q: '  asha  ', slotId: '', status: '' })).toEqual({
      q: 'asha',
      slotId: undefined,
      status: undefined,
      sort: 'newest',
    });
    expect(OrdersFilter.parse({ q: '   ', status: 'cancelled', sort: 'oldest' })).toEqual({
      q: undefined,
      status: 'cancelled',
      sort: 'oldest',
    });
  });

  it('refuses unknown statuses and sorts, and searches longer than 100 characters', () => {
    expect(OrdersFilter.safeParse({ status: 'refunded' }).success).toBe(false);
    expect(OrdersFilter.safeParse({ sort: 'price' }).success).toBe(false);
    const long = OrdersFilter.safeParse({ q: 'x'.repeat(101) });
    expect(long.success ? null : long.error.issues[0]?.message).toBe('Search for at most 100 characters');
    expect(OrdersFilter.safeParse({ q: 'x'.repeat(100) }).success).toBe(true);
  });
});

describe('OrdersPageInput', () => {
  it('allows only the offered page sizes, 25 by default', () => {
    expect(OrdersPageInput.parse({ eventId: 'e' }).limit).toBe(25);
    for (const limit of [25, 50, 100]) expect(OrdersPageInput.safeParse({ limit }).success).toBe(true);
    for (const limit of [0, 24, 101, 1000, 2.5])
      expect(OrdersPageInput.safeParse({ limit }).success).toBe(false);
  });

  it('takes a cursor only in the shape a page answers', () => {
    expect(OrdersPageInput.safeParse({ after: '2026-11-21T06:30:00.000Z|JB7K2M9Q4XPA' }).success).toBe(true);
    for (const after of [
      'JB7K2M9Q4XPA',
      '2026-11-21|x',
      "x' or 1=1 --",
      `2026-11-21T06:30:00.000Z|${'a'.repeat(101)}`,
    ])
      expect(OrdersPageInput.safeParse({ after }).success, after).toBe(false);
  });
});

describe('SalesOverTimeInput', () => {
  it('groups per day unless told per hour', () => {
    expect(SalesOverTimeInput.parse({})).toEqual({ bucket: 'day' });
    expect(SalesOverTimeInput.safeParse({ bucket: 'minute' }).success).toBe(false);
  });
});
