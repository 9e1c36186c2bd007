import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { databaseFile, MIGRATIONS_FOLDER } from '../../src-server/db/client.ts';

/**
 * A database in `dataDir` as an early release (migrations up to 0002_accounts) left it, with one Contact
 * Us message in it: what an upgrade opens. Returns how many migrations the current release adds.
 */
export function createOldDatabase(dataDir: string): { pending: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const previous = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === '0002_accounts') + 1);
  const oldMigrations = path.join(dataDir, 'old-migrations');
  mkdirSync(path.join(oldMigrations, 'meta'), { recursive: true });
  writeFileSync(
    path.join(oldMigrations, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: previous }),
  );
  for (const { tag } of previous)
    cpSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(oldMigrations, `${tag}.sql`));
  const old = new Database(databaseFile(dataDir));
  old.pragma('journal_mode = WAL');
  migrate(drizzle(old), { migrationsFolder: oldMigrations });
  old.exec(
    "insert into contact_messages (first_name, last_name, email, mobile, message, created_at) values ('A', 'B', 'a@b.in', '9876543210', 'hi', '2026-11-21T00:00:00Z')",
  );
  old.close();
  rmSync(oldMigrations, { recursive: true, force: true });
  return { pending: journal.entries.length - previous.length };
}
