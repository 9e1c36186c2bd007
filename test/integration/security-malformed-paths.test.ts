import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * Paths whose percent-encoding does not decode (a lone `%`, bytes that are not UTF-8) used to reach
 * code that decodes them (the event pages' link previews, tRPC's adapter) and end as 500s with an
 * error in the log (issue 18, item 5). They are the client's mistake: 400.
 */
describe('malformed percent-encoding in the path', () => {
  let t: TestApp;
  let clientDir: string;
  beforeEach(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-paths-'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Jalsa</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestAppOn(testEngine(), {}, { clientDir });
  });
  afterEach(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it.each([
    '/events/%',
    '/event/%ff',
    '/events/%E0%A4%A',
    '/trpc/%',
    '/trpc/events.byId%',
    '/trpc/events.list,%ff?batch=1',
    '/api/tickets/%',
    '/%',
  ])('GET %s answers 400', async (pathname) => {
    const res = await t.request(pathname);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'Bad request' } });
  });

  it('still serves well-formed escapes, an escaped percent sign included', async () => {
    for (const pathname of ['/events/%25ff', '/events/some%20event', '/event/%E0%A4%85']) {
      const res = await t.request(pathname);
      expect(res.status, pathname).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    const trpc = await t.request('/trpc/events.list');
    expect(trpc.status).toBe(200);
  });

  it('refuses a malformed POST the same way, before any procedure runs', async () => {
    const res = await t.request('/trpc/auth.signIn%', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: 'whatever1' }),
    });
    expect(res.status).toBe(400);
  });
});
