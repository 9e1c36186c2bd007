import { describe, expect, it } from 'vitest';
import { buildCheckoutNotes, buildOrderNotes, buildReceipt } from './order-request.ts';

describe('buildReceipt', () => {
  const now = new Date('2026-11-21T06:30:00.000Z');

  it("is 'ticket_{timestamp}_{eventId}'", () => {
    expect(buildReceipt('evt-1', now)).toBe(`ticket_${now.getTime()}_evt-1`);
  });

  it('is cut to 40 characters when the event id is long', () => {
    const receipt = buildReceipt('a-very-long-event-identifier-that-goes-on', now);
    expect(receipt).toHaveLength(40);
    expect(receipt).toBe(`ticket_${now.getTime()}_a-very-long-event-i`);
  });
});

describe('buildOrderNotes', () => {
  it('maps the §7 fields to strings', () => {
    expect(
      buildOrderNotes({
        eventId: 'evt-1',
        eventName: 'Sunburn',
        slotId: 'slot-1',
        totalTickets: 3,
        userEmail: 'a@b.in',
        userName: 'Asha',
      }),
    ).toEqual({
      event_id: 'evt-1',
      event_name: 'Sunburn',
      slot_id: 'slot-1',
      total_tickets: '3',
      user_email: 'a@b.in',
      user_name: 'Asha',
    });
  });

  it('drops empty and blank values', () => {
    const notes = buildOrderNotes({
      eventId: 'evt-1',
      eventName: '',
      slotId: 'slot-1',
      totalTickets: 1,
      userEmail: 'a@b.in',
      userName: '   ',
    });
    expect(Object.keys(notes).sort()).toEqual(['event_id', 'slot_id', 'total_tickets', 'user_email']);
    for (const value of Object.values(notes)) expect(typeof value).toBe('string');
  });
});

describe('buildCheckoutNotes', () => {
  it('carries the tickets as a JSON string', () => {
    const notes = buildCheckoutNotes('evt-1', 'slot-1', [{ ticketTypeId: 't1', name: 'Gold', quantity: 2 }]);
    expect(notes.event_id).toBe('evt-1');
    expect(JSON.parse(notes.tickets!)).toEqual([{ id: 't1', name: 'Gold', quantity: 2 }]);
  });
});
