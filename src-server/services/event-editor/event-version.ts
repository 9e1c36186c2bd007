import { and, eq, ne, sql } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';
import { type WriteTx, writeTransaction } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { refreshEventListing } from '../catalog/refresh-event-listing.ts';

/**
 * One console edit of an event, whole: in one write transaction it claims the next version
 * (claimVersion), makes the change, then rewrites what the catalogue keeps about the event
 * (refreshEventListing: lowest price, last end, search document, cached lists). An edit written through
 * this cannot leave the storefront out of date. `edit` returns what the service answers.
 */
export function editEvent<T>(
  db: Db,
  eventId: string,
  basedOn: number,
  edit: (tx: WriteTx, version: number) => T,
): Promise<T> {
  return writeTransaction(db, (tx) => editEventIn(tx, eventId, basedOn, edit));
}

/** editEvent inside a write transaction the caller already holds (it read something first). */
export function editEventIn<T>(
  tx: WriteTx,
  eventId: string,
  basedOn: number,
  edit: (tx: WriteTx, version: number) => T,
): T {
  const result = edit(tx, claimVersion(tx, eventId, basedOn));
  refreshEventListing(tx, eventId);
  return result;
}

/**
 * The first statement of every console edit: moves the event from the version the edit was based on to
 * the next one. When another team member saved in between, nothing matches and the edit is refused
 * (inside the write transaction, so two edits based on the same version cannot both pass). A cancelled
 * event is not edited at all. Returns the new version, which the client sends with its next edit.
 */
export function claimVersion(tx: WriteTx, eventId: string, basedOn: number): number {
  const claimed = tx
    .update(events)
    .set({ version: sql`${events.version} + 1` })
    .where(and(eq(events.id, eventId), eq(events.version, basedOn), ne(events.status, 'cancelled')))
    .returning({ version: events.version })
    .get();
  if (claimed) return claimed.version;
  const row = tx.select({ status: events.status }).from(events).where(eq(events.id, eventId)).get();
  if (row?.status === 'cancelled') throw conflict(EDITOR_MESSAGES.cancelledLocked);
  throw conflict(EDITOR_MESSAGES.staleVersion);
}
