import type Database from 'better-sqlite3';
import type { Db } from './db/client.ts';
import type { Env } from './env.ts';
import type { Logger } from './logger.ts';
import type { EInvoiceProvider } from './services/invoices/e-invoice-provider.ts';
import type { Mailer } from './services/mail/mailer.ts';
import type { PaymentGateway } from './services/payments/gateway.ts';
import type { ImageStorage } from './services/uploads/image-storage.ts';

/** Current time, injectable so tests can move it (hold expiry, session expiry, rate-limit windows). */
export interface Clock {
  now: () => Date;
  /** Waits `ms` of this clock's time (a test clock moves itself on instead of waiting). */
  sleep: (ms: number) => Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/**
 * Everything the app needs from the outside world. `createApp(deps)` builds the whole HTTP app from
 * these, so a test can build the real app on a fresh database with a fake clock and fake providers.
 * compose-deps.ts fills in the providers (gateway, mailer) from the environment.
 */
export interface AppDeps {
  /** SQLite's database, or PostgreSQL's (DATABASE_URL) typed alike: services branch on `isPostgres(db)`. */
  db: Db;
  /**
   * SQLite's connection, for the few hot paths that prepare their own statements. On PostgreSQL a
   * stand-in that throws on any use (app-database.ts): such a path checks `isPostgres(db)` first.
   */
  sqlite: Database.Database;
  env: Env;
  logger: Logger;
  clock: Clock;
  /** Secret for HMAC signatures the app issues itself (ticket QR tokens, simulator payments). */
  appSecret: string;
  /** Chosen from env by compose-deps.ts (tests may pass a fake); null when this site cannot take payments. */
  paymentGateway: PaymentGateway | null;
  /** Folder of the built client (index.html and assets); absent when only the API is served. */
  clientDir?: string;
  /** Delivers outbox mail; chosen from env by compose-deps.ts (tests may pass a fake). */
  mailer: Mailer;
  /** Where uploaded event images are kept; chosen by compose-deps.ts (DATA_DIR/uploads today). */
  images: ImageStorage;
  /** The IRP for e-invoicing; chosen by compose-deps.ts (tests may pass a fake); null when not configured. */
  eInvoiceProvider: EInvoiceProvider | null;
}
