import { count } from 'drizzle-orm';
import type { Clock } from '../../deps.ts';
import { insertEvent } from '../../services/catalog/insert-event.ts';
import { ensureDemoOrganiser } from '../../services/roles/ensure-demo-accounts.ts';
import type { Db } from '../client.ts';
import { events } from '../schema/catalog.ts';
import { demoEvents } from './demo-events.ts';
import { seedSoldOutBookings } from './demo-sales.ts';

/**
 * Fills an empty catalogue with the demo events (owned by the demo organiser), dated relative to `clock` so they are always upcoming.
 * Does nothing when any event exists, so starting twice never duplicates them. Returns how many it added.
 */
export function seedDemoData(db: Db, clock: Clock): number {
  const existing = db.select({ n: count() }).from(events).get()?.n ?? 0;
  if (existing > 0) return 0;
  const now = clock.now();
  const docs = demoEvents(now);
  const ownerId = ensureDemoOrganiser(db, now);
  for (const doc of docs) insertEvent(db, { ...doc, ownerId }, now.toISOString());
  seedSoldOutBookings(db, docs, now);
  return docs.length;
}
