import { type AnyColumn, and, asc, eq, exists, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { EventListInput } from '../../../shared/catalog-schemas.ts';
import type { EventCategory } from '../../../shared/categories.ts';
import { CITIES, findCity } from '../../../shared/cities.ts';
import type { EventStatus } from '../../../shared/event-editor-schemas.ts';
import { lowestPricePaise } from '../../../shared/lowest-price.ts';
import type { Db } from '../../db/client.ts';
import { artists, eventDates, events, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { notFound } from '../../errors.ts';
import { type EventDateDetail, loadTicketTree } from './ticket-tree.ts';

/** What an event card and a list need: no ticket details, just the lowest price. */
export interface EventSummary {
  id: string;
  name: string;
  category: EventCategory;
  city: string;
  posterUrl: string | null;
  imageUrl: string | null;
  startTime: string;
  endTime: string | null;
  eventLocationText: string;
  lowestPricePaise: number | null;
}

/** The event detail in the spec's nested shape (dates → slots → ticket types), prices in paise. */
export interface EventDetail extends EventSummary {
  description: string;
  imagesUrls: string[];
  googleMapsEmbedLink: string | null;
  ageRestrictions: number | null;
  /** Null when the event lists no artists (the Artists section is then hidden). */
  artistLineup: { name: string; imageUrl: string | null }[] | null;
  termsAndConditions: string[];
  platformFeeRate: number | null;
  tickets: EventDateDetail[];
  /** 'cancelled' events stay readable so buyers holding a link see that they are cancelled. */
  status: EventStatus;
}

export const EVENT_NOT_FOUND = 'Event not found';

/**
 * Upcoming events (not yet over at `now`), soonest first, optionally narrowed to one city (name or
 * alias), one category and a range of India calendar days on which the event has a date.
 */
export function listEvents(db: Db, now: Date, filter: EventListInput = {}): EventSummary[] {
  const conditions: SQL[] = [eq(events.status, 'published'), upcoming(db, now)];
  if (filter.city) {
    // An unknown typed city (spec §4 saves it as given) simply has no events.
    conditions.push(eq(events.city, findCity(filter.city)?.name ?? filter.city));
  }
  if (filter.category) conditions.push(eq(events.category, filter.category));
  if (filter.from || filter.to) {
    const from = filter.from ? indiaDayStart(filter.from) : now.toISOString();
    const to = filter.to ? indiaDayEnd(filter.to) : '9999-12-31T00:00:00.000Z';
    conditions.push(
      or(
        exists(
          db
            .select({ one: sql`1` })
            .from(eventDates)
            .where(
              and(
                eq(eventDates.eventId, events.id),
                gte(eventDates.dateOfEvent, from),
                lt(eventDates.dateOfEvent, to),
              ),
            ),
        ),
        and(gte(events.startTime, from), lt(events.startTime, to)),
      )!,
    );
  }
  return summaries(db, and(...conditions)!);
}

/**
 * Upcoming events whose name, venue, city or an artist's name contains the text (any case). A city's
 * aliases count too, so 'Bangalore' finds Bengaluru's events and 'Gurgaon' those in Delhi/NCR.
 */
export function searchEvents(db: Db, now: Date, query: string): EventSummary[] {
  const text = query.trim().toLowerCase();
  if (!text) return [];
  const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const contains = (column: AnyColumn) => sql`lower(${column}) like ${pattern} escape '\\'`;
  const aliasCities = CITIES.filter((c) => c.aliases.some((a) => a.toLowerCase().includes(text))).map(
    (c) => c.name,
  );
  const matches: SQL[] = [
    contains(events.name),
    contains(events.eventLocationText),
    contains(events.city),
    exists(
      db
        .select({ one: sql`1` })
        .from(artists)
        .where(and(eq(artists.eventId, events.id), contains(artists.name))),
    ),
  ];
  if (aliasCities.length > 0) matches.push(inArray(events.city, aliasCities));
  return summaries(db, and(eq(events.status, 'published'), upcoming(db, now), or(...matches))!);
}

/**
 * One event with everything its detail page shows; 'Event not found' when it does not exist or is a
 * draft, unless `preview` (the event's team, checked by the caller). A cancelled event is shown, marked
 * cancelled (its buyers follow links to it), though no list, search or Proceed reaches it.
 */
export function getEvent(db: Db, id: string, options: { preview?: boolean } = {}): EventDetail {
  const row = db.select().from(events).where(eq(events.id, id)).get();
  if (!row || (row.status === 'draft' && !options.preview)) throw notFound(EVENT_NOT_FOUND);

  const lineup = db
    .select({ name: artists.name, imageUrl: artists.imageUrl })
    .from(artists)
    .where(eq(artists.eventId, id))
    .orderBy(asc(artists.position), asc(artists.id))
    .all();
  const tickets = loadTicketTree(db, id);

  return {
    id: row.id,
    name: row.name,
    category: row.category,
    city: row.city,
    posterUrl: row.posterUrl,
    imageUrl: row.imagesUrls[0] ?? null,
    startTime: row.startTime,
    endTime: row.endTime,
    eventLocationText: row.eventLocationText,
    lowestPricePaise: lowestPricePaise(tickets),
    description: row.description,
    imagesUrls: row.imagesUrls,
    googleMapsEmbedLink: row.googleMapsEmbedLink,
    ageRestrictions: row.ageRestrictions,
    artistLineup: lineup.length > 0 ? lineup : null,
    termsAndConditions: row.termsAndConditions,
    platformFeeRate: row.platformFeeRate,
    tickets,
    status: row.status,
  };
}

function summaries(db: Db, where: SQL): EventSummary[] {
  const lowest = db
    .select({ eventId: eventDates.eventId, price: sql<number>`min(${ticketTypes.pricePaise})`.as('price') })
    .from(ticketTypes)
    .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .groupBy(eventDates.eventId)
    .as('lowest');
  return db
    .select({
      id: events.id,
      name: events.name,
      category: events.category,
      city: events.city,
      posterUrl: events.posterUrl,
      images: events.imagesUrls,
      startTime: events.startTime,
      endTime: events.endTime,
      eventLocationText: events.eventLocationText,
      lowestPricePaise: lowest.price,
    })
    .from(events)
    .leftJoin(lowest, eq(lowest.eventId, events.id))
    .where(where)
    .orderBy(asc(events.startTime), asc(events.name))
    .all()
    .map(({ images, lowestPricePaise, ...rest }) => ({
      ...rest,
      imageUrl: images[0] ?? null,
      lowestPricePaise: lowestPricePaise ?? null,
    }));
}

/** Not over yet: it ends (or, without an end, starts) at or after `now`, or has a date still to come. */
function upcoming(db: Db, now: Date): SQL {
  const instant = now.toISOString();
  return or(
    gte(sql`coalesce(${events.endTime}, ${events.startTime})`, instant),
    exists(
      db
        .select({ one: sql`1` })
        .from(slots)
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .where(and(eq(eventDates.eventId, events.id), gte(slots.endTime, instant))),
    ),
  )!;
}

/** Midnight at the start of an India calendar day ('yyyy-MM-dd'), as a UTC ISO string. */
function indiaDayStart(day: string): string {
  return new Date(`${day}T00:00:00.000+05:30`).toISOString();
}

function indiaDayEnd(day: string): string {
  return new Date(new Date(`${day}T00:00:00.000+05:30`).getTime() + 86_400_000).toISOString();
}
