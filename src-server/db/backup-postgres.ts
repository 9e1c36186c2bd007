import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { appSecretFile, fingerprintOf } from '../app-secret.ts';
import { BackupFailed, backupFolder, copyUploads, ownedLikeDataDir, pruneBackups } from './backup.ts';

const run = promisify(execFile);

/** The dump's name inside a backup folder; `pg_restore --no-owner -d <url> jalsa.pgdump` restores it. */
export const PG_DUMP_FILE = 'jalsa.pgdump';

export interface PostgresBackup {
  folder: string;
  /** The server's version, e.g. "15.18". */
  serverVersion: string;
  /** Where the app secret saved beside the dump came from; null when none was saved. */
  secretFrom: 'APP_SECRET' | 'app-secret' | null;
  /** The dump is good but the backup lacks what a restore needs (the app secret): say so, exit non-zero. */
  warning?: string;
}

/**
 * `npm run db:backup` on PostgreSQL (ADR 0035): `pg_dump --format=custom --no-owner` of the database into
 * a new folder `<targetDir>/jalsa-<UTC time>/` named and pruned as SQLite's backups are (backup.ts), with
 * the app secret that signed its tickets (a database restored without it fails every issued ticket at
 * the gate) and the uploads in DATA_DIR. pg_dump reads one snapshot while the servers go on selling.
 *
 * pg_dump refuses a server of a newer major version than its own, after connecting; that is checked
 * first so the message names the package to install. The password travels in PGPASSWORD, not on the
 * command line, where every user of the machine could read it in the process list.
 */
export async function backupPostgres(options: {
  databaseUrl: string;
  dataDir: string;
  targetDir: string;
  keep: number;
  /** APP_SECRET when set; otherwise DATA_DIR/app-secret is used if it exists. */
  appSecret?: string;
  now?: Date;
  /** The programs to run (tests point these elsewhere); default: pg_dump and pg_restore on PATH. */
  pgDump?: string;
  pgRestore?: string;
}): Promise<PostgresBackup> {
  const pgDump = options.pgDump ?? 'pg_dump';
  const pgRestore = options.pgRestore ?? 'pg_restore';
  const server = await readServer(options.databaseUrl);
  await requireDumpCanRead(pgDump, server.major, server.version);
  const secret = secretToKeep(options, server.fingerprint);

  const folder = backupFolder({ targetDir: options.targetDir, now: options.now });
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    const dump = path.join(folder, PG_DUMP_FILE);
    const { dbname, env } = libpqTarget(options.databaseUrl);
    await run(pgDump, ['--format=custom', '--no-owner', `--file=${dump}`, `--dbname=${dbname}`], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    // The archive's table of contents reads back: the file is whole (the integrity check of SQLite's).
    await run(pgRestore, ['--list', dump], { maxBuffer: 64 * 1024 * 1024 });
    if (secret.value !== undefined) {
      writeFileSync(path.join(folder, 'app-secret'), secret.value, { mode: 0o600 });
      chmodSync(path.join(folder, 'app-secret'), 0o600);
    }
    copyUploads(path.join(options.dataDir, 'uploads'), path.join(folder, 'uploads'));
  } catch (err) {
    // As on SQLite: no half-written folder may sort as the newest backup.
    rmSync(folder, { recursive: true, force: true });
    const stderr = String((err as { stderr?: string }).stderr ?? '').trim();
    throw new BackupFailed(`backup into ${folder} failed: ${stderr || (err as Error).message}`);
  }
  if (existsSync(options.dataDir)) ownedLikeDataDir(options.dataDir, options.targetDir, folder);
  pruneBackups(options.targetDir, options.keep);
  return { folder, serverVersion: server.version, secretFrom: secret.from, warning: secret.warning };
}

/** A URL fit for a log line: the password replaced. */
export function redactedUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(a DATABASE_URL that is not a URL)';
  }
}

