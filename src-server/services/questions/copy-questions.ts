import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/**
 * A ticket type copied to another slot (the editor's "copy to all slots") asks what its template asks:
 * the same attendee-name setting and a copy of each live question, inside the copy's transaction.
 */
export function* copyQuestionsSteps(
  tx: DbOrTx,
  fromTicketTypeId: string,
  toTicketTypeId: string,
): Steps<void> {
  const { attendeeNameSettings, ticketQuestions } = tablesOf(tx);
  const setting = yield* row(
    tx
      .select({ mode: attendeeNameSettings.mode })
      .from(attendeeNameSettings)
      .where(eq(attendeeNameSettings.ticketTypeId, fromTicketTypeId)),
  );
  if (setting) {
    yield* changes(
      tx.insert(attendeeNameSettings).values({ ticketTypeId: toTicketTypeId, mode: setting.mode }),
    );
  }
  const questions = yield* rows(
    tx
      .select()
      .from(ticketQuestions)
      .where(and(eq(ticketQuestions.ticketTypeId, fromTicketTypeId), isNull(ticketQuestions.removedAt))),
  );
  for (const q of questions) {
    yield* changes(
      tx.insert(ticketQuestions).values({ ...q, id: randomUUID(), ticketTypeId: toTicketTypeId }),
    );
  }
}
