import { describe, expect, it } from 'vitest';
import { firstOnSale, ticketDays } from './ticket-days.ts';

type Type = { id: string; onSale: boolean };
const slot = (id: string, startTime: string, types: Type[] = [{ id: `${id}-t`, onSale: true }]) => ({
  id,
  startTime,
  ticketTypes: types,
});

describe('ticketDays', () => {
  it('puts two dates on one Indian calendar day under one chip, slots in time order', () => {
    const days = ticketDays([
      {
        id: 'd-evening',
        dateOfEvent: '2026-12-05T13:30:00.000Z',
        slots: [slot('s-7pm', '2026-12-05T13:30:00.000Z')],
      },
      {
        id: 'd-next',
        dateOfEvent: '2026-12-06T13:30:00.000Z',
        slots: [slot('s-next', '2026-12-06T13:30:00.000Z')],
      },
      {
        id: 'd-matinee',
        dateOfEvent: '2026-12-05T08:30:00.000Z',
        slots: [slot('s-2pm', '2026-12-05T08:30:00.000Z')],
      },
    ]);
    expect(days.map((d) => d.key)).toEqual(['2026-12-05', '2026-12-06']);
    expect(days[0]!.slots.map((s) => [s.dateId, s.slot.id])).toEqual([
      ['d-matinee', 's-2pm'],
      ['d-evening', 's-7pm'],
    ]);
  });

  it('counts the day in India, not in UTC (an early-morning IST show is the previous UTC day)', () => {
    const days = ticketDays([
      { id: 'a', dateOfEvent: '2026-12-04T20:00:00.000Z', slots: [slot('a1', '2026-12-04T20:00:00.000Z')] },
      { id: 'b', dateOfEvent: '2026-12-05T10:00:00.000Z', slots: [slot('b1', '2026-12-05T10:00:00.000Z')] },
    ]);
    expect(days).toHaveLength(1);
    expect(days[0]!.key).toBe('2026-12-05');
  });
});

describe('firstOnSale', () => {
  const days = ticketDays([
    {
      id: 'd1',
      dateOfEvent: '2026-12-05T13:30:00.000Z',
      slots: [slot('s1', '2026-12-05T13:30:00.000Z', [{ id: 'sold', onSale: false }])],
    },
    {
      id: 'd2',
      dateOfEvent: '2026-12-06T08:30:00.000Z',
      slots: [
        slot('s2', '2026-12-06T08:30:00.000Z', [{ id: 'sold2', onSale: false }]),
        slot('s3', '2026-12-06T13:30:00.000Z', [{ id: 'open', onSale: true }]),
      ],
    },
  ]);

  it('starts on the first day and slot with a ticket on sale', () => {
    expect(firstOnSale(days, (t: Type) => t.onSale)).toEqual({ dayIndex: 1, slotIndex: 1 });
  });

  it('starts on the first day when nothing is on sale', () => {
    expect(firstOnSale(days, () => false)).toEqual({ dayIndex: 0, slotIndex: 0 });
  });
});
