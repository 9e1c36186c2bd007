import { eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { editEvent } from './event-version.ts';

/**
 * Published → draft: buyers stop seeing the event and cannot start a purchase. Bookings already made
 * stay valid; holds already taken may still be paid for.
 */
export async function unpublishEvent(db: Db, eventId: string, basedOn: number): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    yield* takeOffSaleSteps(tx, eventId);
    return { version };
  });
}

/** Published → draft, inside an edit (the owner's, or an admin's: services/admin/unpublish-any-event.ts). */
export function takeOffSale(tx: WriteTx, eventId: string): void {
  runSync(takeOffSaleSteps(tx, eventId));
}

/** takeOffSale as steps, on either engine (ADR 0045). */
export function* takeOffSaleSteps(tx: WriteTx, eventId: string): Steps<void> {
  const { events } = tablesOf(tx);
  const { status } = (yield* row(
    tx.select({ status: events.status }).from(events).where(eq(events.id, eventId)),
  ))!;
  if (status !== 'published') throw conflict(EDITOR_MESSAGES.notPublished);
  yield* changes(tx.update(events).set({ status: 'draft' }).where(eq(events.id, eventId)));
}
