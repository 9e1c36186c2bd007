import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, notFound, tooManyRequests } from '../../errors.ts';
import { newLinkToken } from '../accounts/tokens.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { type RateLimit, rateLimitSteps } from '../rate-limits/rate-limits.ts';
import { transferOfferMail } from './transfer-mails.ts';
import { loadTransferableBookingSteps, pendingTransferOfSteps, transferRefusal } from './transfer-rules.ts';

/**
 * Transfers one booking may start in all (cancelled ones count): each mails a stranger, so a booking is
 * not a way to send Jalsa mail to any address again and again.
 */
export const TRANSFER_STARTS_PER_BOOKING = 10;
export const TOO_MANY_TRANSFERS = 'Too many transfers were started for this booking. Please contact support.';

/** Each offer mails a stranger: a few an hour per sender, and one address is not mailed again and again. */
export const TRANSFER_OFFERS_PER_SENDER: RateLimit = {
  name: 'transfer-offer-sender',
  max: 5,
  windowMs: 60 * 60_000,
};
export const TRANSFER_OFFERS_PER_ADDRESS: RateLimit = {
  name: 'transfer-offer-address',
  max: 3,
  windowMs: 24 * 60 * 60_000,
};
export const TRANSFER_OFFERS_LIMITED = 'Several transfers were sent recently. Please try again later.';

/**
 * The owner of a booking offers it to someone by name and e-mail (and mobile). Nothing moves yet: the
 * recipient gets a link and the booking changes hands only when they accept (accept-transfer.ts). The
 * sender's QR keeps working until then.
 */
export async function startTransfer(
  db: DbOrTx,
  sender: { id: string; name: string | null; email: string },
  input: { bookingId: string; name: string; email: string; mobile: string },
  now: Date,
  links: { base: string },
): Promise<{ transferId: string }> {
  const { token, id: tokenHash } = newLinkToken();
  const transferId = randomUUID();
  // One write transaction: the owner check, the limits, the rules and the offer. Someone else's booking
  // answers as not found before any limit is counted (a stranger cannot use up the limits of an address
  // or of the owner); the owner's refusals after the limits commit, so the asking is counted. Written
  // once for both engines (ADR 0045): on PostgreSQL under the booking's lock, as its acceptance is.
  const refused = await runnerFor(db).write(function* (tx) {
    const { bookingTransfers } = tablesOf(tx);
    yield* serialize(bookingLockKey(input.bookingId));
    const booking = yield* loadTransferableBookingSteps(tx, input.bookingId);
    if (!booking || booking.userId !== sender.id) return notFound(BOOKING_NOT_FOUND_MESSAGE);
    const allowed = yield* rateLimitSteps(
      tx as WriteTx,
      [
        { limit: TRANSFER_OFFERS_PER_SENDER, key: sender.id },
        { limit: TRANSFER_OFFERS_PER_ADDRESS, key: input.email },
      ],
      now,
    );
    if (!allowed) return tooManyRequests(TRANSFER_OFFERS_LIMITED);
    const refusal = transferRefusal(booking, now);
    if (refusal) return conflict(refusal);
    if (yield* pendingTransferOfSteps(tx, booking.id)) return conflict(TRANSFER_MESSAGES.pending);
    if (input.email === sender.email.toLowerCase())
      return conflict(TRANSFER_MESSAGES.ownEmail, { email: TRANSFER_MESSAGES.ownEmail });
    // count() is a string on PostgreSQL.
    const started = Number(
      (yield* row(
        tx.select({ n: count() }).from(bookingTransfers).where(eq(bookingTransfers.bookingId, booking.id)),
      ))!.n,
    );
    if (started >= TRANSFER_STARTS_PER_BOOKING) return tooManyRequests(TOO_MANY_TRANSFERS);
    const fromName = sender.name || booking.userName;
    yield* changes(
      tx.insert(bookingTransfers).values({
        id: transferId,
        bookingId: booking.id,
        fromUserId: sender.id,
        fromName,
        toName: input.name,
        toEmail: input.email,
        toPhone: input.mobile,
        tokenHash,
        createdAt: now.toISOString(),
      }),
    );
    yield* recordBookingEventSteps(tx, {
      bookingId: booking.id,
      kind: 'transfer_offered',
      actor: 'buyer',
      actorUserId: sender.id,
      at: now,
      details: { toName: input.name, toEmail: input.email },
    });
    yield* enqueueMailSteps(
      tx as WriteTx,
      transferOfferMail({
        transferId,
        to: input.email,
        fromEmail: sender.email,
        eventName: booking.eventName,
        slotStart: booking.ticketSlot,
        url: `${links.base}/transfers/${token}`,
      }),
      now,
    );
    return null;
  });
  if (refused) throw refused;
  return { transferId };
}
