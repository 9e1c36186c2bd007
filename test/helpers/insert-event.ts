import type { EventCategory } from '../../shared/categories.ts';
import type { TicketType } from '../../shared/ticket-type.ts';
import type { Db, DbOrTx } from '../../src-server/db/client.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { refreshEventListingSteps } from '../../src-server/services/catalog/refresh-event-listing.ts';

/**
 * FOR TEST AND BENCHMARK FIXTURES ONLY, above all large ones (bench/lib/fixtures.ts writes thousands of
 * events). The app makes events in one way, through the event editor's services
 * (src-server/services/event-editor/, which the demo seed uses too); this writes the rows directly, with
 * chosen ids and counts, no version checks and no publish checks. A fixture that is about how events are
 * made should use the services instead.
 */

/** An event in the spec's nested document shape (§3), as tests describe it. */
export interface EventDocument {
  id: string;
  name: string;
  description: string;
  category: EventCategory;
  city: string;
  imagesUrls: string[];
  posterUrl: string | null;
  startTime: string;
  endTime: string | null;
  eventLocationText: string;
  googleMapsEmbedLink: string | null;
  ageRestrictions: number | null;
  artistLineup: { name: string; imageUrl: string | null }[] | null;
  termsAndConditions: string[];
  platformFeeRate: number | null;
  /** The organiser who owns it (docs/decisions/0015-roles-and-ownership.md). */
  ownerId?: string | null;
  tickets: DateEntryDocument[];
}

export interface DateEntryDocument {
  id: string;
  dateOfEvent: string;
  isLive: boolean;
  slots: SlotDocument[];
}

export interface SlotDocument {
  id: string;
  startTime: string;
  endTime: string;
  tickets: TicketTypeDocument[];
}

/** A ticket type as the catalogue answers it; the per-order maximum and the sale window may be left out. */
export type TicketTypeDocument = Omit<
  TicketType,
  'maxPerOrder' | 'saleOpensAt' | 'saleClosesAt' | 'isHidden'
> &
  Partial<Pick<TicketType, 'maxPerOrder' | 'saleOpensAt' | 'saleClosesAt' | 'isHidden'>>;

/**
 * Writes one event with its artists, dates, slots and ticket types in a single transaction, as published
 * (the column's default) unless the test changes it. Synchronous, in a test's or benchmark's setup.
 */
export function insertEvent(db: Db, doc: EventDocument, createdAt: string): void {
  db.transaction((tx) => runSync(insertEventSteps(tx, doc, createdAt)));
}

/** The same on either engine (ADR 0045), for a file that runs on both (`createTestAppOn(testEngine())`). */
export function insertEventOn(db: Db, doc: EventDocument, createdAt: string): Promise<void> {
  return runnerFor(db).write((tx) => insertEventSteps(tx, doc, createdAt));
}

/** The rows of `insertEvent`, as steps of the caller's write transaction on either engine. */
export function* insertEventSteps(tx: DbOrTx, doc: EventDocument, createdAt: string): Steps<void> {
  const { events, artists, eventDates, slots, ticketTypes } = tablesOf(tx);
  yield* changes(
    tx.insert(events).values({
      id: doc.id,
      name: doc.name,
      description: doc.description,
      category: doc.category,
      city: doc.city,
      imagesUrls: doc.imagesUrls,
      posterUrl: doc.posterUrl,
      startTime: doc.startTime,
      endTime: doc.endTime,
      eventLocationText: doc.eventLocationText,
      googleMapsEmbedLink: doc.googleMapsEmbedLink,
      ageRestrictions: doc.ageRestrictions,
      termsAndConditions: doc.termsAndConditions,
      platformFeeRate: doc.platformFeeRate,
      ownerId: doc.ownerId ?? null,
      createdAt,
    }),
  );
  for (const [position, artist] of (doc.artistLineup ?? []).entries()) {
    yield* changes(
      tx.insert(artists).values({ eventId: doc.id, name: artist.name, imageUrl: artist.imageUrl, position }),
    );
  }
  for (const date of doc.tickets) {
    yield* changes(
      tx
        .insert(eventDates)
        .values({ id: date.id, eventId: doc.id, dateOfEvent: date.dateOfEvent, isLive: date.isLive }),
    );
    for (const slot of date.slots) {
      yield* changes(
        tx
          .insert(slots)
          .values({ id: slot.id, eventDateId: date.id, startTime: slot.startTime, endTime: slot.endTime }),
      );
      for (const [position, ticket] of slot.tickets.entries()) {
        yield* changes(tx.insert(ticketTypes).values({ ...ticket, slotId: slot.id, position }));
      }
    }
  }
  yield* refreshEventListingSteps(tx as unknown as WriteTx, doc.id);
}
