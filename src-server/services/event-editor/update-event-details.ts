import { eq } from 'drizzle-orm';
import type { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { artists, events } from '../../db/schema/catalog.ts';
import { eventColumns } from './create-event.ts';
import { editEvent } from './event-version.ts';

/** Replaces what the buyer's page says about the event (not its dates or tickets). */
export async function updateEventDetails(
  db: Db,
  eventId: string,
  basedOn: number,
  details: EventDetailsFields,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    tx.update(events).set(eventColumns(tx, details)).where(eq(events.id, eventId)).run();
    // The list is written again in order; an artist kept by name keeps their photo unless a new one
    // (or null, no photo) is given.
    const photos = new Map(
      tx
        .select({ name: artists.name, imageUrl: artists.imageUrl })
        .from(artists)
        .where(eq(artists.eventId, eventId))
        .all()
        .map((a) => [a.name, a.imageUrl]),
    );
    tx.delete(artists).where(eq(artists.eventId, eventId)).run();
    details.artists.forEach((artist, position) => {
      const imageUrl = artist.imageUrl === undefined ? (photos.get(artist.name) ?? null) : artist.imageUrl;
      tx.insert(artists).values({ eventId, name: artist.name, imageUrl, position }).run();
    });
    return { version };
  });
}
