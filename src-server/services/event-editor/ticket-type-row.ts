import type { TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import { rupeesToPaise } from '../../../shared/money.ts';

/** The ticket_types columns a form's fields set (price typed in rupees, stored in paise). */
export function ticketTypeColumns(ticket: TicketTypeFields) {
  return {
    name: ticket.name,
    pricePaise: rupeesToPaise(ticket.priceRupees),
    maxPerOrder: ticket.maxPerOrder,
    personAllowedPerTicket: ticket.personAllowedPerTicket,
    description: ticket.description,
    benefits: ticket.benefits,
    isRefundable: ticket.isRefundable,
    isLive: ticket.onSale,
    ...(ticket.isHidden === undefined ? {} : { isHidden: ticket.isHidden }),
    ...(ticket.perAttendeeTickets === undefined ? {} : { perAttendeeTickets: ticket.perAttendeeTickets }),
    saleOpensAt: ticket.saleOpensAt && new Date(ticket.saleOpensAt).toISOString(),
    saleClosesAt: ticket.saleClosesAt && new Date(ticket.saleClosesAt).toISOString(),
  };
}
