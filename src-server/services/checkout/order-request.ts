/** Razorpay keeps at most this many characters of a receipt (spec §9: 40). */
export const RECEIPT_MAX_LENGTH = 40;
/** Razorpay refuses note values longer than this. */
const NOTE_VALUE_MAX_LENGTH = 256;

/** 'ticket_{timestamp}_{eventId}' cut to 40 characters (spec §7). */
export function buildReceipt(eventId: string, now: Date): string {
  return `ticket_${now.getTime()}_${eventId}`.slice(0, RECEIPT_MAX_LENGTH);
}

export interface OrderNoteFields {
  eventId: string;
  eventName: string;
  slotId: string;
  totalTickets: number;
  userEmail: string;
  userName: string;
}

/** The order's notes (spec §7): string values only, empty values dropped. */
export function buildOrderNotes(fields: OrderNoteFields): Record<string, string> {
  return compactNotes({
    event_id: fields.eventId,
    event_name: fields.eventName,
    slot_id: fields.slotId,
    total_tickets: String(fields.totalTickets),
    user_email: fields.userEmail,
    user_name: fields.userName,
  });
}

/** The checkout window's notes (spec §7): event_id, slot_id and the tickets as a JSON string. */
export function buildCheckoutNotes(
  eventId: string,
  slotId: string,
  tickets: { ticketTypeId: string; name: string; quantity: number }[],
): Record<string, string> {
  return compactNotes({
    event_id: eventId,
    slot_id: slotId,
    tickets: JSON.stringify(tickets.map((t) => ({ id: t.ticketTypeId, name: t.name, quantity: t.quantity }))),
  });
}

function compactNotes(notes: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(notes)) {
    const text = value?.trim();
    if (text) out[key] = text.slice(0, NOTE_VALUE_MAX_LENGTH);
  }
  return out;
}
