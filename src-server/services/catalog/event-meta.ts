import { and, eq } from 'drizzle-orm';
import { IMAGE_SIZES, otherSizeOf } from '../../../shared/event-images.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';

export interface EventMeta {
  title: string;
  description: string;
  /** The picture at the top of the event page (its banner, or else its poster). */
  imageUrl: string | null;
  /** The picture for link previews (og:image): the banner, or else the poster's large size. */
  shareImageUrl: string | null;
}

/** What a shared link's preview (Open Graph) shows for a published event, or null (drafts included). */
export function findEventMeta(db: Db, eventId: string): EventMeta | null {
  const row = db
    .select({
      name: events.name,
      description: events.description,
      posterUrl: events.posterUrl,
      images: events.imagesUrls,
    })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.status, 'published')))
    .get();
  if (!row) return null;
  return {
    title: row.name,
    description: row.description.slice(0, 200),
    imageUrl: row.images[0] ?? row.posterUrl,
    shareImageUrl:
      row.images[0] ?? (row.posterUrl ? otherSizeOf(row.posterUrl, IMAGE_SIZES.poster[1]) : null),
  };
}
