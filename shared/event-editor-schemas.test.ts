import { describe, expect, it } from 'vitest';
import {
  AddSlotInput,
  EDITOR_MESSAGES,
  EventDetailsFields,
  slotEndsNextDay,
  TicketTypeFields,
} from './event-editor-schemas.ts';

const TICKET = {
  name: 'Gold',
  priceRupees: 199.99,
  totalTickets: 10,
  maxPerOrder: 4,
  personAllowedPerTicket: 1,
  description: '',
  benefits: [],
  isRefundable: false,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('event editor schemas', () => {
  it('accept a ticket type with paise-exact rupees and refuse a third decimal, a negative capacity and a backwards window', () => {
    expect(TicketTypeFields.safeParse(TICKET).success).toBe(true);
    expect(messages(TicketTypeFields.safeParse({ ...TICKET, priceRupees: 1.005 }))).toEqual([
      EDITOR_MESSAGES.priceInvalid,
    ]);
    expect(messages(TicketTypeFields.safeParse({ ...TICKET, totalTickets: -1 }))).toEqual([
      EDITOR_MESSAGES.capacityInvalid,
    ]);
    expect(messages(TicketTypeFields.safeParse({ ...TICKET, maxPerOrder: 11 }))).toEqual([
      EDITOR_MESSAGES.maxPerOrderInvalid,
    ]);
    expect(
      messages(
        TicketTypeFields.safeParse({
          ...TICKET,
          saleOpensAt: '2026-12-01T10:00:00.000Z',
          saleClosesAt: '2026-12-01T09:00:00.000Z',
        }),
      ),
    ).toEqual([EDITOR_MESSAGES.saleWindowOrder]);
  });

  it('take cities from the list only, by their exact name', () => {
    const details = {
      name: 'A',
      category: 'concerts',
      city: 'Mumbai',
      eventLocationText: '',
      googleMapsEmbedLink: '',
      description: '',
      ageRestrictions: null,
      language: '',
      termsAndConditions: [],
      artists: [],
      platformFeeRate: null,
    };
    expect(EventDetailsFields.safeParse(details).success).toBe(true);
    expect(messages(EventDetailsFields.safeParse({ ...details, city: 'Bombay' }))).toEqual([
      EDITOR_MESSAGES.cityInvalid,
    ]);
    expect(
      messages(EventDetailsFields.safeParse({ ...details, googleMapsEmbedLink: 'javascript:alert(1)' })),
    ).toEqual([EDITOR_MESSAGES.mapLinkInvalid]);
  });

  it('refuse a slot that ends when it starts, and take an earlier end as the next day', () => {
    const slot = { eventId: 'e', version: 1, dateId: 'd', startTime: '20:00', endTime: '20:00' };
    expect(messages(AddSlotInput.safeParse(slot))).toEqual([EDITOR_MESSAGES.slotEndEqualsStart]);
    const overnight = { ...slot, endTime: '02:00' };
    expect(AddSlotInput.safeParse(overnight).success).toBe(true);
    expect(slotEndsNextDay(overnight)).toBe(true);
    expect(slotEndsNextDay({ startTime: '19:00', endTime: '21:00' })).toBe(false);
  });
});
