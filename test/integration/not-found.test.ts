import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClientDir } from '../helpers/fake-client.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * Issue 22: every unknown path answered 200 with the app, so a monitor pointed at a wrong URL passed and
 * /dev/mail looked served in production. The app still comes back (its router draws the not-found page),
 * with HTTP 404.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://tickets.example.in',
  ALLOW_PAYMENT_SIMULATOR: 'true',
} as const;

describe.each([
  ['development', {}],
  ['production', PRODUCTION],
])('paths without a screen, in %s', (_mode, env) => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = fakeClientDir();
    t = await createTestAppOn(testEngine(), env, { clientDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it.each(['/no-such-page', '/events', '/events/a/b', '/wp-login.php', '/healthz/extra'])(
    '%s answers 404 with the app',
    async (path) => {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it.each([
    '/',
    '/login',
    '/SignUp',
    '/events/evt-unknown',
    '/Terms%20&%20Conditions',
    '/explore?category=Comedy',
  ])('%s is a screen: 200', async (path) => {
    expect((await t.request(path)).status).toBe(200);
  });
});

it('/dev/mail is 404 in production, with the client served', async () => {
  const clientDir = fakeClientDir();
  const t = await createTestAppOn(testEngine(), PRODUCTION, { clientDir });
  try {
    const res = await t.request('/dev/mail');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('Development mailbox');
  } finally {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  }
});
