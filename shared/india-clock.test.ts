import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as withDateFns from './dates.ts';
import { formatCardDate, formatTime } from './india-clock.ts';

describe('india-clock (the home cards’ date-fns-free formats)', () => {
  it('formats known instants in India time', () => {
    expect(formatCardDate('2026-12-05T14:00:00.000Z')).toBe('Sat, 5 Dec');
    expect(formatTime('2026-12-05T14:00:00.000Z')).toBe('7:30 PM');
    // 18:30 UTC is already the next day in India; midnight and noon read 12.
    expect(formatCardDate('2026-12-31T18:30:00.000Z')).toBe('Fri, 1 Jan');
    expect(formatTime('2026-12-31T18:30:00.000Z')).toBe('12:00 AM');
    expect(formatTime('2026-06-01T06:30:00.000Z')).toBe('12:00 PM');
  });

  it('agrees with the date-fns versions for any instant from 1970 to 2100', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (d) => {
          expect(formatCardDate(d)).toBe(withDateFns.formatCardDate(d));
          expect(formatTime(d)).toBe(withDateFns.formatTime(d));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
