import { randomUUID } from 'node:crypto';
import { EDITOR_MESSAGES, type EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import { parseMapLink } from '../../../shared/map-links.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { Clock } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { refreshEventListingSteps } from '../catalog/refresh-event-listing.ts';
import { cappedFeeRate, convenienceFeeCapSteps } from '../platform-settings/convenience-fee-cap.ts';

/**
 * A new event owned by the caller, as a draft (invisible to buyers until published). Its start time is
 * the creation time until it has a slot (then the earliest slot's start, see refresh-event-times).
 * `options.id` is for the demo seed only, whose events keep fixed ids (their pictures and links name
 * them); the console never sends one.
 */
export async function createEvent(
  db: Db,
  clock: Clock,
  ownerId: string,
  details: EventDetailsFields,
  options: { id?: string } = {},
): Promise<{ eventId: string; version: number }> {
  const eventId = options.id ?? `evt-${randomUUID()}`;
  const now = clock.now().toISOString();
  await runnerFor(db).write(function* (db) {
    const tx = db as WriteTx;
    const { artists, events } = tablesOf(tx);
    yield* changes(
      tx.insert(events).values({
        id: eventId,
        ...(yield* eventColumnsSteps(tx, details)),
        startTime: now,
        endTime: null,
        ownerId,
        status: 'draft',
        version: 1,
        createdAt: now,
      }),
    );
    for (const [position, artist] of details.artists.entries()) {
      const imageUrl = artist.imageUrl ?? null;
      yield* changes(tx.insert(artists).values({ eventId, name: artist.name, imageUrl, position }));
    }
    yield* refreshEventListingSteps(tx, eventId);
  });
  return { eventId, version: 1 };
}

/**
 * The events columns the details form sets; pictures left out (undefined) are not written. The
 * convenience fee is held to the admin's cap (read in the edit's own transaction).
 */
export function* eventColumnsSteps(tx: WriteTx, details: EventDetailsFields) {
  const { bannerUrl } = details;
  const fee = cappedFeeRate(details.platformFeeRate, yield* convenienceFeeCapSteps(tx));
  if ('refused' in fee) throw badRequest(fee.refused, { platformFeeRate: fee.refused });
  // A percentage refund needs its percentage (the zod object cannot say so: it is extended elsewhere).
  if (details.refundRule === 'percent' && details.refundPercent == null) {
    throw badRequest(EDITOR_MESSAGES.refundPercentInvalid, {
      refundPercent: EDITOR_MESSAGES.refundPercentInvalid,
    });
  }
  return {
    posterUrl: details.posterUrl,
    // The event page shows the first of imagesUrls as its banner.
    imagesUrls: bannerUrl === undefined ? undefined : bannerUrl ? [bannerUrl] : [],
    name: details.name,
    category: details.category,
    city: details.city,
    eventLocationText: details.eventLocationText,
    // Stored as the link itself, also when the whole <iframe> HTML was pasted.
    googleMapsEmbedLink: parseMapLink(details.googleMapsEmbedLink)?.url ?? null,
    description: details.description,
    ageRestrictions: details.ageRestrictions,
    language: details.language || null,
    termsAndConditions: details.termsAndConditions,
    platformFeeRate: fee.rate,
    ...(details.maxTicketsPerBuyer !== undefined && { maxTicketsPerBuyer: details.maxTicketsPerBuyer }),
    ...(details.refundCutoffHours !== undefined && { refundCutoffHours: details.refundCutoffHours }),
    ...(details.refundRule !== undefined && { refundRule: details.refundRule }),
    ...(details.refundPercent !== undefined && { refundPercent: details.refundPercent }),
    ...(details.transfersAllowed !== undefined && { transfersAllowed: details.transfersAllowed }),
    ...(details.waitlistOfferMinutes !== undefined && { waitlistOfferMinutes: details.waitlistOfferMinutes }),
    ...(details.maxTransfersPerBooking !== undefined && {
      maxTransfersPerBooking: details.maxTransfersPerBooking,
    }),
  };
}
