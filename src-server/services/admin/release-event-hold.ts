import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { mailEventOwnerSteps } from './mail-event-owner.ts';

export const NOT_ON_HOLD = 'This event is not on hold.';

/**
 * An admin releases the hold an admin's unpublish put on an event (unpublish-any-event.ts): it stays a
 * draft, and its team may publish it again through the editor (which still needs the owner to hold
 * organiser rights). The owner is told by e-mail in the same transaction. Written once for both engines
 * (ADR 0045).
 */
export function releaseEventHold(
  db: Db,
  eventId: string,
  now: Date,
  links: { base: string },
): Promise<{ released: true }> {
  return runnerFor(db).write(function* (db) {
    const tx = db as WriteTx;
    const { events } = tablesOf(tx);
    const event = yield* row(
      tx
        .select({ name: events.name, ownerId: events.ownerId, heldAt: events.adminHoldAt })
        .from(events)
        .where(eq(events.id, eventId)),
    );
    if (!event) throw notFound('Event not found');
    // Conditional: of two admins releasing at once (on PostgreSQL too) one releases, one is told.
    const released = yield* changes(
      tx
        .update(events)
        .set({ adminHoldAt: null, adminHoldBy: null, adminHoldReason: null })
        .where(and(eq(events.id, eventId), isNotNull(events.adminHoldAt))),
    );
    if (released !== 1) throw conflict(NOT_ON_HOLD);
    yield* mailEventOwnerSteps(
      tx,
      { id: eventId, ownerId: event.ownerId },
      {
        subject: `${event.name} may be published again`,
        heading: 'Your event may be published again',
        paragraphs: [
          `An administrator of Jalsa has released the hold on ${event.name}. It is still a draft: publish it from the organiser console when it is ready.`,
        ],
        idempotencyKey: `admin-release:${eventId}:${event.heldAt}`,
      },
      now,
      links,
    );
    return { released: true as const };
  });
}
