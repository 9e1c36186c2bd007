import type { z } from 'zod';
import type { ContactMessageInput } from '../../../shared/catalog-schemas.ts';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema/contact.ts';

/** Stores a Contact Us message (already validated by ContactMessageInput) and returns its id. */
export function saveContactMessage(
  db: Db,
  message: z.output<typeof ContactMessageInput>,
  now: Date,
): { id: number } {
  const row = db
    .insert(contactMessages)
    .values({ ...message, createdAt: now.toISOString() })
    .returning({ id: contactMessages.id })
    .get();
  return { id: row.id };
}
