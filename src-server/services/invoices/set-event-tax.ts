import { eq } from 'drizzle-orm';
import type { AdmissionKind } from '../../../shared/gst.ts';
import { GST_MESSAGES } from '../../../shared/gst-schemas.ts';
import { venueStatesOfCity } from '../../../shared/gst-states.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { badRequest } from '../../errors.ts';

export interface EventTaxSettings {
  /** Null: the organiser profile's default rate. */
  taxRate: number | null;
  /** The venue's state, the place of supply; null: the city's state. Left out: unchanged. */
  venueState?: string | null;
  /** Entry 81's kind of admission; null: the category's default. Left out: unchanged. */
  admissionKind?: AdmissionKind | null;
}

/**
 * The event editor's GST settings (issues 16 and 36). The venue's state must be one of the states the
 * event's city lies in (shared/gst-states.ts venueStatesOfCity), and must be chosen where the city's
 * area spans states (Delhi/NCR, Chandigarh): the city alone cannot say where the event is held. Checked
 * inside the write so a city changed meanwhile is seen.
 */
export async function setEventTax(db: Db, eventId: string, settings: EventTaxSettings): Promise<void> {
  await writeTransaction(db, (tx) => {
    const event = tx.select({ city: events.city }).from(events).where(eq(events.id, eventId)).get();
    if (!event) return;
    const { taxRate, venueState, admissionKind } = settings;
    if (venueState !== undefined) {
      const states = venueStatesOfCity(event.city);
      if (venueState === null && states.length > 1) {
        throw badRequest(GST_MESSAGES.venueStateRequired, { venueState: GST_MESSAGES.venueStateRequired });
      }
      if (venueState !== null && !states.some((s) => s === venueState)) {
        throw badRequest(GST_MESSAGES.venueStateInvalid, { venueState: GST_MESSAGES.venueStateInvalid });
      }
    }
    tx.update(events)
      .set({
        taxRate,
        ...(venueState !== undefined && { venueState }),
        ...(admissionKind !== undefined && { admissionKind }),
      })
      .where(eq(events.id, eventId))
      .run();
  });
}
