import { and, eq, ne, sql } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { refreshEventListingSteps } from '../catalog/refresh-event-listing.ts';

/** A console edit's change, as steps of its write transaction (ADR 0045), given the version it claimed. */
export type EditSteps<T> = (tx: WriteTx, version: number) => Steps<T>;

/**
 * One console edit of an event, whole: in one write transaction it claims the next version
 * (claimVersion), makes the change, then rewrites what the catalogue keeps about the event
 * (refreshEventListing: lowest price, last end, search document, cached lists). An edit written through
 * this cannot leave the storefront out of date. `edit` returns what the service answers. Runs on the
 * engine `db` was opened on (ADR 0045).
 */
export function editEvent<T>(db: Db, eventId: string, basedOn: number, edit: EditSteps<T>): Promise<T> {
  return runnerFor(db).write((tx) => editEventSteps(tx as WriteTx, eventId, basedOn, edit));
}

/** editEvent as steps of a write transaction the caller already holds (it read something first). */
export function* editEventSteps<T>(
  tx: WriteTx,
  eventId: string,
  basedOn: number,
  edit: EditSteps<T>,
): Steps<T> {
  const result = yield* edit(tx, yield* claimVersionSteps(tx, eventId, basedOn));
  yield* refreshEventListingSteps(tx, eventId);
  return result;
}

/**
 * The first statement of every console edit: moves the event from the version the edit was based on to
 * the next one. When another team member saved in between, nothing matches and the edit is refused
 * (inside the write transaction, so two edits based on the same version cannot both pass: on PostgreSQL
 * the second waits on the event's row, then finds the version moved). A cancelled event is not edited
 * at all. Returns the new version, which the client sends with its next edit.
 */
export function* claimVersionSteps(tx: WriteTx, eventId: string, basedOn: number): Steps<number> {
  const { events } = tablesOf(tx);
  const claimed = yield* row(
    tx
      .update(events)
      .set({ version: sql`${events.version} + 1` })
      .where(and(eq(events.id, eventId), eq(events.version, basedOn), ne(events.status, 'cancelled')))
      .returning({ version: events.version }),
  );
  if (claimed) return claimed.version;
  const found = yield* row(tx.select({ status: events.status }).from(events).where(eq(events.id, eventId)));
  if (found?.status === 'cancelled') throw conflict(EDITOR_MESSAGES.cancelledLocked);
  throw conflict(EDITOR_MESSAGES.staleVersion);
}
