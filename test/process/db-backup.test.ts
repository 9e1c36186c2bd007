import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import { backupDatabase } from '../../src-server/db/backup.ts';
import { openDatabase } from '../../src-server/db/client.ts';
import { contactMessages } from '../../src-server/db/schema/contact.ts';
import { readTicketToken, signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import { signedInBuyer } from '../helpers/fault-process.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scratches: { remove: () => void }[] = [];
afterEach(() => {
  for (const s of scratches.splice(0)) s.remove();
});

function scratch() {
  const s = scratchDatabase('jalsa-backup-');
  scratches.push(s);
  return s;
}

/** `npm run db:backup -- <args>` on `dataDir`; returns the backup folder it reports. */
function runBackup(dataDir: string, args: string[] = []): string {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return / to (\S+) \(keeping/.exec(out)![1]!;
}

function addMessages(db: ReturnType<typeof openDatabase>['db'], n: number) {
  for (let i = 0; i < n; i++) {
    db.insert(contactMessages)
      .values({
        firstName: `F${i}`,
        lastName: 'L',
        email: 'a@b.in',
        mobile: '9876543210',
        message: 'hi',
        createdAt: '2026-11-21T00:00:00Z',
      })
      .run();
  }
}

describe('npm run db:backup (issue 22)', () => {
  it('copies a live database, commits still in the WAL included, with its app-secret, into a checked folder', async () => {
    const { dataDir, database } = scratch();
    await appSecretFor(database.db, { dataDir, now: new Date() });
    database.sqlite.pragma('wal_autocheckpoint = 0');
    addMessages(database.db, 25);

    const folder = runBackup(dataDir);
    expect(path.dirname(folder)).toBe(path.join(dataDir, 'backups'));
    const copy = new Database(path.join(folder, 'jalsa.db'), { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select count(*) as n from contact_messages').get()).toEqual({ n: 25 });
    copy.close();
    const secret = path.join(folder, 'app-secret');
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });

  it('keeps the uploaded pictures with the database (linked, so each is stored once), in the folder given too', () => {
    const { dataDir, database } = scratch();
    mkdirSync(path.join(dataDir, 'uploads'));
    const name = `${'ab'.repeat(16)}.600x800.webp`;
    writeFileSync(path.join(dataDir, 'uploads', name), 'picture bytes');
    writeFileSync(path.join(dataDir, 'uploads', '.half-written.tmp'), 'partial');
    const first = backupDatabase(database.sqlite, {
      dataDir,
      targetDir: path.join(dataDir, 'backups'),
      keep: 3,
    });
    const second = backupDatabase(database.sqlite, {
      dataDir,
      targetDir: path.join(dataDir, 'backups'),
      keep: 3,
      label: 'again',
    });
    for (const folder of [first, second]) {
      expect(readdirSync(path.join(folder, 'uploads'))).toEqual([name]);
      expect(readFileSync(path.join(folder, 'uploads', name), 'utf8')).toBe('picture bytes');
    }
    expect(statSync(path.join(second, 'uploads', name)).ino).toBe(
      statSync(path.join(dataDir, 'uploads', name)).ino,
    );
  });

  it('finishes while another process keeps writing, and keeps only the newest N', async () => {
    const { dataDir } = scratch();
    const writer = startWriter(dataDir);
    try {
      await writer.rowsAtLeast(200);
      const target = path.join(dataDir, 'elsewhere');
      const folders = [runBackup(dataDir, [target, '--keep', '2'])];
      const during = await writer.rows();
      folders.push(runBackup(dataDir, [target, '--keep', '2']));
      folders.push(runBackup(dataDir, [target, '--keep', '2']));
      // The writer never stopped: backups do not wait for a quiet moment.
      await writer.rowsAtLeast(during + 50);
      expect(readdirSync(target).sort()).toEqual(folders.slice(1).map((f) => path.basename(f)));
      const copy = new Database(path.join(folders[2]!, 'jalsa.db'), { readonly: true });
      expect(
        (copy.prepare('select count(*) as n from contact_messages').get() as { n: number }).n,
      ).toBeGreaterThan(during);
      copy.close();
    } finally {
      writer.stop();
    }
  }, 60_000);

  it('restored into a fresh data folder, a ticket issued before still verifies; without its app-secret the start is refused', async () => {
    const { dataDir, database } = scratch();
    const secret = await appSecretFor(database.db, { dataDir, now: new Date() });
    const buyer = signedInBuyer(database);
    const { bookingId } = insertBookingWithEvent(database.db, new Date(), { userId: buyer.userId });
    const token = signTicketToken(secret, bookingId);
    const folder = runBackup(dataDir);

    // Restore as docs/operations.md says: both files into a new DATA_DIR.
    const restoredDir = path.join(dataDir, 'restored');
    mkdirSync(restoredDir);
    copyFileSync(path.join(folder, 'jalsa.db'), path.join(restoredDir, 'jalsa.db'));
    copyFileSync(path.join(folder, 'app-secret'), path.join(restoredDir, 'app-secret'));
    const reopened = openDatabase(path.join(restoredDir, 'jalsa.db'));
    const restoredSecret = await appSecretFor(reopened.db, { dataDir: restoredDir, now: new Date() });
    expect(readTicketToken(restoredSecret, token)?.bookingId).toBe(bookingId);
    reopened.close();

    // The database alone, or with another secret: the real server refuses, in one sentence, and mints nothing.
    const withoutSecret = path.join(dataDir, 'without-secret');
    mkdirSync(withoutSecret);
    copyFileSync(path.join(folder, 'jalsa.db'), path.join(withoutSecret, 'jalsa.db'));
    const refused = startServer(withoutSecret);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('app-secret is missing, but the tickets in this database were signed');
    expect(refused.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(path.join(withoutSecret, 'app-secret'))).toBe(false);

    writeFileSync(path.join(withoutSecret, 'app-secret'), 'another-secret-0123456789abcdef0123456789', {
      mode: 0o600,
    });
    const wrong = startServer(withoutSecret);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('is not the one this database');
  }, 60_000);

  it('backs the database up by itself before applying pending migrations', () => {
    // A database as the previous release (migrations up to 0002_accounts) left it, with data in it.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-upgrade-backup-'));
    scratches.push({ remove: () => rmSync(dataDir, { recursive: true, force: true }) });
    const journal = JSON.parse(readFileSync(path.join(ROOT, 'migrations/meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const previous = journal.entries.slice(
      0,
      journal.entries.findIndex((e) => e.tag === '0002_accounts') + 1,
    );
    const oldMigrations = path.join(dataDir, 'old-migrations');
    mkdirSync(path.join(oldMigrations, 'meta'), { recursive: true });
    writeFileSync(
      path.join(oldMigrations, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: previous }),
    );
    for (const { tag } of previous)
      cpSync(path.join(ROOT, `migrations/${tag}.sql`), path.join(oldMigrations, `${tag}.sql`));
    const old = new Database(path.join(dataDir, 'jalsa.db'));
    old.pragma('journal_mode = WAL');
    migrate(drizzle(old), { migrationsFolder: oldMigrations });
    old.exec(
      "insert into contact_messages (first_name, last_name, email, mobile, message, created_at) values ('A', 'B', 'a@b.in', '9876543210', 'hi', '2026-11-21T00:00:00Z')",
    );
    old.close();

    const backups = path.join(dataDir, 'backups');
    const lines: string[] = [];
    openDatabase(path.join(dataDir, 'jalsa.db'), {
      backupBeforeMigrating: backups,
      log: (line) => lines.push(line),
    }).close();
    const [folder] = readdirSync(backups);
    expect(folder).toMatch(/-before-upgrade$/);
    expect(lines[0]).toContain(`before applying ${journal.entries.length - previous.length} migration(s)`);
    const copy = new Database(path.join(backups, folder!, 'jalsa.db'), { readonly: true });
    expect(copy.prepare('select count(*) as n from contact_messages').get()).toEqual({ n: 1 });
    // The copy is the database as it was: no table of a later migration.
    expect(copy.prepare("select count(*) as n from sqlite_master where name = 'installation'").get()).toEqual(
      { n: 0 },
    );
    copy.close();

    // Nothing pending on the next start: no second backup.
    openDatabase(path.join(dataDir, 'jalsa.db'), { backupBeforeMigrating: backups }).close();
    expect(readdirSync(backups)).toHaveLength(1);
  });
});

function startServer(dataDir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src-server/index.ts'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', PORT: '0' },
  });
}

/** A second process inserting rows as fast as it can until stopped, as a server in an on-sale would. */
function startWriter(dataDir: string) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(path.join(dataDir, 'jalsa.db'))});
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare("insert into contact_messages (first_name, last_name, email, mobile, message, created_at) values ('W', 'L', 'w@b.in', '9876543210', 'load', '2026-11-21T00:00:00Z')");
    for (;;) insert.run();
  `;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'ignore' });
  const reader = new Database(path.join(dataDir, 'jalsa.db'), { readonly: true });
  const rows = async () =>
    (reader.prepare('select count(*) as n from contact_messages').get() as { n: number }).n;
  return {
    rows,
    async rowsAtLeast(n: number) {
      const deadline = Date.now() + 20_000;
      while ((await rows()) < n) {
        if (Date.now() > deadline) throw new Error(`the writer did not reach ${n} rows`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop() {
      child.kill('SIGKILL');
      reader.close();
    },
  };
}
