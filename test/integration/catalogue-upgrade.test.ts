import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { pageEvents } from '../../src-server/services/catalog/event-pages.ts';
import { searchEventPage } from '../../src-server/services/catalog/search-events.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The last migration before the catalogue's maintained data (migration 0011). */
const BEFORE = '0010_team_invitations_email_index';

it('an existing database gets its lowest prices, "still on" instants and search documents on upgrade', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-catalogue-upgrade-'));
  try {
    const folder = path.join(dataDir, 'old-migrations');
    mkdirSync(path.join(folder, 'meta'), { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(ROOT, 'migrations/meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const last = journal.entries.findIndex((e) => e.tag === BEFORE);
    expect(last).toBeGreaterThanOrEqual(0);
    journal.entries = journal.entries.slice(0, last + 1);
    writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
    for (const { tag } of journal.entries)
      cpSync(path.join(ROOT, `migrations/${tag}.sql`), path.join(folder, `${tag}.sql`));

    const old = new Database(databaseFile(dataDir));
    migrate(drizzle(old), { migrationsFolder: folder });
    const at = '2026-11-20T10:00:00.000Z';
    for (const [id, status] of [
      ['old-on-sale', 'published'],
      ['old-draft', 'draft'],
    ] as const) {
      old
        .prepare(
          `insert into events (id, name, category, city, start_time, end_time, event_location_text, status, created_at)
           values (?, ?, 'comedy', 'Pune', '2026-12-05T13:30:00.000Z', '2026-12-05T16:30:00.000Z', 'Prithvi Theatre, Pune', ?, ?)`,
        )
        .run(id, `Kenny Sebastian ${id}`, status, at);
      old.prepare('insert into artists (event_id, name) values (?, ?)').run(id, 'Kenny Sebastian');
      old
        .prepare(
          "insert into event_dates (id, event_id, date_of_event) values (?, ?, '2026-12-05T13:30:00.000Z')",
        )
        .run(`${id}-d`, id);
      // A second date a week later: the event is on until its last slot ends.
      old
        .prepare(
          "insert into event_dates (id, event_id, date_of_event) values (?, ?, '2026-12-12T13:30:00.000Z')",
        )
        .run(`${id}-d2`, id);
      old
        .prepare(
          "insert into slots (id, event_date_id, start_time, end_time) values (?, ?, '2026-12-05T13:30:00.000Z', '2026-12-05T16:30:00.000Z')",
        )
        .run(`${id}-s`, `${id}-d`);
      old
        .prepare(
          "insert into slots (id, event_date_id, start_time, end_time) values (?, ?, '2026-12-12T13:30:00.000Z', '2026-12-12T16:30:00.000Z')",
        )
        .run(`${id}-s2`, `${id}-d2`);
      for (const [n, price, slot] of [
        [0, 79_900, `${id}-s`],
        [1, 49_900, `${id}-s2`],
      ] as const) {
        old
          .prepare(
            `insert into ticket_types (id, slot_id, name, price_paise, total_tickets, available_tickets)
             values (?, ?, ?, ?, 100, 100)`,
          )
          .run(`${id}-t${n}`, slot, `Type ${n}`, price);
      }
    }
    old.close();

    const upgraded = openDatabase(databaseFile(dataDir));
    try {
      const row = upgraded.sqlite
        .prepare(
          "select lowest_price_paise as price, last_ends_at as lastEndsAt from events where id = 'old-on-sale'",
        )
        .get();
      expect(row).toEqual({ price: 49_900, lastEndsAt: '2026-12-12T16:30:00.000Z' });
      // After the first date's end, the event is still listed: it has a date to come.
      const page = pageEvents(upgraded.db, new Date('2026-12-08T00:00:00.000Z'), { city: 'Pune' });
      expect(page.items.map((e) => [e.id, e.lowestPricePaise])).toEqual([['old-on-sale', 49_900]]);
      const found = searchEventPage(upgraded.db, new Date(at), { q: 'kenny' });
      expect(found.items.map((e) => e.id)).toEqual(['old-on-sale']);
    } finally {
      upgraded.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
