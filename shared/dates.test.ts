import { describe, expect, it } from 'vitest';
import {
  dateChipParts,
  formatBookingDate,
  formatCardDate,
  formatDateTime,
  formatDateWithTimeRange,
  formatDuration,
  formatLongDate,
  formatTime,
  indiaCalendarDay,
} from './dates.ts';

// 2026-12-05T14:00:00Z is 7:30 PM on Saturday 5 December 2026 in India (UTC+5:30).
const START = '2026-12-05T14:00:00.000Z';
const END = '2026-12-05T16:30:00.000Z';

describe('dates in India time', () => {
  it('formats with the spec patterns regardless of the machine zone', () => {
    expect(formatLongDate(START)).toBe('05 Dec 2026');
    expect(formatTime(START)).toBe('7:30 PM');
    expect(formatDateTime(START)).toBe('05 Dec 2026, 7:30 PM');
    expect(formatCardDate(START)).toBe('Sat, 5 Dec');
    expect(formatDateWithTimeRange(START, END)).toBe('05 Dec 2026 | 7:30 PM - 10:00 PM');
    expect(formatBookingDate(START)).toBe('5 December 2026');
    expect(dateChipParts(START)).toEqual({ day: '5', weekday: 'Sat', month: 'DEC' });
  });

  it('puts a late-evening UTC instant on the next India calendar day', () => {
    expect(indiaCalendarDay('2026-12-05T20:00:00.000Z')).toBe('2026-12-06');
  });

  it('words durations with singular and plural units', () => {
    expect(formatDuration(START, END)).toBe('2 hours 30 minutes');
    expect(formatDuration(START, '2026-12-05T15:00:00.000Z')).toBe('1 hour');
    expect(formatDuration(START, '2026-12-05T15:01:00.000Z')).toBe('1 hour 1 minute');
    expect(formatDuration(START, '2026-12-05T14:45:00.000Z')).toBe('45 minutes');
    expect(formatDuration(START, null)).toBe('Duration not available');
    expect(formatDuration(END, START)).toBe('Duration not available');
  });
});
