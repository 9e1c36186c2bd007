import { eq } from 'drizzle-orm';
import type { AdmissionKind } from '../../../shared/gst.ts';
import { GST_MESSAGES } from '../../../shared/gst-schemas.ts';
import { venueStatesOfCity } from '../../../shared/gst-states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { badRequest } from '../../errors.ts';
import { refreshEventListingSteps } from '../catalog/refresh-event-listing.ts';

export interface EventTaxSettings {
  /** Null: the organiser profile's default rate. */
  taxRate: number | null;
  /** The venue's state, the place of supply; null: the city's state. Left out: unchanged. */
  venueState?: string | null;
  /** Entry 81's kind of admission; null: the category's default. Left out: unchanged. */
  admissionKind?: AdmissionKind | null;
  /**
   * Prices include GST (true) or have it added at checkout (false, issue 40); null: the organiser
   * profile's. Left out: unchanged.
   */
  taxInclusive?: boolean | null;
}

/**
 * The event editor's GST settings (issues 16 and 36). The venue's state must be one of the states the
 * event's city lies in (shared/gst-states.ts venueStatesOfCity), and must be chosen where the city's
 * area spans states (Delhi/NCR, Chandigarh): the city alone cannot say where the event is held. Checked
 * inside the write so a city changed meanwhile is seen. Prices plus GST (issue 40) only for an organiser
 * with a GSTIN: an unregistered one may not collect GST, so the choice is refused rather than ignored.
 */
export async function setEventTax(
  db: Db | DbOrTx,
  eventId: string,
  settings: EventTaxSettings,
): Promise<void> {
  await runnerFor(db).write((tx) => setEventTaxSteps(tx, eventId, settings));
}

function* setEventTaxSteps(tx: DbOrTx, eventId: string, settings: EventTaxSettings): Steps<void> {
  const { events, organiserProfiles } = tablesOf(tx);
  const event = yield* row(
    tx.select({ city: events.city, ownerId: events.ownerId }).from(events).where(eq(events.id, eventId)),
  );
  if (!event) return;
  const { taxRate, venueState, admissionKind, taxInclusive } = settings;
  if (taxInclusive === false) {
    const profile = event.ownerId
      ? yield* row(
          tx
            .select({ gstin: organiserProfiles.gstin })
            .from(organiserProfiles)
            .where(eq(organiserProfiles.userId, event.ownerId)),
        )
      : undefined;
    if (!profile?.gstin) {
      throw badRequest(GST_MESSAGES.plusGstNeedsGstin, { taxInclusive: GST_MESSAGES.plusGstNeedsGstin });
    }
  }
  if (venueState !== undefined) {
    const states = venueStatesOfCity(event.city);
    if (venueState === null && states.length > 1) {
      throw badRequest(GST_MESSAGES.venueStateRequired, { venueState: GST_MESSAGES.venueStateRequired });
    }
    if (venueState !== null && !states.some((s) => s === venueState)) {
      throw badRequest(GST_MESSAGES.venueStateInvalid, { venueState: GST_MESSAGES.venueStateInvalid });
    }
  }
  yield* changes(
    tx
      .update(events)
      .set({
        taxRate,
        ...(venueState !== undefined && { venueState }),
        ...(admissionKind !== undefined && { admissionKind }),
        ...(taxInclusive !== undefined && { taxInclusive }),
      })
      .where(eq(events.id, eventId)),
  );
  // The cards' "+ GST" is read with the lists, which are cached by the catalogue's version.
  if (taxInclusive !== undefined) yield* refreshEventListingSteps(tx as WriteTx, eventId);
}
