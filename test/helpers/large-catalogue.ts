import type { EventCategory } from '../../shared/categories.ts';
import { CITIES } from '../../shared/cities.ts';
import type { Db } from '../../src-server/db/client.ts';
import {
  refreshEventListing,
  refreshEventSearch,
} from '../../src-server/services/catalog/refresh-event-listing.ts';
import type { EventDocument } from './insert-event.ts';

/**
 * A large published catalogue for benchmarks, query-plan checks and e2e tests (issue 25): `count`
 * events in 40 cities, each with 1–3 dates, 1–2 slots per date and 2 ticket types per slot, with
 * realistic names, artists and venues. Deterministic (same count → same events). The rows are
 * written with plain prepared inserts in one transaction (10,000 events in seconds); the maintained
 * lowest price, "still on" instant and search document then come from the app's own
 * `refreshEventListing`, exactly as the event editor and the demo seed keep them.
 */
export function insertLargeCatalogue(db: Db, count: number, options: { now?: Date; idPrefix?: string } = {}) {
  const now = options.now ?? new Date();
  const prefix = options.idPrefix ?? 'cat';
  const random = seeded(count);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const cities = CITIES.slice(0, CATALOGUE_CITIES);
  const createdAt = now.toISOString();
  const sqlite = db.$client;
  const insertEventRow = sqlite.prepare(
    `insert into events (id, name, description, category, city, images_urls, poster_url, start_time,
       end_time, event_location_text, terms_and_conditions, status, created_at)
     values (?, ?, ?, ?, ?, '[]', null, ?, ?, ?, '[]', 'published', ?)`,
  );
  const insertArtist = sqlite.prepare('insert into artists (event_id, name, position) values (?, ?, ?)');
  const insertDate = sqlite.prepare(
    'insert into event_dates (id, event_id, date_of_event, is_live) values (?, ?, ?, 1)',
  );
  const insertSlot = sqlite.prepare(
    'insert into slots (id, event_date_id, start_time, end_time) values (?, ?, ?, ?)',
  );
  const insertType = sqlite.prepare(
    `insert into ticket_types (id, slot_id, name, price_paise, description, is_refundable, total_tickets,
       available_tickets, is_live, benefits, position)
     values (?, ?, ?, ?, ?, ?, ?, ?, 1, '[]', ?)`,
  );
  const write = (doc: EventDocument) => {
    insertEventRow.run(
      doc.id,
      doc.name,
      doc.description,
      doc.category,
      doc.city,
      doc.startTime,
      doc.endTime,
      doc.eventLocationText,
      createdAt,
    );
    (doc.artistLineup ?? []).forEach((a, i) => {
      insertArtist.run(doc.id, a.name, i);
    });
    for (const date of doc.tickets) {
      insertDate.run(date.id, doc.id, date.dateOfEvent);
      for (const slot of date.slots) {
        insertSlot.run(slot.id, date.id, slot.startTime, slot.endTime);
        slot.tickets.forEach((t, i) => {
          insertType.run(
            t.id,
            slot.id,
            t.name,
            t.pricePaise,
            t.description,
            t.isRefundable ? 1 : 0,
            t.totalTickets,
            t.availableTickets,
            i,
          );
        });
      }
    }
    refreshEventListing(db, doc.id);
  };
  sqlite.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const city = cities[i % cities.length]!;
      const category = CATEGORIES[i % CATEGORIES.length]!;
      const performer = pick(PERFORMERS[category]);
      const name = `${performer} ${pick(TITLES[category])}`;
      const venue = `${pick(VENUES)}, ${city.name}`;
      const firstDay = 1 + Math.floor(random() * 180);
      const dates = 1 + Math.floor(random() * 3);
      const slotsPerDate = 1 + Math.floor(random() * 2);
      const basePrice = (2 + Math.floor(random() * 40)) * 5_000;
      const id = `${prefix}-${i}`;
      const tickets: EventDocument['tickets'] = [];
      for (let d = 0; d < dates; d += 1) {
        const day = new Date(now.getTime() + (firstDay + d * 7) * 86_400_000);
        day.setUTCHours(13, 30, 0, 0); // 19:00 IST
        tickets.push({
          id: `${id}-d${d}`,
          dateOfEvent: day.toISOString(),
          isLive: true,
          slots: Array.from({ length: slotsPerDate }, (_, s) => {
            const start = new Date(day.getTime() - s * 4 * 3_600_000);
            return {
              id: `${id}-d${d}-s${s}`,
              startTime: start.toISOString(),
              endTime: new Date(start.getTime() + 3 * 3_600_000).toISOString(),
              tickets: ['General', 'VIP'].map((typeName, t) => ({
                id: `${id}-d${d}-s${s}-t${t}`,
                name: typeName,
                pricePaise: basePrice * (t === 0 ? 1 : 3) + d * 10_000,
                personAllowedPerTicket: 1,
                description: `${typeName} entry`,
                isRefundable: t === 1,
                totalTickets: 200,
                availableTickets: 200,
                isLive: true,
                benefits: [],
              })),
            };
          }),
        });
      }
      const first = tickets[0]!.slots.at(-1)!;
      const last = tickets.at(-1)!.slots[0]!;
      write({
        id,
        name,
        description: `${name} live in ${city.name}.`,
        category,
        city: city.name,
        imagesUrls: [],
        posterUrl: null,
        startTime: first.startTime,
        endTime: last.endTime,
        eventLocationText: venue,
        googleMapsEmbedLink: null,
        ageRestrictions: null,
        artistLineup: [{ name: performer, imageUrl: null }],
        termsAndConditions: [],
        platformFeeRate: null,
        tickets,
      });
    }
  })();
}

