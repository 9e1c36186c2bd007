// @vitest-environment happy-dom
import { RouterProvider } from '@tanstack/react-router';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventRole } from '../shared/organiser-schemas.ts';
import { mountWithTrpc, testClients, unmountMounted, waitFor } from '../test/mocks/mount-with-trpc.tsx';
import { trpcHandlers, trpcMsw } from '../test/mocks/trpc-handlers.ts';
import { createTrpcUtils } from './lib/trpc.ts';
import { createAppRouter } from './router.tsx';

// Each audience's pages under their layout route (docs/decisions/0048-client-layout.md), rendered
// through the real router on the msw-mocked procedures `npm run dev:mock` answers with.
const server = setupServer(...trpcHandlers);
// The gate's setup screen never starts the camera: the scanner (and its decoder's .wasm, which Vite's
// file server refuses when node_modules is linked in from outside the project) stays out.
vi.mock('./gate/scanner.ts', () => ({
  getDetector: vi.fn(),
  openCamera: vi.fn(),
  scanContinuously: vi.fn(),
  signal: vi.fn(),
}));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  localStorage.clear();
  server.resetHandlers();
});
afterAll(() => server.close());

async function renderApp(path: string, options: { retry?: boolean } = {}) {
  window.history.replaceState(null, '', path);
  const clients = testClients();
  const { queryClient } = clients;
  // A failure shown at once, not after the app's two retries' back-off (3 s of this file's budget).
  if (options.retry === false) {
    const defaults = queryClient.getDefaultOptions();
    queryClient.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
  }
  const router = createAppRouter({
    queryClient,
    trpcUtils: createTrpcUtils(queryClient, clients.trpcClient),
  });
  await mountWithTrpc(<RouterProvider router={router} />, clients);
  return router;
}

const heading = (text: string) =>
  [...document.querySelectorAll('h1')].find((h) => h.textContent === text) ?? null;
const storefrontHeader = () => document.querySelector('nav[aria-label="Main"]');
const footer = () => document.querySelector('footer');
const searchBox = () => document.querySelector('input[type="search"], [role="search"]');
const tabBars = () => [...document.querySelectorAll('nav[aria-label="This event"]')];

/** An event of the organiser's console on which the caller has `role`, with an empty team. */
function consoleEvent(role: EventRole) {
  server.use(
    trpcMsw.console.event.query(({ input }) => ({
      id: input.eventId,
      name: 'Jazz Night',
      city: 'Pune',
      myRole: role,
    })),
    trpcMsw.console.team.query(() => ({ members: [], invitations: [] })),
  );
}

