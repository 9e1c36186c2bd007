import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';

export interface EventMeta {
  title: string;
  description: string;
  imageUrl: string | null;
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
  };
}
