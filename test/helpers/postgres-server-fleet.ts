import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AccountRole } from '../../shared/organiser-schemas.ts';
import type { Db } from '../../src-server/db/client.ts';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { sessions, users } from '../../src-server/db/schema-pg/accounts.ts';
import {
  generateSessionToken,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionIdOf,
} from '../../src-server/services/accounts/sessions.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { allowLocalServers } from '../mocks/server.ts';
import { FAULT_APP_SECRET } from './fault-process.ts';
import { ONE_ADDRESS_CROWD_ENV, type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * One server of a fleet: the real `src-server/index.ts` on the fleet's PostgreSQL, with its own DATA_DIR
 * (removed when it stops). `stop` is a clean shutdown (SIGTERM: it gives its job leads up); `kill` is
 * kill -9 (its leads go only when PostgreSQL notices the connection gone).
 */
export interface FleetServer extends ServerProcess {
  kill: () => Promise<void>;
}

export interface Fleet {
  /** `servers[i]` as it is now: `restart(i)` puts a new process in its place. */
  servers: FleetServer[];
  /** Whether `servers[i]` is running (neither stopped nor killed, nor exited by itself). */
  alive: (i: number) => boolean;
  /**
   * kill -9 of `servers[i]` if it still runs, then a new server in its place: same settings, same
   * database, a new port and data folder (as a supervisor brings a crashed server back).
   */
  restart: (i: number) => Promise<FleetServer>;
  /** Stops every server still running (SIGTERM), for afterAll. */
  stopAll: () => Promise<void>;
}

/**
 * `n` real server processes on one PostgreSQL database (DATABASE_URL), as an installation of several
 * servers runs (ADR 0035): one APP_SECRET (the fault tests', so a test can sign simulator webhooks too),
 * the offline simulator, every background job every 200 ms, the log at info (job leadership and what
 * jobs did are said there), the per-address hold cap off (the test's crowd comes from one address).
 * `env` adds or overrides settings. Started at once: PostgreSQL's migrator lock lets one apply each
 * migration while the others wait.
 */
export async function startFleet(
  n: number,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Fleet> {
  allowLocalServers();
  const folders: string[] = [];
  const running = new Set<ServerProcess>();
  const startOne = async (): Promise<FleetServer> => {
    allowLocalServers();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-pg-fleet-'));
    folders.push(dataDir);
    const server = await startServerProcess({
      dataDir,
      env: {
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: '4',
        APP_SECRET: FAULT_APP_SECRET,
        SEED_DEMO_DATA: 'false',
        JOB_INTERVAL_MS: '200',
        LOG_LEVEL: 'info',
        ...ONE_ADDRESS_CROWD_ENV,
        ...env,
      },
    });
    running.add(server);
    server.child.once('exit', () => running.delete(server));
    const remove = () => rmSync(dataDir, { recursive: true, force: true });
    return {
      ...server,
      stop: async (signal) => {
        await server.stop(signal);
        remove();
      },
      kill: async () => {
        await server.stop('SIGKILL');
        remove();
      },
    };
  };
  const started = await Promise.allSettled(Array.from({ length: n }, startOne));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    servers,
    stopAll,
    alive: (i) =>
      servers[i] !== undefined && [...running].some((server) => server.child === servers[i]!.child),
    restart: async (i) => {
      await servers[i]!.kill();
      servers[i] = await startOne();
      return servers[i]!;
    },
  };
}

/**
 * `count` verified accounts, each signed in (a session row, as a sign-in writes it), written straight
 * into the database in a few statements rather than through argon2 sign-ups: the Cookie headers.
 */
export async function signedInBuyersOnPostgres(
  db: PgDb,
  count: number,
  label = 'buyer',
): Promise<SignedInAccount[]> {
  const now = new Date();
  const signedIn: SignedInAccount[] = [];
  for (let from = 0; from < count; from += 1_000) {
    const accounts = Array.from({ length: Math.min(1_000, count - from) }, (_, k) => {
      const id = randomUUID();
      const token = generateSessionToken();
      const email = `${label}-${from + k}-${id.slice(0, 8)}@example.com`;
      signedIn.push({ userId: id, email, cookie: `${SESSION_COOKIE}=${token}` });
      return {
        user: {
          id,
          email,
          name: `Buyer ${from + k}`,
          phone: '9876543210',
          // Holding seats needs a verified address (issue 19).
          isEmailVerified: true,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        },
        session: {
          id: sessionIdOf(token),
          userId: id,
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
          createdAt: now.toISOString(),
        },
      };
    });
    await db.insert(users).values(accounts.map((a) => a.user));
    await db.insert(sessions).values(accounts.map((a) => a.session));
  }
  return signedIn;
}

export interface SignedInAccount {
  userId: string;
  email: string;
  /** The Cookie header of the account's session. */
  cookie: string;
}

/** A signed-in account with an installation-wide role (as `npm run user:role` grants it): its cookie. */
export async function signedInWithRole(db: PgDb, role: AccountRole): Promise<string> {
  const [account] = await signedInBuyersOnPostgres(db, 1, role);
  await setAccountRoleByEmail(
    db as unknown as Db,
    { email: account!.email, role, grantedBy: null },
    new Date(),
  );
  return account!.cookie;
}
