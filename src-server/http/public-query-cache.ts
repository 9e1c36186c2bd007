import type Database from 'better-sqlite3';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { PgDb } from '../db/engine/postgres.ts';
import { isPostgres } from '../db/engine/reads.ts';
import type { AppDeps } from '../deps.ts';
import { REQUEST_ID_HEADER } from './request-context.ts';

/**
 * Public catalogue reads, the same for every visitor: the pages a rush hammers. Lists and searches
 * show no availability, so only a change to an event (`catalog_version`) makes their answers old;
 * the event detail shows what is left, so any write does.
 */
const CATALOGUE_TEXT = new Set([
  'events.list',
  'events.page',
  'events.home',
  'events.search',
  'events.searchPage',
  'events.suggest',
]);
const CACHEABLE = new Set([...CATALOGUE_TEXT, 'events.byId']);
/** The query parameters tRPC reads; any other is ignored, so it cannot make a new entry (issue 25). */
const KEY_PARAMETERS = ['batch', 'input'] as const;
/** The request header that skips the cache when it carries PUBLIC_CACHE_BYPASS_TOKEN (benchmarks only). */
export const CACHE_BYPASS_HEADER = 'x-jalsa-cache-bypass';
/** Upper bound on how long an entry lives with no write at all, for lists that change with the clock. */
export const PUBLIC_QUERY_MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 500;
const MAX_BODY_BYTES = 512 * 1024;

interface Entry {
  mark: string;
  storedAt: number;
  status: number;
  /** Every header of the finished response (security headers included) except the request id. */
  headers: Record<string, string>;
  /** A Uint8Array, which @hono/node-server writes straight to the socket (no web stream). */
  body: Uint8Array<ArrayBuffer>;
}

/**
 * Micro-cache for GET /trpc/events.* catalogue reads (also batched together). Keeps the finished
 * response (already compressed, when the client accepts it) per path, tRPC's own parameters (`input`,
 * `batch`; any other parameter is ignored, so `&_=1` cannot make an entry) and Accept-Encoding.
 * - Lists and searches (CATALOGUE_TEXT) show no availability: they are served until an event changes,
 *   i.e. until `catalog_version` moves (services/catalog/refresh-event-listing.ts, and a trigger on any
 *   status change), so holds, bookings and sign-ins during an on-sale leave them cached (issue 25).
 * - The event detail shows what is left: it is served until any committed write, in this process or
 *   another, moves SQLite's write mark (`total_changes()` of this connection and `PRAGMA data_version`
 *   for others), so availability is never older than the last reservation, payment or release.
 * An entry also expires after PUBLIC_QUERY_MAX_AGE_MS, because "upcoming" moves with the clock.
 * Responses carrying Set-Cookie (a renewed session) or any status but 200 are not stored.
 *
 * Mounted right inside `requestContext` and outside the middlewares that add headers, so an entry
 * holds the response exactly as it left the app, security headers and all. A hit is then sent with
 * those headers as one plain object plus its own request id: the same bytes a miss sends, without
 * building a Headers object and setting a dozen headers one by one per request (docs/benchmarks.md).
 */
export function publicQueryCache(
  deps: Pick<AppDeps, 'sqlite' | 'clock'> & {
    db?: AppDeps['db'];
    env?: Pick<AppDeps['env'], 'PUBLIC_CACHE_BYPASS_TOKEN'>;
  },
): MiddlewareHandler<AppEnv> {
  const marks = deps.db && isPostgres(deps.db) ? postgresMarks(deps.db) : sqliteMarks(deps.sqlite);
  return cacheWith(marks, deps);
}

/**
 * How the cache knows an answer is still current: `catalogue` for lists and searches (the catalogue's
 * version), `any` for the event detail (any committed write), or null where the engine cannot tell
 * cheaply, and the detail is then not cached at all.
 */
interface Marks {
  catalogue: () => string | Promise<string>;
  any: (() => string) | null;
}

/** SQLite's marks: read on the thread, without a promise, on every request (the rush's hot path). */
function sqliteMarks(sqlite: Database.Database): Marks {
  // Two single-value statements: a third of the cost of one query selecting both (≈ 1.2 against 2.4 µs).
  const ownChanges = sqlite.prepare('select total_changes()').pluck();
  const othersVersion = sqlite.prepare('pragma data_version').pluck();
  const writeMark = () => `${othersVersion.get() as number}:${ownChanges.get() as number}`;
  // Prepared on first use: the table comes with a migration, which runs before anything is served.
  let catalogVersion: Database.Statement | undefined;
  // catalog_version only moves in a committed write, which moves the write mark (this process's or
  // another's): while the mark stands, the version read at it still holds, and no read is needed.
  let catalogReadAt = '';
  let catalogAtMark = '';
  const catalogMark = () => {
    const at = writeMark();
    if (at !== catalogReadAt) {
      catalogVersion ??= sqlite.prepare('select version from catalog_version where id = 1').pluck();
      catalogAtMark = `c${catalogVersion.get() as number}`;
      catalogReadAt = at;
    }
    return catalogAtMark;
  };
  return { catalogue: catalogMark, any: writeMark };
}

