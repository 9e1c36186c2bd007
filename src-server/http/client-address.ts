import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';

/**
 * The client's address: the connection's peer, or, behind a trusted reverse proxy (TRUST_PROXY,
 * docs/operations.md), the first X-Forwarded-For hop, which that proxy overwrites. Without one the header
 * is whatever the client wrote, so it is ignored: otherwise a client could dodge a per-address limit, or
 * put any address in the log, by changing it.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
