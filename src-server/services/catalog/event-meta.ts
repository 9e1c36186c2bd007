import { and, eq } from 'drizzle-orm';
import { IMAGE_SIZES, otherSizeOf } from '../../../shared/event-images.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

export interface EventMeta {
  title: string;
  description: string;
  /** The picture at the top of the event page (its banner, or else its poster). */
  imageUrl: string | null;
  /** The picture for link previews (og:image): the banner, or else the poster's large size. */
  shareImageUrl: string | null;
}

/** What a shared link's preview (Open Graph) shows for a published event, or null (drafts included). */
export async function findEventMeta(db: DbOrTx, eventId: string): Promise<EventMeta | null> {
  const found = await runStatements(db, (db) => {
    const { events } = tablesOf(db);
    return row(
      db
        .select({
          name: events.name,
          description: events.description,
          posterUrl: events.posterUrl,
          images: events.imagesUrls,
        })
        .from(events)
        .where(and(eq(events.id, eventId), eq(events.status, 'published'))),
    );
  });
  if (!found) return null;
  return {
    title: found.name,
    description: found.description.slice(0, 200),
    imageUrl: found.images[0] ?? found.posterUrl,
    shareImageUrl:
      found.images[0] ?? (found.posterUrl ? otherSizeOf(found.posterUrl, IMAGE_SIZES.poster[1]) : null),
  };
}
