import { and, eq, ne, sql } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { events } from '../../db/schema/catalog.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';

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
