import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const BACKUP_PREFIX = 'jalsa-';

/**
 * Backs up a live database into a new folder `<targetDir>/jalsa-<UTC time>[-label]/` holding `jalsa.db`
 * and, when there is one, the `app-secret` that signed its tickets (a database restored without it would
 * make every issued ticket fail at the gate), and the uploaded pictures its events name (`uploads/`).
 * Then keeps only the newest `keep` backups in `targetDir`.
 *
 * `VACUUM INTO` copies one read snapshot: writers go on beside it (WAL) and cannot make it start over,
 * so it finishes in about the time it takes to write the file, also in the middle of an on-sale. (The
 * online backup API restarts whenever another connection writes, and under a steady load never ends.)
 */
export function backupDatabase(
  sqlite: Database.Database,
  options: { dataDir: string; targetDir: string; keep: number; label?: string; now?: Date },
): string {
  const folder = backupFolder(options);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    copyInto(sqlite, folder, options.dataDir);
  } catch (err) {
    // A full disk (or any failure) must not leave an empty or half-written folder that sorts as the
    // newest backup: the folder goes, and the reason is one line, not a stack trace (issue 37).
    rmSync(folder, { recursive: true, force: true });
    throw new BackupFailed(`backup into ${folder} failed: ${(err as Error).message}`);
  }
  ownedLikeDataDir(options.dataDir, options.targetDir, folder);
  pruneBackups(options.targetDir, options.keep);
  return folder;
}

/** `<targetDir>/jalsa-<UTC time>[-label]`: names that sort by time, so retention keeps the newest. */
export function backupFolder(options: { targetDir: string; label?: string; now?: Date }): string {
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  return path.join(options.targetDir, `${BACKUP_PREFIX}${stamp}${options.label ? `-${options.label}` : ''}`);
}

/** A backup that could not be made; its message is meant for the operator as it is. */
export class BackupFailed extends Error {}

function copyInto(sqlite: Database.Database, folder: string, dataDir: string): void {
  const copy = path.join(folder, 'jalsa.db');
  sqlite.prepare('VACUUM INTO ?').run(copy);
  const check = new Database(copy, { readonly: true });
  try {
    const integrity = check.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok')
      throw new Error(`the backup in ${folder} failed its integrity check: ${String(integrity)}`);
  } finally {
    check.close();
  }
  const secret = path.join(dataDir, 'app-secret');
  if (existsSync(secret)) {
    copyFileSync(secret, path.join(folder, 'app-secret'));
    chmodSync(path.join(folder, 'app-secret'), 0o600);
  }
  copyUploads(path.join(dataDir, 'uploads'), path.join(folder, 'uploads'));
}

/**
 * `npm run db:backup` run as root (cron, `sudo`) would leave root-owned folders in DATA_DIR, and the next
 * start as the service's user dies on them (EACCES, issue 37): what it creates gets DATA_DIR's owner.
 */
export function ownedLikeDataDir(dataDir: string, targetDir: string, folder: string): void {
  if (process.getuid?.() !== 0) return;
  const { uid, gid } = statSync(dataDir);
  if (uid === 0) return;
  const chownAll = (entry: string) => {
    chownSync(entry, uid, gid);
    if (statSync(entry).isDirectory()) {
      for (const name of readdirSync(entry)) chownAll(path.join(entry, name));
    }
  };
  // The backups folder itself when it lives in DATA_DIR (another folder, e.g. /mnt/backups, is the
  // operator's own), then the new backup and everything in it.
  if (!path.relative(dataDir, targetDir).startsWith('..')) chownSync(targetDir, uid, gid);
  chownAll(folder);
}

/**
 * Uploaded files never change once written (their names are their content's hash), so on the same
 * file system a hard link is a complete copy that costs no space: fourteen backups hold each picture
 * once. Elsewhere (another disk) the files are copied. Half-written temporary files are skipped.
 */
export function copyUploads(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
    }
  }
}

/** Deletes all but the newest `keep` backup folders (their names sort by time). */
export function pruneBackups(targetDir: string, keep: number): void {
  const backups = readdirSync(targetDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(BACKUP_PREFIX))
    .map((entry) => entry.name)
    .sort();
  for (const name of backups.slice(0, Math.max(0, backups.length - keep))) {
    rmSync(path.join(targetDir, name), { recursive: true, force: true });
  }
}