describe('the layout routes', () => {
  it('a buyer page wears the storefront: header, search and footer', async () => {
    await renderApp('/privacy-policy');
    await waitFor(storefrontHeader, 'the storefront header');
    // The footer is drawn in the task after the first render (issue 39's shorter start-up tasks).
    await waitFor(footer, 'the storefront footer');
  });

  it('the gate is full screen in its own chrome: no storefront header, search or footer', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(trpcMsw.gate.events.query(() => []));
    const icon = Object.assign(document.createElement('link'), { rel: 'icon', href: '/favicon.svg' });
    document.head.append(icon);
    await renderApp('/gate');
    // The gate's chunk is the largest (the scanner, its offline store): the first import takes a while.
    await waitFor(() => heading('Gate'), "the gate's setup", 15_000);
    await waitFor(
      () => document.body.textContent?.includes("You are not on any event's gate team"),
      'no events',
    );
    expect(document.body.textContent).toContain('Jalsa Gate');
    expect(storefrontHeader()).toBeNull();
    expect(searchBox()).toBeNull();
    expect(footer()).toBeNull();
    // Its tab wears the gate's icon while it is open.
    expect(icon.getAttribute('href')).toBe('/gate-icons/gate-icon-192.png');
    unmountMounted();
    expect(icon.getAttribute('href')).toBe('/favicon.svg');
    icon.remove();
  }, 20_000);

  it("an event's tab gets the tab bar from the event's layout, once, with itself marked", async () => {
    consoleEvent('owner');
    await renderApp('/organiser/events/evt-1/team');
    await waitFor(() => heading('Team of Jazz Night'), 'the team tab');
    expect(tabBars()).toHaveLength(1);
    const links = [...tabBars()[0]!.querySelectorAll('a')];
    expect(links.map((a) => a.textContent)).toEqual(['Edit', 'Team', 'Sales', 'Orders', 'Box office']);
    expect(links.find((a) => a.getAttribute('aria-current') === 'page')?.textContent).toBe('Team');
    // The console's shell: the site's header for the account, not the buyer's footer.
    expect(storefrontHeader()).not.toBeNull();
    expect(footer()).toBeNull();
  });

  it("the event's layout decides who sees a tab: gate staff see 'Not allowed' and no tab bar", async () => {
    consoleEvent('gate_staff');
    await renderApp('/organiser/events/evt-1/team');
    await waitFor(() => heading('Not allowed'), "'Not allowed'");
    expect(tabBars()).toHaveLength(0);
  });

  it.each(['gate_staff', 'box_office'] as const)(
    "the event's layout alone keeps the editor from %s: the editor never asks for the event",
    async (role) => {
      consoleEvent(role);
      const asked = vi.fn();
      server.use(
        trpcMsw.organiser.editableEvent.query(() => {
          asked();
          throw new Error('the editor was asked for the event');
        }),
      );
      await renderApp('/organiser/events/evt-1/edit');
      await waitFor(() => heading('Not allowed'), "'Not allowed'");
      // Long enough for a query the editor would have sent to reach the handler.
      await act(() => new Promise((r) => setTimeout(r, 100)));
      expect(asked).not.toHaveBeenCalled();
      expect(tabBars()).toHaveLength(0);
    },
  );

  it.each(['gate_staff', 'box_office'] as const)(
    "a booking's page sits in the event's Orders tab, whose layout keeps it from %s",
    async (role) => {
      consoleEvent(role);
      const asked = vi.fn();
      server.use(
        trpcMsw.eventBookings.booking.query(() => {
          asked();
          throw new Error('the booking page was asked for the booking');
        }),
      );
      await renderApp('/organiser/events/evt-1/bookings/bkg-1');
      await waitFor(() => heading('Not allowed'), "'Not allowed'");
      await act(() => new Promise((r) => setTimeout(r, 100)));
      expect(asked).not.toHaveBeenCalled();
    },
  );

  it("the team sees a booking's page under the event's tab bar, with Orders marked", async () => {
    consoleEvent('co_organiser');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = await renderApp('/organiser/events/evt-1/bookings/bkg-1');
    await waitFor(() => tabBars()[0], 'the tab bar');
    const current = tabBars()[0]!.querySelector('a[aria-current="page"]');
    expect(current?.textContent).toBe('Orders');
    expect(router.state.matches.map((m) => m.routeId)).toContain('/_console/_event');
  });

  it('the box office sees its own tab, with a tab bar of that tab alone, and no other', async () => {
    consoleEvent('box_office');
    server.use(trpcMsw.tickets.options.query(() => ({ slots: [] }) as never));
    await renderApp('/organiser/events/evt-1/box-office');
    await waitFor(() => heading('Box office of Jazz Night'), 'the box office tab');
    expect([...tabBars()[0]!.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Box office']);
  });

  it("the console's layout keeps organiser-only pages from someone with no organiser rights", async () => {
    server.use(trpcMsw.console.access.query(() => ({ role: 'none' as const, teamEvents: 1 })));
    await renderApp('/organiser/events/new');
    await waitFor(() => heading('Not allowed'), "'Not allowed'");
    expect(heading('Create event')).toBeNull();
  });

  it("the admin's layout lets only an admin in", async () => {
    await renderApp('/admin');
    await waitFor(() => heading('Not allowed'), "'Not allowed' for an organiser");
    expect(heading('Admin')).toBeNull();
  });

  // The buyer's pages that need an account sit under `_buyer/_account`, whose beforeLoad alone asks for
  // it (routes/buyer/account-layout.tsx); none of them carries a guard of its own.
  const ACCOUNT_PAGES = [
    ['/checkout-tickets?eventId=evt-1', '/_buyer/_account/checkout-tickets'],
    ['/my-bookings', '/_buyer/_account/my-bookings'],
    ['/profile', '/_buyer/_account/profile'],
    ['/list-your-event', '/_buyer/_account/list-your-event'],
    ['/protected', '/_buyer/_account/protected'],
    ['/waitlist/offers/wl-1', '/_buyer/_account/waitlist/offers/$entryId'],
  ] as const;

  it.each(ACCOUNT_PAGES)('the account layout sends a signed-out visitor of %s to sign in', async (href) => {
    server.use(trpcMsw.auth.me.query(() => null));
    await renderApp(href);
    await waitFor(() => window.location.pathname === '/login', 'the sign-in page');
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe(href);
  });

  it.each(ACCOUNT_PAGES)('the account layout lets a signed-in person open %s', async (href, routeId) => {
    // Only the layout decides here: each page's own queries are not what this test is about.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = await renderApp(href);
    await waitFor(
      () => router.state.status === 'idle' && router.state.matches.at(-1)?.routeId === routeId,
      'the page itself',
    );
    const ids = router.state.matches.map((m) => m.routeId);
    expect(ids).toEqual(['__root__', '/_buyer', '/_buyer/_account', routeId]);
    expect(`${window.location.pathname}${window.location.search}`).toBe(href);
  });

  it("while the account layout's check fails, the page says so in its own words", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    server.use(
      trpcMsw.auth.me.query(() => {
        throw new Error('down');
      }),
    );
    await renderApp('/profile', { retry: false });
    await waitFor(
      () => document.body.textContent?.includes('Failed to load user data'),
      "My Profile's failure",
    );
  });
});
