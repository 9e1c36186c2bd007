import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { clientAddress } from './client-address.ts';

/** What the app takes as the client address of a request from `peer` claiming `forwardedFor`. */
async function addressSeen(peer: string | undefined, forwardedFor: string, trustProxy = true) {
  const app = new Hono<AppEnv>();
  app.get('/', (c) => c.text(clientAddress(c, trustProxy)));
  const env = peer === undefined ? undefined : { incoming: { socket: { remoteAddress: peer } } };
  const res = await app.request('/', { headers: { 'x-forwarded-for': forwardedFor } }, env);
  return res.text();
}

describe('client address behind a trusted proxy (issue 37)', () => {
  it('takes the first X-Forwarded-For hop from a proxy on this machine or a private network', async () => {
    expect(await addressSeen('127.0.0.1', '198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen('::1', '198.51.100.4')).toBe('198.51.100.4');
    // Docker's bridge network (Caddy in compose.yaml) and a VPC's load balancer.
    expect(await addressSeen('172.18.0.3', '198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen('::ffff:10.0.0.9', '198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen('192.168.1.20', '198.51.100.4')).toBe('198.51.100.4');
    expect(await addressSeen('fd12:3456::1', '198.51.100.4')).toBe('198.51.100.4');
  });

  it('ignores the header from a peer on the internet, which reached the app port past the proxy', async () => {
    // HOST=0.0.0.0 with TRUST_PROXY=true: 8 made-up addresses once passed the Contact Us limit this way.
    for (const claimed of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      expect(await addressSeen('203.0.113.7', claimed)).toBe('203.0.113.7');
    }
    expect(await addressSeen('2001:db8::7', '1.1.1.1')).toBe('2001:db8::7');
    expect(await addressSeen('172.32.0.1', '1.1.1.1')).toBe('172.32.0.1');
  });

  it('ignores the header entirely without TRUST_PROXY', async () => {
    expect(await addressSeen('127.0.0.1', '198.51.100.4', false)).toBe('127.0.0.1');
  });
});
