import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

/**
 * Every tRPC procedure, found from the router itself (so a new procedure is covered without touching this
 * file), is fed random, oversized, wrongly typed and hostile input, signed out and signed in. Whatever the
 * input: never a 5xx, never a stack trace or internal detail in the body, always a message.
 */
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>,
)
  .filter(([, procedure]) => procedure._def.type === 'query' || procedure._def.type === 'mutation')
  .map(([name, procedure]) => ({ name, kind: procedure._def.type as 'query' | 'mutation' }));

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '\u0000\u202e\uffff',
    '{"__proto__":{"polluted":true}}',
    'a'.repeat(20_000),
    '9'.repeat(400),
    '',
    ' ',
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e308),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(hostileString, fc.constantFrom('id', 'eventId', 'email', 'quantity', 'token')),
      tie('value'),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

const RUNS_PER_PROCEDURE = 25;

describe('every procedure under hostile input', () => {
  let t: TestApp;
  let cookie: string;
  let staffCookie: string;
  beforeAll(() => {
    t = createTestApp();
    cookie = createSignedInUser(t).cookie;
    // An admin reaches every event-scoped procedure's input parsing and service (the gate's too), which
    // others are refused before.
    const admin = createSignedInUser(t);
    writeAccountRole(t.deps.db, admin.userId, 'admin', null, t.clock.now());
    staffCookie = admin.cookie;
  });
  afterAll(() => t.close());

  it('found the procedures to test', () => {
    expect(procedures.length).toBeGreaterThan(5);
  });

  for (const { name, kind } of procedures) {
    it(`${kind} ${name} answers cleanly`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileValue, fc.constantFrom('signed out', 'user', 'staff'), async (input, who) => {
          const as = who === 'user' ? { cookie } : who === 'staff' ? { cookie: staffCookie } : {};
          const res = await callProcedure(t, kind, name, input, as);
          expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeLessThan(500);
          const text = JSON.stringify(res.body);
          expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|SqliteError|stack/);
          if (res.status >= 400) expect(res.body.error?.message).toBeTruthy();
        }),
        { numRuns: RUNS_PER_PROCEDURE },
      );
    });
  }
});

describe('HTTP edges', () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp();
  });
  afterAll(() => t.close());

  it('refuses request bodies over the size limit with 413', async () => {
    const res = await t.request('/trpc/contact.send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x'.repeat(200_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('answers malformed JSON with a client error, not a crash', async () => {
    for (const body of ['{', 'null', '[]', '"str"', '{"a":', '\u0000']) {
      const res = await t.request('/trpc/contact.send', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it('answers unknown procedures and a malformed batch with 404/400', async () => {
    expect((await t.request('/trpc/nope')).status).toBe(404);
    expect((await t.request('/trpc/events.list,nope?batch=1&input=%7B%7D')).status).toBeLessThan(500);
    expect((await t.request('/trpc/events.list?input=%7Bnot-json')).status).toBe(400);
  });
});
