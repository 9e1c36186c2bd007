import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app.ts';

/**
 * tRPC answers with a complete body but no Content-Length, and Hono's `compress()` compresses every
 * response of unknown length, so even a 40-byte answer went through a gzip stream (measurable CPU per
 * request: docs/benchmarks.md). Giving tRPC's answers their length lets `compress()` apply its own
 * 1 KB threshold: small answers go out as they are, larger ones are compressed exactly as before.
 * Mount inside `compress()` (after it in `app.use` order).
 */
export function knownLength(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.headers.has('content-length') || res.headers.has('content-encoding')) return;
    // A Uint8Array body lets @hono/node-server write it straight to the socket.
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.byteLength === 0 && res.status === 204) return;
    const headers = new Headers(res.headers); // a Headers object keeps several Set-Cookie apart
    headers.set('content-length', String(body.byteLength));
    // Cleared first: assigning over a response makes Hono wrap the new one in yet another Response and
    // copy every header across, which on @hono/node-server builds a full Fetch Response (its body getter).
    c.res = undefined;
    c.res = new Response(body, { status: res.status, headers });
  };
}