/** The server's major version (what pg_dump compares) and the app secret's recorded fingerprint. */
async function readServer(
  databaseUrl: string,
): Promise<{ major: number; version: string; fingerprint: string | null }> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new BackupFailed(
      `cannot connect to PostgreSQL at ${redactedUrl(databaseUrl)}: ${(err as Error).message}`,
    );
  }
  try {
    const { rows } = await client.query<{ num: string; version: string }>(
      "select current_setting('server_version_num') as num, current_setting('server_version') as version",
    );
    const { num, version } = rows[0]!;
    const installed = await client.query<{ present: boolean }>(
      "select to_regclass('installation') is not null as present",
    );
    let fingerprint: string | null = null;
    if (installed.rows[0]?.present) {
      const row = await client.query<{ fingerprint: string }>(
        'select app_secret_fingerprint as fingerprint from installation where id = 1',
      );
      fingerprint = row.rows[0]?.fingerprint ?? null;
    }
    return { major: Math.floor(Number(num) / 10_000), version: version.split(' ')[0]!, fingerprint };
  } finally {
    await client.end();
  }
}

async function requireDumpCanRead(pgDump: string, serverMajor: number, serverVersion: string) {
  let out: string;
  try {
    out = (await run(pgDump, ['--version'])).stdout;
  } catch (err) {
    const missing = (err as { code?: string }).code === 'ENOENT';
    throw new BackupFailed(
      missing
        ? `pg_dump is not installed (${pgDump} was not found on PATH): install PostgreSQL's client programs, version ${serverMajor} or newer (Debian/Ubuntu: apt-get install postgresql-client-${serverMajor}; the server runs ${serverVersion}).`
        : `${pgDump} --version failed: ${(err as Error).message}`,
    );
  }
  const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(out)?.[1] ?? Number.NaN);
  if (!Number.isFinite(major)) {
    throw new BackupFailed(`${pgDump} --version answered "${out.trim()}", not a PostgreSQL pg_dump.`);
  }
  if (major < serverMajor) {
    throw new BackupFailed(
      `pg_dump ${major} is older than the server (PostgreSQL ${serverVersion}), and pg_dump cannot dump a newer server: install postgresql-client-${serverMajor} (or newer) and put its pg_dump first on PATH (Debian keeps it in /usr/lib/postgresql/${serverMajor}/bin).`,
    );
  }
}

/**
 * The secret saved with the dump: APP_SECRET, else DATA_DIR/app-secret. One whose fingerprint is not the
 * database's would restore a database whose tickets all fail at the gate, so it is not saved, and the
 * backup says why (the dump itself is still kept: a backup of the sales is worth having).
 */
function secretToKeep(
  options: { appSecret?: string; dataDir: string },
  recorded: string | null,
): { value?: string; from: PostgresBackup['secretFrom']; warning?: string } {
  const file = appSecretFile(options.dataDir);
  const from = options.appSecret !== undefined ? 'APP_SECRET' : existsSync(file) ? 'app-secret' : null;
  const value =
    from === 'APP_SECRET' ? options.appSecret : from ? readFileSync(file, 'utf8').trim() : undefined;
  if (value === undefined || from === null) {
    return recorded
      ? {
          from: null,
          warning: `no app secret saved: neither APP_SECRET nor ${file} is set here, and the database's tickets are signed with one. Run the backup with APP_SECRET set as the servers have it.`,
        }
      : { from: null };
  }
  if (recorded && fingerprintOf(value) !== recorded) {
    return {
      from: null,
      warning: `no app secret saved: ${from === 'APP_SECRET' ? 'APP_SECRET' : file} is not the secret this database's tickets were signed with. Run the backup with APP_SECRET set as the servers have it.`,
    };
  }
  return { value, from };
}

/** The URL without its password (which goes to PGPASSWORD) for pg_dump's --dbname. */
function libpqTarget(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env = { ...process.env };
  if (url.password) {
    env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = '';
  }
  return { dbname: url.toString(), env };
}
