import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import { editEventSteps } from '../event-editor/event-version.ts';
import { takeOffSaleSteps } from '../event-editor/unpublish-event.ts';
import { mailEventOwnerSteps } from './mail-event-owner.ts';

/**
 * An admin takes any organiser's published event off sale (back to draft) and holds it there: who,
 * when and why are kept on the event, and until an admin releases the hold (release-event-hold.ts, or
 * an admin publishing it) neither the owner nor the team can publish it again (issue 35: the owner
 * republished an event an admin had taken down). The owner is told by e-mail in the same transaction.
 * Like the owner's own unpublish, bookings already made stay valid. Written once for both engines (ADR 0045).
 */
export async function unpublishAnyEvent(
  db: Db,
  change: { eventId: string; version: number; reason?: string | undefined; adminId: string },
  now: Date,
  links: { base: string },
): Promise<{ version: number }> {
  const reason = change.reason?.trim() || null;
  return runnerFor(db).write(function* (db) {
    const tx = db as WriteTx;
    const { events } = tablesOf(tx);
    const event = yield* row(
      tx
        .select({ name: events.name, ownerId: events.ownerId })
        .from(events)
        .where(eq(events.id, change.eventId)),
    );
    if (!event) throw notFound('Event not found');
    const version = yield* editEventSteps(tx, change.eventId, change.version, function* (tx, version) {
      yield* takeOffSaleSteps(tx, change.eventId);
      yield* changes(
        tx
          .update(events)
          .set({ adminHoldAt: now.toISOString(), adminHoldBy: change.adminId, adminHoldReason: reason })
          .where(eq(events.id, change.eventId)),
      );
      return version;
    });
    yield* mailEventOwnerSteps(
      tx,
      { id: change.eventId, ownerId: event.ownerId },
      {
        subject: `${event.name} was taken off sale`,
        heading: 'Your event was taken off sale',
        paragraphs: [
          `An administrator of Jalsa has taken ${event.name} off sale. Buyers no longer see it and cannot book it; bookings already made stay valid.`,
          ...(reason ? [`The reason given: ${reason}`] : []),
          'It is on hold: it can be published again only after an administrator releases it. You can still correct it in the organiser console; write to us through Contact Us when it is ready, or to ask why.',
        ],
        idempotencyKey: `admin-unpublish:${change.eventId}:v${version}`,
      },
      now,
      links,
    );
    return { version };
  });
}
