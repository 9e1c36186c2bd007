/**
 * A ticket type as the catalogue answers it (spec §3 TicketType) to the event page, the ticket selection
 * and the console: declared once here, so the server's answer, a booking's copy and the tests' fixtures
 * cannot drift apart. The client reads it through tRPC's inferred types.
 */
export interface TicketType {
  id: string;
  name: string;
  pricePaise: number;
  personAllowedPerTicket: number;
  description: string;
  isRefundable: boolean;
  totalTickets: number;
  availableTickets: number;
  isLive: boolean;
  benefits: string[];
  maxPerOrder: number;
  /** Sale window (UTC); null means open on that side. Outside it the type cannot be held. */
  saleOpensAt: string | null;
  saleClosesAt: string | null;
  /** Shown and sold only with an access code that unlocks it (issue 40); such a buyer sees it true. */
  isHidden: boolean;
  /** Each ticket gets its own QR, name and check-in (issue 40, ADR 0046); absent: false. */
  perAttendeeTickets?: boolean;
}

/** What a booking keeps of its ticket type as it was when bought (spec §3 Booking.ticketType). */
export type BookedTicketType = Pick<
  TicketType,
  | 'id'
  | 'name'
  | 'pricePaise'
  | 'personAllowedPerTicket'
  | 'description'
  | 'isRefundable'
  | 'totalTickets'
  | 'availableTickets'
  | 'isLive'
>;
