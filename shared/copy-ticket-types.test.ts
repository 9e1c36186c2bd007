import { describe, expect, it } from 'vitest';
import { planTicketTypeCopy, shiftToSlot } from './copy-ticket-types.ts';

const slot = (id: string, tickets: { name: string; totalTickets: number }[], cancelled = false) => ({
  id,
  startTime: '2026-12-12T13:00:00.000Z',
  cancelled,
  tickets,
});

describe('copying ticket types to all slots', () => {
  it('adds to each other live slot the types it lacks by name, and counts the slots and seats', () => {
    const gold = { name: 'Gold', totalTickets: 940 };
    const silver = { name: 'Silver', totalTickets: 200 };
    const plan = planTicketTypeCopy(
      [
        slot('evening', [gold, silver]),
        slot('matinee', []),
        slot('late', [{ name: 'Gold', totalTickets: 50 }]),
        slot('cancelled', [], true),
      ],
      'evening',
    );
    expect(plan.additions.map((a) => [a.slot.id, a.types.map((t) => t.name)])).toEqual([
      ['matinee', ['Gold', 'Silver']],
      ['late', ['Silver']],
    ]);
    expect(plan).toMatchObject({ ticketTypes: 3, seats: 940 + 200 + 200 });
    // Run again after the copy: nothing more.
    expect(planTicketTypeCopy([slot('evening', [gold]), slot('matinee', [gold])], 'evening').seats).toBe(0);
  });

  it('keeps an instant at the same distance from the target slot as from the source', () => {
    // Closes 2 h before an 18:30 show (13:00Z); the matinee the next day starts 14:00 (08:30Z).
    expect(
      shiftToSlot('2026-12-13T11:00:00.000Z', '2026-12-13T13:00:00.000Z', '2026-12-14T08:30:00.000Z'),
    ).toBe('2026-12-14T06:30:00.000Z');
    expect(shiftToSlot(null, '2026-12-13T13:00:00.000Z', '2026-12-14T08:30:00.000Z')).toBeNull();
  });
});
