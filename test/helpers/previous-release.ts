import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_FOLDER } from '../../src-server/db/client.ts';

/**
 * An installation the previous release (v0.2.0) made with its own code: the rows of every table as
 * test/fixtures/previous-release/make-v0.2.0-installation.ts.txt wrote them, and what its test world
 * knows (the app secret, cookies of sessions in it, the QR codes its buyers were shown).
 */
export interface PreviousReleaseInstallation {
  madeBy: string;
  appSecret: string;
  event: {
    eventId: string;
    slotId: string;
    raw: { dateId: string; ticketTypeIds: string[] };
  };
  organiserCookie: string;
  staffCookie: string;
  bookings: Record<
    'checkedIn' | 'cancelled' | 'unscanned' | 'toRefund',
    { bookingId: string; buyerCookie: string; qrToken?: string }
  >;
  tables: Record<string, Record<string, string | number | null>[]>;
}

export const V0_2_0_INSTALLATION: PreviousReleaseInstallation = JSON.parse(
  readFileSync(
    path.resolve(import.meta.dirname, '../fixtures/previous-release/v0.2.0-installation.json'),
    'utf8',
  ),
);

/**
 * Writes `installation` at `file` as its release left it: that release's migrations (this release's
 * first ones, checked to be the same by their hashes), then its rows. Opening the file with this release
 * (`openDatabase`, as a start does) applies the rest.
 */
export function restorePreviousRelease(file: string, installation = V0_2_0_INSTALLATION): void {
  const applied = installation.tables.__drizzle_migrations ?? [];
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const previous = journal.entries.slice(0, applied.length);
  const folder = mkdtempSync(path.join(tmpdir(), 'jalsa-old-migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: previous }));
  for (const { tag } of previous)
    cpSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  try {
    sqlite.pragma('journal_mode = WAL');
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const made = sqlite.prepare('SELECT hash, created_at FROM __drizzle_migrations ORDER BY id').all();
    const recorded = applied.map(({ hash, created_at }) => ({ hash, created_at }));
    if (JSON.stringify(made) !== JSON.stringify(recorded)) {
      throw new Error(
        `${installation.madeBy}: this release's first ${applied.length} migrations are not the ones that made it`,
      );
    }
    // Rows in any order: the foreign keys are checked once all are in.
    sqlite.pragma('foreign_keys = OFF');
    sqlite.exec('BEGIN');
    // The migrations seed the catalogue's counter; the installation's own value replaces it.
    sqlite.exec('DELETE FROM catalog_version');
    for (const [table, rows] of Object.entries(installation.tables)) {
      if (table === '__drizzle_migrations') continue;
      for (const row of rows) {
        const columns = Object.keys(row);
        sqlite
          .prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          .run(...columns.map((c) => row[c]));
      }
    }
    sqlite.exec('COMMIT');
    const broken = sqlite.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0)
      throw new Error(`${installation.madeBy}: rows break foreign keys: ${JSON.stringify(broken)}`);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
