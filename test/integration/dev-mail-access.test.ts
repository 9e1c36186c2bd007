import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** What @hono/node-server passes as the request's env: the Node request, with its socket. */
const connectionFrom = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

describe('the development mailbox outside production', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ NODE_ENV: 'development' });
  });
  afterEach(() => t.close());

  it('is shown to this machine (loopback connections)', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.app.request('http://localhost/dev/mail', {}, connectionFrom(address));
      expect(res.status, address).toBe(200);
    }
  });

  it('answers 404 to anyone on the network: its mails hold password-reset links', async () => {
    for (const address of ['192.168.1.20', '203.0.113.9', '::ffff:10.0.0.3']) {
      const res = await t.app.request(
        'http://localhost/dev/mail',
        // A forged forwarding header does not make a remote client local.
        { headers: { 'x-forwarded-for': '127.0.0.1' } },
        connectionFrom(address),
      );
      expect(res.status, address).toBe(404);
      expect(await res.text()).not.toContain('Development mailbox');
    }
  });
});
