import { eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { bookingTransfers } from '../../db/schema/transfers.ts';
import { notFound } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';

/**
 * The transfer a mailed link names; an unknown link is not found (the token is the credential). Written
 * once for both engines (ADR 0045).
 */
export function* findTransferSteps(db: DbOrTx, token: string): Steps<typeof bookingTransfers.$inferSelect> {
  const transfers = tablesOf(db).bookingTransfers;
  const found = yield* row(
    db
      .select()
      .from(transfers)
      .where(eq(transfers.tokenHash, linkTokenId(token))),
  );
  if (!found) throw notFound(TRANSFER_MESSAGES.linkInvalid);
  return found;
}

/**
 * What the link's page shows before accepting: the show, the ticket, who sends it and to which address.
 * Nothing of the sender beyond the name they gave, and no QR: the link's holder does not own it yet.
 */
export function describeTransfer(db: DbOrTx, token: string, viewer: { id: string; email: string } | null) {
  return runStatements(db, function* (d) {
    const { bookings } = tablesOf(d);
    const t = yield* findTransferSteps(d, token);
    const b = (yield* row(
      d
        .select({
          eventName: bookings.eventName,
          eventLocation: bookings.eventLocation,
          ticketSlot: bookings.ticketSlot,
          ticketSlotEnd: bookings.ticketSlotEnd,
          ticketTypes: bookings.ticketTypes,
          ticketCount: bookings.ticketCount,
        })
        .from(bookings)
        .where(eq(bookings.id, t.bookingId)),
    ))!;
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
  });
}
