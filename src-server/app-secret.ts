import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { runStatements } from './db/engine/reads.ts';
import { changes, row } from './db/engine/steps.ts';
import { tablesOf } from './db/engine/tables.ts';

/** A start that must not go on, with a message for the operator (printed without a stack trace). */
export class StartupRefusal extends Error {}

export function appSecretFile(dataDir: string): string {
  return path.join(dataDir, 'app-secret');
}

/**
 * The secret that signs this installation's tickets and simulator payments: APP_SECRET, else the one
 * generated on first start into DATA_DIR/app-secret. The database remembers a fingerprint of it. A start
 * with a different secret, or with none beside a database that already has one (a database restored
 * without its `app-secret`), is refused: a new secret would make every ticket already issued fail at the
 * gate. A database from a release before the fingerprint adopts the secret it starts with.
 */
export async function appSecretFor(
  db: Db,
  options: { configured?: string; dataDir: string; now: Date },
): Promise<string> {
  const { installation } = tablesOf(db);
  const recorded = (
    await runStatements(db, (db) => row(db.select().from(installation).where(eq(installation.id, 1))))
  )?.appSecretFingerprint;
  const file = appSecretFile(options.dataDir);
  let secret = options.configured ?? (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
  if (secret === undefined) {
    if (recorded) {
      throw new StartupRefusal(
        `Jalsa cannot start: ${file} is missing, but the tickets in this database were signed with an app secret. Restore app-secret from the same backup as the database (or set APP_SECRET to it); a new secret would make every ticket already issued fail at the gate.`,
      );
    }
    secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
  }
  const fingerprint = fingerprintOf(secret);
  if (!recorded) {
    // Two servers starting at once on one new database: the first fingerprint stays, and a second
    // server with another secret is refused below rather than signing tickets the first cannot check.
    const stored = await runStatements(db, function* (db) {
      yield* changes(
        db
          .insert(installation)
          .values({ id: 1, appSecretFingerprint: fingerprint, createdAt: options.now.toISOString() })
          .onConflictDoNothing(),
      );
      return yield* row(db.select().from(installation).where(eq(installation.id, 1)));
    });
    if (stored?.appSecretFingerprint !== fingerprint) throw mismatch(options, file);
  } else if (recorded !== fingerprint) {
    throw mismatch(options, file);
  }
  return secret;
}

function mismatch(options: { configured?: string }, file: string): StartupRefusal {
  return new StartupRefusal(
    `Jalsa cannot start: the app secret (${options.configured ? 'APP_SECRET' : file}) is not the one this database's tickets were signed with. Restore the app-secret saved with this database's backup (or set APP_SECRET to it); with another secret every ticket already issued would fail at the gate.`,
  );
}

/** Tells secrets apart without storing anything that helps guess one. */
export function fingerprintOf(secret: string): string {
  return createHmac('sha256', secret).update('jalsa-app-secret-fingerprint').digest('hex').slice(0, 32);
}
