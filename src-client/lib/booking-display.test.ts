import { describe, expect, it } from 'vitest';
import { splitByEventDate } from './booking-display.ts';

const booking = (id: string, start: string, end = '') => ({
  id,
  ticketDate: start,
  ticketSlot: start,
  ticketSlotEnd: end,
});

describe('splitByEventDate', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('puts shows not yet ended under Upcoming, soonest first, and the rest under Past, latest first', () => {
    const { upcoming, past } = splitByEventDate(
      [
        booking('later', '2026-09-01T14:00:00Z'),
        booking('long-ago', '2025-01-01T14:00:00Z'),
        booking('soon', '2026-06-20T14:00:00Z'),
        booking('last-week', '2026-06-08T14:00:00Z', '2026-06-08T17:00:00Z'),
        // Started an hour ago, ends tonight: still upcoming (the buyer needs the ticket at the gate).
        booking('on-now', '2026-06-15T11:00:00Z', '2026-06-15T18:00:00Z'),
      ],
      now,
    );
    expect(upcoming.map((b) => b.id)).toEqual(['on-now', 'soon', 'later']);
    expect(past.map((b) => b.id)).toEqual(['last-week', 'long-ago']);
  });

  it('keeps a booking without readable times under Upcoming', () => {
    const { upcoming, past } = splitByEventDate([booking('unknown', '')], now);
    expect(upcoming.map((b) => b.id)).toEqual(['unknown']);
    expect(past).toEqual([]);
  });
});
