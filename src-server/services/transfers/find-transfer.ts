import { eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { bookingTransfers } from '../../db/schema/transfers.ts';
import { notFound } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/** The transfer a mailed link names; an unknown link is not found (the token is the credential). */
export function findTransfer(db: DbOrTx, token: string) {
  const row = db
    .select()
    .from(bookingTransfers)
    .where(eq(bookingTransfers.tokenHash, linkTokenId(token)))
    .get();
  if (!row) throw notFound(TRANSFER_MESSAGES.linkInvalid);
  return row;
}

/**
 * What the link's page shows before accepting: the show, the ticket, who sends it and to which address.
 * Nothing of the sender beyond the name they gave, and no QR: the link's holder does not own it yet.
 */
export function describeTransfer(db: Db, token: string, viewer: { id: string; email: string } | null) {
  const t = findTransfer(db, token);
  const b = db
    .select({
      eventName: bookings.eventName,
      eventLocation: bookings.eventLocation,
      ticketSlot: bookings.ticketSlot,
      ticketSlotEnd: bookings.ticketSlotEnd,
      ticketTypes: bookings.ticketTypes,
      ticketCount: bookings.ticketCount,
    })
    .from(bookings)
    .where(eq(bookings.id, t.bookingId))
    .get()!;
  return {
    status: t.status,
    fromName: t.fromName,
    toName: t.toName,
    toEmail: t.toEmail,
    eventName: b.eventName,
    eventLocation: b.eventLocation,
    ticketSlot: b.ticketSlot,
    ticketSlotEnd: b.ticketSlotEnd,
    tickets: b.ticketTypes.map((l) => ({ name: l.name, quantity: l.quantity })),
    /** Whether the signed-in viewer is the addressee (null: not signed in). */
    viewerIsRecipient: viewer ? viewer.email.toLowerCase() === t.toEmail : null,
    /** The booking id once the viewer has accepted it (their ticket page). */
    bookingId: t.status === 'accepted' && viewer && t.toUserId === viewer.id ? t.bookingId : null,
  };
}
