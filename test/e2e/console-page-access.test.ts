import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRole } from '../../shared/organiser-schemas.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { eventTeamMembers } from '../../src-server/db/schema/roles.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { writeAccountRole } from '../../src-server/services/roles/set-account-role.ts';
import { inviteTeamMember } from '../../src-server/services/team/invite-team-member.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import { type BrowserContext, newContext, type Page } from '../helpers/browser.ts';
import { CALLERS, type Caller } from '../helpers/console-world.ts';
import { e2eServer } from '../helpers/e2e-server.ts';
import { useE2eWorld } from '../helpers/e2e-world.ts';

/**
 * Issue 14's access matrix for the client's pages: every console, admin and gate page × the seven
 * callers of test/integration/security-console-access-matrix.test.ts, opened with page.goto as a
 * person would open a link. Each lands where the rules say (sign in, 'Not allowed', not found, the
 * request form or the page itself), never on an error and never with another organiser's event on it.
 * The procedures behind the pages are the integration matrix's concern; this one is about what is shown.
 */

type Outcome = 'sign in' | 'not allowed' | 'not found' | 'request form' | 'page';
type Expected = Record<Caller, Outcome>;

/** Signed out goes to sign in; everyone signed in gets `rest`, except where `except` says otherwise. */
const signedIn = (rest: Outcome, except: Partial<Record<Caller, Outcome>> = {}): Expected => ({
  'signed out': 'sign in',
  buyer: rest,
  'organiser of another event': rest,
  'gate staff': rest,
  'box office': rest,
  'co-organiser': rest,
  owner: rest,
  admin: rest,
  ...except,
});
/** A console page about the event that the gate does not need (server permission edit/viewSales/viewTeam). */
const TEAM_PAGE = signedIn('page', {
  buyer: 'not found',
  'organiser of another event': 'not found',
  'gate staff': 'not allowed',
  'box office': 'not allowed',
});
/** Something only organisers and admins start, whatever events they have. */
const ORGANISERS_PAGE = signedIn('not allowed', {
  'organiser of another event': 'page',
  owner: 'page',
  admin: 'page',
});

interface Route {
  path: string;
  expected: Expected;
  /** Visible once the page itself has loaded its data (not just its heading). */
  page: (p: Page) => ReturnType<Page['locator']>;
  /** The page may show the event's name to anyone holding the link (the invitation). */
  showsEventToAnyone?: boolean;
}