/**
 * PostgreSQL's: the catalogue's version read on the pool per request (its one-row table, moved by the
 * same trigger and listing refresh as SQLite's). PostgreSQL has no counter of every committed write
 * that is cheap to read, so the event detail, which shows what is left, is not cached there.
 */
function postgresMarks(db: AppDeps['db']): Marks {
  const pool = (db as unknown as PgDb).$client;
  return {
    catalogue: async () => {
      const { rows } = await pool.query<{ version: number }>(
        'select version from catalog_version where id = 1',
      );
      return `c${rows[0]?.version ?? 0}`;
    },
    any: null,
  };
}

function cacheWith(
  marks: Marks,
  deps: Pick<AppDeps, 'clock'> & { env?: Pick<AppDeps['env'], 'PUBLIC_CACHE_BYPASS_TOKEN'> },
): MiddlewareHandler<AppEnv> {
  const entries = new Map<string, Entry>();
  /** Answers being computed, so a burst of misses for one URL computes it once (a rush after a write). */
  const computing = new Map<string, { mark: string; entry: Promise<Entry | undefined> }>();
  const bypassToken = deps.env?.PUBLIC_CACHE_BYPASS_TOKEN;

  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const procedures = cacheableProcedures(c.req.path);
    if (!procedures) return next();
    if (bypassToken && c.req.header(CACHE_BYPASS_HEADER) === bypassToken) return next();
    const markNow = procedures.every((p) => CATALOGUE_TEXT.has(p)) ? marks.catalogue : marks.any;
    if (!markNow) return next();
    const key = `${c.req.header('accept-encoding') ?? ''}|${cacheKey(c.req.url)}`;
    const marked = markNow();
    const mark = typeof marked === 'string' ? marked : await marked;
    const now = deps.clock.now().getTime();
    const hit = entries.get(key);
    if (hit && hit.mark === mark && now - hit.storedAt < PUBLIC_QUERY_MAX_AGE_MS) {
      entries.delete(key);
      entries.set(key, hit);
      return cachedResponse(hit, c.get('requestId'));
    }
    if (hit) entries.delete(key);

    // Another request is computing this answer from the same database state: its answer is ours.
    const inFlight = computing.get(key);
    if (inFlight && inFlight.mark === mark) {
      const entry = await inFlight.entry;
      if (entry) return cachedResponse(entry, c.get('requestId'));
      return next();
    }

    let settle: (entry: Entry | undefined) => void = () => {};
    const flight = { mark, entry: new Promise<Entry | undefined>((resolve) => (settle = resolve)) };
    computing.set(key, flight);
    try {
      await next();
      const entry = await storable(c, mark, markNow, now);
      if (entry) {
        entries.set(key, entry);
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      }
      settle(entry);
    } finally {
      settle(undefined); // no-op once settled; releases waiting requests if the answer failed
      if (computing.get(key) === flight) computing.delete(key);
    }
  };

  /** The finished answer as an entry, or undefined when it must not be shared. */
  async function storable(
    c: Context<AppEnv>,
    mark: string,
    markNow: () => string | Promise<string>,
    now: number,
  ): Promise<Entry | undefined> {
    const res = c.res;
    if (res.status !== 200 || res.headers.has('set-cookie') || !res.body) return undefined;
    // Something written while answering (e.g. a session renewal) makes the answer's mark unknown.
    const after = markNow();
    if ((typeof after === 'string' ? after : await after) !== mark) return undefined;
    const body = new Uint8Array(await res.arrayBuffer());
    c.res = new Response(body, res);
    c.res.headers.set('content-length', String(body.byteLength));
    if (body.byteLength > MAX_BODY_BYTES) return undefined;
    const headers = Object.fromEntries(c.res.headers);
    delete headers[REQUEST_ID_HEADER];
    return { mark, storedAt: now, status: res.status, headers, body };
  }
}

function cachedResponse(entry: Entry, requestId: string): Response {
  // Object.assign copies the stored headers about three times faster than object spread (≈ 0.5 µs).
  const headers = Object.assign({}, entry.headers, { [REQUEST_ID_HEADER]: requestId });
  return new Response(entry.body, { status: entry.status, headers });
}

/** The procedures of a cacheable request (every one of them must be), or undefined. */
function cacheableProcedures(path: string): string[] | undefined {
  const procedures = path.slice('/trpc/'.length).split(',');
  return procedures.length > 0 && procedures.every((p) => CACHEABLE.has(p)) ? procedures : undefined;
}

/** The path and only the parameters tRPC reads, in a fixed order: `&_=1` and friends share the entry. */
function cacheKey(url: string): string {
  const parsed = new URL(url);
  const params = KEY_PARAMETERS.flatMap((name) => {
    const value = parsed.searchParams.get(name);
    return value === null ? [] : [`${name}=${value}`];
  });
  return `${parsed.pathname}?${params.join('&')}`;
}
