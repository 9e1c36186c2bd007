import { describe, expect, it } from 'vitest';
import {
  dateChipParts,
  formatBookingDate,
  formatCardDate,
  formatDateTime,
  formatDateWithTimeRange,
  formatDuration,
  formatLongDate,
  formatSaleWindow,
  formatTime,
  indiaCalendarDay,
  summariseShows,
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

describe('sale windows and several shows, as people read them', () => {
  it("words a ticket type's sale window for the editor's summary line, open sides included", () => {
    const opens = '2026-12-02T00:00:00.000Z';
    const closes = '2026-12-14T06:30:00.000Z';
    expect(formatSaleWindow(opens, closes)).toBe('sale 02 Dec 2026, 5:30 AM – 14 Dec 2026, 12:00 PM');
    expect(formatSaleWindow(null, closes)).toBe('sale until 14 Dec 2026, 12:00 PM');
    expect(formatSaleWindow(opens, null)).toBe('sale from 02 Dec 2026, 5:30 AM');
    expect(formatSaleWindow(null, null)).toBe('no sale window');
  });

  it('summarises shows as the span of India days, their count, and each day with its start times', () => {
    // 12 Dec 18:30, 13 Dec 14:00 and 18:30 in India, given out of order.
    const shows = summariseShows([
      '2026-12-13T13:00:00.000Z',
      '2026-12-12T13:00:00.000Z',
      '2026-12-13T08:30:00.000Z',
    ]);
    expect(shows).toEqual({
      headline: '12–13 Dec 2026 · 3 shows',
      days: [
        { day: '2026-12-12', label: 'Sat, 12 Dec', times: ['6:30 PM'] },
        { day: '2026-12-13', label: 'Sun, 13 Dec', times: ['2:00 PM', '6:30 PM'] },
      ],
    });
    expect(summariseShows(['2026-11-30T13:00:00.000Z', '2026-12-02T13:00:00.000Z']).headline).toBe(
      '30 Nov – 2 Dec 2026 · 2 shows',
    );
    expect(summariseShows(['2026-12-31T13:00:00.000Z', '2027-01-01T13:00:00.000Z']).headline).toBe(
      '31 Dec 2026 – 1 Jan 2027 · 2 shows',
    );
    // 22:00 on 12 Dec in India is 16:30Z the same day; 01:00 on the 13th is 19:30Z on the 12th.
    expect(summariseShows(['2026-12-12T08:30:00.000Z', '2026-12-12T16:30:00.000Z']).headline).toBe(
      'Sat, 12 Dec 2026 · 2 shows',
    );
    expect(summariseShows(['2026-12-12T16:30:00.000Z', '2026-12-12T19:30:00.000Z']).days.length).toBe(2);
  });
});