/**
 * Takes back what `insertLargeCatalogue(db, count, { idPrefix })` wrote: each event's search document
 * (through `refreshEventSearch`, as unpublishing does), then the events, whose dates, slots, ticket
 * types and artists go with them; then the search index is merged. For a benchmark that measures the demo again after the large half.
 */
export function removeLargeCatalogue(db: Db, count: number, options: { idPrefix?: string } = {}) {
  const prefix = options.idPrefix ?? 'cat';
  const sqlite = db.$client;
  const unpublish = sqlite.prepare("update events set status = 'draft' where id = ?");
  const remove = sqlite.prepare('delete from events where id = ?');
  sqlite.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const id = `${prefix}-${i}`;
      unpublish.run(id);
      refreshEventSearch(db, id);
      remove.run(id);
    }
    sqlite.prepare('update catalog_version set version = version + 1 where id = 1').run();
  })();
  // FTS5 keeps a deleted document's terms as tombstones until its segments merge, and a search reads
  // them: merged now, the index is the demo's alone, as before the large half.
  sqlite.prepare("insert into event_search (event_search) values ('optimize')").run();
}

export const CATALOGUE_CITIES = 40;
const CATEGORIES: readonly EventCategory[] = ['concerts', 'comedy', 'shows', 'sports', 'workshops', 'others'];

const PERFORMERS: Record<EventCategory, readonly string[]> = {
  concerts: [
    'Arijit Singh',
    'Prateek Kuhad',
    'Shreya Ghoshal',
    'Sunidhi Chauhan',
    'Anuv Jain',
    'Ritviz',
    'Lucky Ali',
    'The Local Train',
    'Indian Ocean',
    'When Chai Met Toast',
    'Nucleya',
    'Papon',
    'Amit Trivedi',
    'Shankar Mahadevan',
    'A. R. Rahman',
    'Jasleen Royal',
    'Diljit Dosanjh',
    'KK Tribute',
    'Raghu Dixit Project',
    'Thaikkudam Bridge',
  ],
  comedy: [
    'Zakir Khan',
    'Anubhav Singh Bassi',
    'Kenny Sebastian',
    'Biswa Kalyan Rath',
    'Kanan Gill',
    'Abhishek Upmanyu',
    'Rahul Subramanian',
    'Aakash Gupta',
    'Sumukhi Suresh',
    'Gaurav Kapoor',
    'Kunal Kamra',
    'Vir Das',
    'Samay Raina',
    'Anu Menon',
    'Varun Grover',
  ],
  shows: [
    'Mughal-e-Azam',
    'Disney Aladdin',
    'Ek Tha Gadha',
    'Tumhari Amrita',
    'Piya Behrupiya',
    'Company Theatre',
    'Motley Theatre',
    'Jazz Ballet',
    'Kathak Ensemble',
    'Magic by Neel Madhav',
    'Puppet Parade',
  ],
  sports: [
    'Mumbai Indians',
    'Chennai Super Kings',
    'Royal Challengers',
    'Kerala Blasters',
    'Bengaluru FC',
    'Pro Kabaddi All Stars',
    'City Runners',
    'Cycling Club',
    'Chess Masters',
    'Tennis Premier',
  ],
  workshops: [
    'Pottery Studio',
    'Watercolour Club',
    'Baking Lab',
    'Photography Walk',
    'Calligraphy Circle',
    'Coffee Brewing',
    'Candle Making',
    'Salsa School',
    'Startup Founders',
    'Terrarium Makers',
  ],
  others: [
    'Sunburn Arena',
    'Flea Market',
    'Food Truck Festival',
    'Comic Con',
    'Wine Tasting',
    'Book Fair',
    'Design Week',
    'Heritage Walk',
    'Board Game Night',
    'Open Air Cinema',
  ],
};

const TITLES: Record<EventCategory, readonly string[]> = {
  concerts: ['Live in Concert', 'Unplugged', 'India Tour', 'Acoustic Night', 'Greatest Hits', 'Homecoming'],
  comedy: ['Stand-up Special', 'Live', 'New Material', 'Tour', 'Work in Progress', 'Late Night Set'],
  shows: ['The Musical', 'Live on Stage', 'Evening Show', 'Matinee', 'Festival Edition'],
  sports: ['Match Day', 'Season Opener', 'Fan Screening', 'Championship', 'Weekend League'],
  workshops: ['Beginners Workshop', 'Masterclass', 'Weekend Class', 'Hands-on Session'],
  others: ['Weekend', 'Festival', 'Carnival', 'Night Market', 'Expo'],
};

const VENUES = [
  'Jio World Garden',
  'NSCI Dome',
  'Phoenix Marketcity',
  'Kingdom of Dreams',
  'Siri Fort Auditorium',
  'Bal Gandharva Rangmandir',
  'Music Academy',
  'Palace Grounds',
  'Hard Rock Cafe',
  'The Habitat',
  'Canvas Laugh Club',
  'Prithvi Theatre',
  'Shilpakala Vedika',
  'Chowdiah Memorial Hall',
  'Nehru Stadium',
  'Town Hall',
  'Riverside Amphitheatre',
  'Convention Centre',
  'Open Air Lawns',
  'Community Hall',
];

/** mulberry32: a small seeded PRNG, so the fixture is the same every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
