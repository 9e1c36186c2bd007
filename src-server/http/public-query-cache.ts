import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app.ts';
import type { AppDeps } from '../deps.ts';

/** Public catalogue reads, the same for every visitor: the pages a rush hammers. */
const CACHEABLE = new Set(['events.list', 'events.byId', 'events.search']);
/** Upper bound on how long an entry lives with no write at all, for lists that change with the clock. */
export const PUBLIC_QUERY_MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 500;
const MAX_BODY_BYTES = 512 * 1024;

interface Entry {
  mark: string;
  storedAt: number;
  status: number;
  headers: Record<string, string>;
  /** A Uint8Array, which @hono/node-server writes straight to the socket (no web stream). */
  body: Uint8Array<ArrayBuffer>;
}

/**
 * Micro-cache for GET /trpc/{events.list,events.byId,events.search} (also batched together). Keeps the
 * finished response (already compressed, when the client accepts it) per URL and Accept-Encoding, and
 * serves it until the database changes: any committed write, in this process or another, moves
 * SQLite's write mark (`total_changes()` of this connection and `PRAGMA data_version` for others), so
 * availability shown from the cache is never older than the last reservation, payment or release. An
 * entry also expires after PUBLIC_QUERY_MAX_AGE_MS, because "upcoming" moves with the clock.
 * Responses carrying Set-Cookie (a renewed session) or any status but 200 are not stored.
 */
export function publicQueryCache(deps: Pick<AppDeps, 'sqlite' | 'clock'>): MiddlewareHandler<AppEnv> {
  const entries = new Map<string, Entry>();
  const writeMark = deps.sqlite.prepare(
    'select total_changes() as changes, (select data_version from pragma_data_version) as version',
  );
  const markNow = () => {
    const { changes, version } = writeMark.get() as { changes: number; version: number };
    return `${version}:${changes}`;
  };

  return async (c, next) => {
    if (c.req.method !== 'GET' || !isCacheable(c.req.path)) return next();
    const key = `${c.req.header('accept-encoding') ?? ''}|${c.req.url}`;
    const mark = markNow();
    const now = deps.clock.now().getTime();
    const hit = entries.get(key);
    if (hit && hit.mark === mark && now - hit.storedAt < PUBLIC_QUERY_MAX_AGE_MS) {
      entries.delete(key);
      entries.set(key, hit);
      return new Response(hit.body, { status: hit.status, headers: hit.headers });
    }
    if (hit) entries.delete(key);

    await next();
    const res = c.res;
    if (res.status !== 200 || res.headers.has('set-cookie') || !res.body) return;
    // Something written while answering (e.g. a session renewal) makes the answer's mark unknown.
    if (markNow() !== mark) return;
    const body = new Uint8Array(await res.arrayBuffer());
    c.res = new Response(body, res);
    if (body.byteLength > MAX_BODY_BYTES) return;
    entries.set(key, {
      mark,
      storedAt: now,
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body,
    });
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  };
}

function isCacheable(path: string): boolean {
  const procedures = path.slice('/trpc/'.length).split(',');
  return procedures.length > 0 && procedures.every((p) => CACHEABLE.has(p));
}
