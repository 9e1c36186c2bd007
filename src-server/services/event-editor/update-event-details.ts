import { eq } from 'drizzle-orm';
import type { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { eventColumnsSteps } from './create-event.ts';
import { editEvent } from './event-version.ts';

/** Replaces what the buyer's page says about the event (not its dates or tickets). */
export async function updateEventDetails(
  db: Db,
  eventId: string,
  basedOn: number,
  details: EventDetailsFields,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { artists, events } = tablesOf(tx);
    const columns = yield* eventColumnsSteps(tx, details);
    yield* changes(tx.update(events).set(columns).where(eq(events.id, eventId)));
    // The list is written again in order; an artist kept by name keeps their photo unless a new one
    // (or null, no photo) is given.
    const kept = yield* rows(
      tx
        .select({ name: artists.name, imageUrl: artists.imageUrl })
        .from(artists)
        .where(eq(artists.eventId, eventId)),
    );
    const photos = new Map(kept.map((a) => [a.name, a.imageUrl]));
    yield* changes(tx.delete(artists).where(eq(artists.eventId, eventId)));
    for (const [position, artist] of details.artists.entries()) {
      const imageUrl = artist.imageUrl === undefined ? (photos.get(artist.name) ?? null) : artist.imageUrl;
      yield* changes(tx.insert(artists).values({ eventId, name: artist.name, imageUrl, position }));
    }
    return { version };
  });
}
