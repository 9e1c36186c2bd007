import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_IN_TEXT_MESSAGE } from '../../src-server/trpc/nul-in-text.ts';
import { appRouter } from '../../src-server/trpc/root.ts';
import { account, consoleWorld } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

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
      fc.oneof(hostileString, fc.constantFrom('id', 'eventId', 'email', 'quantity', 'token', 'q', 'name')),
      tie('value'),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

const RUNS_PER_PROCEDURE = 25;

/** What must never reach a caller: a stack frame, a source path, either engine's error or its SQL. */
const INTERNALS =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|SqliteError|PostgresError|Failed query|invalid input syntax|invalid byte sequence|violates|stack/;

describe('every procedure under hostile input', () => {
  let t: TestApp;
  let cookie: string;
  let staffCookie: string;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine());
    cookie = (await account(t)).cookie;
    // An admin reaches every event-scoped procedure's input parsing and service (the gate's too), which
    // others are refused before.
    staffCookie = (await account(t, 'admin')).cookie;
  });
  afterAll(async () => {
    await t.close();
  });

  it('found the procedures to test', () => {
    expect(procedures.length).toBeGreaterThan(5);
  });

  // PostgreSQL's text cannot hold U+0000: an id, a search or a name with it failed the statement, a 500
  // (a search did on SQLite too). Every procedure refuses it with its message before anything runs.
  it('refuses U+0000 in the input with its message, by every procedure', async () => {
    const nul = 'a\u0000b';
    const fields = ['id', 'eventId', 'bookingId', 'q', 'query', 'name', 'email', 'token', 'code', 'message'];
    // At the top, in an array's object and as a key (the walk itself: nul-in-text.test.ts).
    const input = {
      ...Object.fromEntries(fields.map((field) => [field, nul])),
      selectedTickets: [{ ticketTypeId: nul, quantity: 1 }],
      answers: { [nul]: 'x' },
    };
    const answers: string[] = [];
    // Signing out last: until then the admin's session must last.
    const signOutLast = [...procedures].sort(
      (a, b) => Number(a.name === 'auth.signOut') - Number(b.name === 'auth.signOut'),
    );
    for (const { name, kind } of signOutLast) {
      const res = await callProcedure(t, kind, name, input, { cookie: staffCookie });
      const error = res.body.error;
      if (res.status !== 400 || error?.message !== NUL_IN_TEXT_MESSAGE) {
        answers.push(`${name}: ${res.status} ${error?.message}`);
      } else {
        expect(Object.values(error.data.fieldErrors ?? {})).toEqual([NUL_IN_TEXT_MESSAGE]);
      }
    }
    expect(answers).toEqual([]);
  });

  for (const { name, kind } of procedures) {
    it(`${kind} ${name} answers cleanly`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileValue, fc.constantFrom('signed out', 'user', 'staff'), async (input, who) => {
          const as = who === 'user' ? { cookie } : who === 'staff' ? { cookie: staffCookie } : {};
          const res = await callProcedure(t, kind, name, input, as);
          expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBeLessThan(500);
          const text = JSON.stringify(res.body);
          expect(text).not.toMatch(INTERNALS);
          if (res.status >= 400) expect(res.body.error?.message).toBeTruthy();
        }),
        { numRuns: RUNS_PER_PROCEDURE },
      );
    });
  }
});

// PostgreSQL's integer columns hold 4 bytes (SQLite's 8): a version or a gate cursor beyond that failed
// the statement there, a 500. The schemas bound them to what the columns hold, with their messages.
describe('numbers beyond what the database holds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterAll(async () => {
    await t.close();
  });

  it('an event version and the gate cursors are refused with their message', async () => {
    const w = await consoleWorld(t);
    const { eventId, slotId, dateId } = w.event;
    const cookie = w.people.owner.cookie;
    const beyond = 2 ** 40;
    const version = 'Unknown version of this event: reload the page';
    const position = 'Unknown sync position: reload the gate to sync again';
    for (const [name, kind, input, message] of [
      ['organiser.unpublish', 'mutation', { eventId, version: beyond }, version],
      ['organiser.removeDate', 'mutation', { eventId, version: beyond, dateId }, version],
      ['gate.sync', 'query', { eventId, slotId, ticketCursor: beyond, feedCursor: 0 }, position],
      ['gate.sync', 'query', { eventId, slotId, ticketCursor: 1, feedCursor: beyond }, position],
    ] as const) {
      const res = await callProcedure(t, kind, name, input, { cookie });
      expect(res.status, `${name} ${JSON.stringify(input)}`).toBe(400);
      expect(res.body.error?.message, name).toBe(message);
    }
  });
});

describe('HTTP edges', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterAll(async () => {
    await t.close();
  });

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
