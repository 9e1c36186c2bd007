import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';

/**
 * Answers made from a complete body carry no Content-Length, and Hono's `compress()` compresses every
 * response of unknown length: even `/healthz`'s 15 bytes went through a gzip stream, and setting `Vary`
 * on the way turned @hono/node-server's light Response into a full Fetch Response with a web stream
 * (issue 21: 54 µs against 27 with the length known; docs/benchmarks.md). Giving them their length lets
 * `compress()` apply its own 1 KB threshold: small answers go out as they are, larger ones are
 * compressed exactly as before. Mount inside `compress()` (after it in `app.use` order).
 *
 * Every answer made from a string (`c.json()`, `c.text()`, `c.html()`, tRPC's) gets its length. With
 * `readAnyBody`, any other body is read to its end first (tRPC, whose answers are small); without it
 * such answers (files, streams) are left as they are, never buffered.
 */
export function knownLength(options: { readAnyBody?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.headers.has('content-length') || res.headers.has('content-encoding')) return;
    // A string or Uint8Array body lets @hono/node-server write it straight to the socket.
    const text = stringBodyOf(res);
    if (text !== undefined) {
      const length = Buffer.byteLength(text);
      if (length === 0 && res.status === 204) return;
      // The light Response's headers are its own Headers object, written as they are: set in place,
      // without copying them into a new Response (issue 21).
      res.headers.set('content-length', String(length));
      return;
    }
    if (!options.readAnyBody) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const length = body.byteLength;
    if (length === 0 && res.status === 204) return;
    const headers = new Headers(res.headers); // a Headers object keeps several Set-Cookie apart
    headers.set('content-length', String(length));
    // Cleared first: assigning over a response makes Hono wrap the new one in yet another Response and
    // copy every header across, which on @hono/node-server builds a full Fetch Response (its body getter).
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  };
}

let cacheSymbol: symbol | undefined;

/**
 * The body of a response made from a string by @hono/node-server's lightweight Response (what
 * `new Response(json)` builds in the server, tRPC's answers included), read where that class keeps it:
 * under its own symbol named 'cache', as [status, body, headers]. Reading it through `arrayBuffer()`
 * instead first builds the full Fetch Response the class exists to avoid, about 30 µs per tRPC answer
 * (docs/benchmarks.md). Undefined for any other response, which is then read the standard way, as it
 * would be if a new version of @hono/node-server kept its body elsewhere: slower, never wrong.
 */
export function stringBodyOf(res: Response): string | undefined {
  // The symbol is one per process: looked up on the first response that has it, then reused.
  let key = cacheSymbol;
  if (!key || !(key in res)) {
    key = Object.getOwnPropertySymbols(res).find((symbol) => symbol.description === 'cache');
    if (key) cacheSymbol = key;
  }
  const cached: unknown = key && (res as unknown as Record<symbol, unknown>)[key];
  return Array.isArray(cached) && typeof cached[1] === 'string' ? cached[1] : undefined;
}