describe('console, admin and gate pages × every caller (issue 14)', () => {
  const world = useE2eWorld();
  const baseURL = e2eServer().baseURL;
  const stamp = Date.now().toString(36);
  const eventName = `Access Matrix Night ${stamp}`;
  const otherEventName = `Someone Else's Night ${stamp}`;
  const contexts = new Map<Caller, { context: BrowserContext; page: Page; serverErrors: string[] }>();
  let routes: Route[] = [];

  function account(role: AccountRole) {
    const now = new Date();
    const id = randomUUID();
    world.database.db
      .insert(users)
      .values({
        id,
        email: `matrix-${id.slice(0, 8)}@example.com`,
        name: `Matrix ${id.slice(0, 4)}`,
        phone: '9876543210',
        isEmailVerified: true,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .run();
    writeAccountRole(world.database.db, id, role, null, now);
    return { id, token: createSession(world.database.db, id, now).token };
  }

  beforeAll(async () => {
    const { db } = world.database;
    const people = {
      buyer: account('none'),
      'organiser of another event': account('organiser'),
      'gate staff': account('none'),
      'box office': account('none'),
      'co-organiser': account('none'),
      owner: account('organiser'),
      admin: account('admin'),
    } satisfies Record<Exclude<Caller, 'signed out'>, unknown>;
    const now = new Date();
    const sale = insertBookingWithEvent(db, now, {
      userId: people.buyer.id,
      event: { ownerId: people.owner.id, name: eventName },
    });
    insertBookingWithEvent(db, now, {
      userId: people.buyer.id,
      event: { ownerId: people['organiser of another event'].id, name: otherEventName },
    });
    for (const [caller, role] of [
      ['gate staff', 'gate_staff'],
      ['box office', 'box_office'],
      ['co-organiser', 'co_organiser'],
    ] as const) {
      db.insert(eventTeamMembers)
        .values({ eventId: sale.eventId, userId: people[caller].id, role, addedAt: now.toISOString() })
        .run();
    }
    const invitee = `invitee-${stamp}@example.com`;
    await inviteTeamMember(
      db,
      {
        event: { id: sale.eventId, name: eventName, city: 'Mumbai', ownerId: people.owner.id },
        email: invitee,
        role: 'co_organiser',
        invitedBy: { id: people.owner.id, name: 'Owner' },
      },
      now,
      { base: baseURL },
    );
    const mail = db.select().from(outbox).where(eq(outbox.to, invitee)).get()!;
    const token = /\/organiser\/invitations\/([a-z0-9]+)/.exec(mail.text)![1]!;

    const id = sale.eventId;
    const h1 = (p: Page, name: string) => p.getByRole('heading', { level: 1, name, exact: true });
    routes = [
      {
        path: '/organiser',
        expected: signedIn('page', { buyer: 'request form' }),
        // The list itself, not only the heading: what it lists is checked below.
        page: (p) => p.getByText('No events yet').or(p.getByRole('region', { name: 'My events' })),
      },
      {
        path: '/organiser/events/new',
        expected: ORGANISERS_PAGE,
        page: (p) => h1(p, 'Create event'),
      },
      { path: `/organiser/events/${id}/edit`, expected: TEAM_PAGE, page: (p) => h1(p, eventName) },
      {
        path: `/organiser/events/${id}/preview`,
        expected: { ...TEAM_PAGE, 'gate staff': 'page', 'box office': 'page' },
        page: (p) => p.getByText('Preview — not visible to buyers.'),
      },
      {
        path: `/organiser/events/${id}/sales`,
        expected: TEAM_PAGE,
        page: (p) => h1(p, `Sales of ${eventName}`),
      },
      {
        path: `/organiser/events/${id}/orders`,
        expected: TEAM_PAGE,
        page: (p) => h1(p, `Orders of ${eventName}`),
      },
      {
        path: `/organiser/events/${id}/bookings/${sale.bookingId}`,
        expected: TEAM_PAGE,
        page: (p) => h1(p, `Booking ${sale.bookingId}`),
      },
      {
        // Issue 40: the box office's own page; gate staff are not allowed.
        path: `/organiser/events/${id}/box-office`,
        expected: { ...TEAM_PAGE, 'box office': 'page' },
        page: (p) => h1(p, `Box office of ${eventName}`),
      },
      {
        path: `/organiser/events/${id}/team`,
        expected: TEAM_PAGE,
        page: (p) => h1(p, `Team of ${eventName}`),
      },
      { path: '/organiser/profile', expected: ORGANISERS_PAGE, page: (p) => h1(p, 'Organiser profile') },
      {
        // Issue 40: the organiser's month, their own events only (what it lists is the leak check below).
        path: '/organiser/payouts',
        expected: ORGANISERS_PAGE,
        page: (p) =>
          p
            .getByRole('heading', { level: 2, name: /payable to you$/ })
            .or(p.getByText(/^No sales or refunds in /)),
      },
      {
        // A capability: whoever holds the mailed link sees what it invites to (only the invited
        // address may accept, which the integration matrix tries).
        path: `/organiser/invitations/${token}`,
        expected: { ...signedIn('page'), 'signed out': 'page' },
        page: (p) => h1(p, `Join ${eventName}`),
        showsEventToAnyone: true,
      },
      { path: '/admin', expected: signedIn('not allowed', { admin: 'page' }), page: (p) => h1(p, 'Admin') },
      {
        path: '/list-your-event',
        expected: signedIn('page'),
        page: (p) =>
          p.getByRole('button', { name: 'Send request' }).or(p.getByText('You can already list events')),
      },
      // Last: the gate installs its service worker.
      {
        path: '/gate',
        expected: signedIn('page'),
        page: (p) =>
          p
            .getByLabel('Event', { exact: true })
            .or(p.getByText("You are not on any event's gate team", { exact: false })),
      },
    ];

    // Each caller signs in once; one tab visits every page.
    for (const caller of CALLERS) {
      const { context } = await newContext(world.browser, baseURL);
      if (caller !== 'signed out') {
        await context.addCookies([{ name: SESSION_COOKIE, value: people[caller].token, url: baseURL }]);
      }
      const serverErrors: string[] = [];
      context.on('response', (r) => {
        if (r.status() >= 500) serverErrors.push(`${r.status()} ${r.url()}`);
      });
      contexts.set(caller, { context, page: await context.newPage(), serverErrors });
    }
  });
  afterAll(async () => {
    for (const { context } of contexts.values()) await context.close();
  });

  /** Where `path` took `caller`: waits for one of the known answers and says which it is. */
  async function landing(page: Page, route: Route): Promise<Outcome> {
    const signIn = page.getByRole('heading', { name: 'Sign In', exact: true });
    const notAllowed = page.getByRole('heading', { name: 'Not allowed', exact: true });
    const notFound = page.getByText(/^(Event|Booking) not found$/);
    const requestForm = page.getByRole('heading', { name: 'List your Event', level: 1 });
    const own = route.page(page);
    await own.or(signIn).or(notAllowed).or(notFound).or(requestForm).first().waitFor({ timeout: 30_000 });
    const path = new URL(page.url()).pathname;
    if (path === '/login' && (await signIn.isVisible())) return 'sign in';
    if (await notAllowed.isVisible()) return 'not allowed';
    if (await notFound.isVisible()) return 'not found';
    if (route.path !== '/list-your-event' && path === '/list-your-event') return 'request form';
    if (await own.first().isVisible()) return 'page';
    throw new Error(`${route.path} showed none of the known answers (at ${page.url()})`);
  }

  it.each(CALLERS)('as %s, every page lands where the rules say', async (caller) => {
    const { page, serverErrors } = contexts.get(caller)!;
    const seen: Record<string, Outcome> = {};
    const expected: Record<string, Outcome> = {};
    const leaks: string[] = [];
    for (const route of routes) {
      await page.goto(route.path);
      seen[route.path] = await landing(page, route);
      expected[route.path] = route.expected[caller];
      if (seen[route.path] === 'sign in') {
        // Back to the page after signing in.
        expect(new URL(page.url()).searchParams.get('redirect')).toBe(route.path);
      }
      const text = (await page.locator('body').textContent()) ?? '';
      const onTheEvent = ['gate staff', 'box office', 'co-organiser', 'owner', 'admin'].includes(caller);
      if (!onTheEvent && !route.showsEventToAnyone && text.includes(eventName)) {
        leaks.push(`${route.path} shows ${eventName}`);
      }
      const ownsOther = caller === 'organiser of another event' || caller === 'admin';
      if (!ownsOther && text.includes(otherEventName)) leaks.push(`${route.path} shows ${otherEventName}`);
      if (/Unexpected Application Error|Something went wrong/.test(text)) leaks.push(`${route.path} failed`);
    }
    expect(seen).toEqual(expected);
    expect(leaks, "another organiser's data or an error on the page").toEqual([]);
    expect(serverErrors, 'no answer of the server is a 5xx').toEqual([]);
  });
});
