import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { events } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';

export const NOT_ON_HOLD = 'This event is not on hold.';

/**
 * An admin releases the hold an admin's unpublish put on an event (unpublish-any-event.ts): it stays a
 * draft, and its team may publish it again through the editor (which still needs the owner to hold
 * organiser rights). The owner is told by e-mail in the same transaction.
 */
export function releaseEventHold(
  db: Db,
  eventId: string,
  now: Date,
  links: { base: string },
): Promise<{ released: true }> {
  return writeTransaction(db, (tx) => {
    const event = tx
      .select({ name: events.name, ownerId: events.ownerId, heldAt: events.adminHoldAt })
      .from(events)
      .where(eq(events.id, eventId))
      .get();
    if (!event) throw notFound('Event not found');
    const released = tx
      .update(events)
      .set({ adminHoldAt: null, adminHoldBy: null, adminHoldReason: null })
      .where(and(eq(events.id, eventId), isNotNull(events.adminHoldAt)))
      .run();
    if (released.changes !== 1) throw conflict(NOT_ON_HOLD);
    const owner = event.ownerId
      ? tx
          .select({ name: users.name, email: users.email })
          .from(users)
          .where(eq(users.id, event.ownerId))
          .get()
      : undefined;
    if (owner) {
      enqueueMail(
        tx,
        {
          to: owner.email,
          subject: `${event.name} may be published again`,
          ...renderMail({
            heading: 'Your event may be published again',
            greeting: `Hi ${owner.name ?? 'there'},`,
            paragraphs: [
              `An administrator of Jalsa has released the hold on ${event.name}. It is still a draft: publish it from the organiser console when it is ready.`,
            ],
            action: { label: 'Open the event', url: `${links.base}/organiser/events/${eventId}/edit` },
          }),
          idempotencyKey: `admin-release:${eventId}:${event.heldAt}`,
        },
        now,
      );
    }
    return { released: true as const };
  });
}
