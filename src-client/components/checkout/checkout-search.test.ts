import { describe, expect, it } from 'vitest';
import { parseCheckoutSearch } from './checkout-search.ts';

describe('parseCheckoutSearch (the checkout route’s zod-free search parser)', () => {
  it('keeps well-formed fields', () => {
    const search = {
      eventId: 'e1',
      selectedDate: 'd1',
      selectedSlot: 's1',
      selectedTickets: [{ ticketTypeId: 't1', quantity: 2 }],
      totalPrice: 199.5,
      totalTickets: 2,
      eventName: 'Night',
      eventLocation: 'Arena',
    };
    expect(parseCheckoutSearch(search)).toEqual(search);
  });

  it('drops each field of the wrong shape and leaves no undefined keys', () => {
    const parsed = parseCheckoutSearch({ eventId: 42, selectedDate: 'd1', totalPrice: 'x' });
    expect(parsed).toEqual({ selectedDate: 'd1' });
    expect(Object.keys(parsed)).toEqual(['selectedDate']);
  });

  it('drops the whole ticket list when any line is invalid', () => {
    for (const bad of [
      [{ ticketTypeId: 't1', quantity: 0 }],
      [{ ticketTypeId: 't1', quantity: 11 }],
      [{ ticketTypeId: 't1', quantity: 1.5 }],
      [{ ticketTypeId: 1, quantity: 1 }],
      [{ ticketTypeId: 't1', quantity: 1 }, null],
      'not-a-list',
    ]) {
      expect(parseCheckoutSearch({ selectedTickets: bad }).selectedTickets).toBeUndefined();
    }
    expect(
      parseCheckoutSearch({ selectedTickets: [{ ticketTypeId: 't1', quantity: 10, extra: true }] })
        .selectedTickets,
    ).toEqual([{ ticketTypeId: 't1', quantity: 10 }]);
  });
});
