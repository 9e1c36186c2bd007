import { TRPCError } from '@trpc/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from '../../src-server/trpc/context.ts';
import {
  adminProcedure,
  createCallerFactory,
  eventProcedure,
  organiserProcedure,
  router,
} from '../../src-server/trpc/init.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { consoleWorld } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * The building blocks themselves, on a router of probes that echo what the middleware handed them:
 * the event editor and the gate will build their procedures on these.
 */
const probes = router({
  admin: adminProcedure.query(({ ctx }) => ({ role: ctx.role })),
  organiser: organiserProcedure.query(({ ctx }) => ({ role: ctx.role })),
  cancelEvent: eventProcedure('cancelEvent').query(({ ctx }) => ({
    eventId: ctx.event.id,
    eventName: ctx.event.name,
    eventRole: ctx.eventRole,
  })),
});
const callerOf = createCallerFactory(probes);

describe('role middlewares', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  function caller(who: keyof ConsoleWorld['people'] | 'signed out') {
    const person = who === 'signed out' ? null : w.people[who];
    const ctx: Context = {
      request: {
        requestId: 'test',
        ip: '127.0.0.1',
        resHeaders: new Headers(),
        cookieHeader: null,
        origin: 'http://localhost',
      },
      deps: t.deps,
      db: t.deps.db,
      user: person ? { id: person.userId, name: person.name, email: person.email } : null,
      sessionId: person ? 'session' : null,
    };
    return callerOf(ctx);
  }

  async function outcome(call: Promise<unknown>) {
    try {
      return await call;
    } catch (error) {
      return error instanceof TRPCError ? error.code : error;
    }
  }

  it('organiserProcedure admits organisers and admins, with their role; team members without the role are refused', async () => {
    expect(await outcome(caller('signed out').organiser())).toBe('UNAUTHORIZED');
    expect(await outcome(caller('buyer').organiser())).toBe('FORBIDDEN');
    expect(await outcome(caller('co-organiser').organiser())).toBe('FORBIDDEN');
    expect(await outcome(caller('owner').organiser())).toEqual({ role: 'organiser' });
    expect(await outcome(caller('admin').organiser())).toEqual({ role: 'admin' });
  });

  it('adminProcedure admits admins only', async () => {
    expect(await outcome(caller('signed out').admin())).toBe('UNAUTHORIZED');
    expect(await outcome(caller('owner').admin())).toBe('FORBIDDEN');
    expect(await outcome(caller('admin').admin())).toEqual({ role: 'admin' });
  });

  it('eventProcedure hands the handler the event and the caller’s role on it', async () => {
    const eventId = w.event.eventId;
    expect(await outcome(caller('signed out').cancelEvent({ eventId }))).toBe('UNAUTHORIZED');
    expect(await outcome(caller('organiser of another event').cancelEvent({ eventId }))).toBe('NOT_FOUND');
    expect(await outcome(caller('co-organiser').cancelEvent({ eventId }))).toBe('FORBIDDEN');
    expect(await outcome(caller('owner').cancelEvent({ eventId }))).toEqual({
      eventId,
      eventName: w.event.eventName,
      eventRole: 'owner',
    });
    expect(await outcome(caller('admin').cancelEvent({ eventId }))).toMatchObject({ eventRole: 'admin' });
    expect(await outcome(caller('owner').cancelEvent({ eventId: w.otherEvent.eventId }))).toBe('NOT_FOUND');
  });
});
