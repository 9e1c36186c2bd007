import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';

/**
 * The client's address: the connection's peer, or, behind a trusted reverse proxy (TRUST_PROXY,
 * docs/operations.md), the first X-Forwarded-For hop, which that proxy overwrites. Without one the header
 * is whatever the client wrote, so it is ignored: otherwise a client could dodge a per-address limit, or
 * put any address in the log, by changing it.
 *
 * Even with TRUST_PROXY the header counts only when the connection comes from where a proxy can be: this
 * machine or a private network (Caddy on compose's network, nginx on localhost, a VPC's load balancer).
 * A server listening on 0.0.0.0 behind nginx is also reachable on its own port from the internet, and
 * there the header is the client's own invention (issue 37: 8 made-up addresses passed one limit).
 * A request with no socket at all (the in-process tests' `app.request`) has no peer to doubt.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const peer = incoming?.socket?.remoteAddress;
  if (trustProxy && (peer === undefined || couldBeProxy(peer))) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? 'unknown';
}

/** Loopback or private (RFC 1918, IPv6 unique-local), also as an IPv4-mapped IPv6 address. */
export function couldBeProxy(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (isIP(address) === 6) {
    const lower = address.toLowerCase();
    return lower === '::1' || lower.startsWith('fc') || lower.startsWith('fd');
  }
  return false;
}
