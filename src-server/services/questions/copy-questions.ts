import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendeeNameSettings, ticketQuestions } from '../../db/schema/questions.ts';

/**
 * A ticket type copied to another slot (the editor's "copy to all slots") asks what its template asks:
 * the same attendee-name setting and a copy of each live question, inside the copy's transaction.
 */
export function copyQuestionsIn(tx: DbOrTx, fromTicketTypeId: string, toTicketTypeId: string): void {
  const setting = tx
    .select({ mode: attendeeNameSettings.mode })
    .from(attendeeNameSettings)
    .where(eq(attendeeNameSettings.ticketTypeId, fromTicketTypeId))
    .get();
  if (setting)
    tx.insert(attendeeNameSettings).values({ ticketTypeId: toTicketTypeId, mode: setting.mode }).run();
  const questions = tx
    .select()
    .from(ticketQuestions)
    .where(and(eq(ticketQuestions.ticketTypeId, fromTicketTypeId), isNull(ticketQuestions.removedAt)))
    .all();
  for (const q of questions) {
    tx.insert(ticketQuestions)
      .values({ ...q, id: randomUUID(), ticketTypeId: toTicketTypeId })
      .run();
  }
}
