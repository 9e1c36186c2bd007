// @vitest-environment happy-dom
import { RouterProvider } from '@tanstack/react-router';
import { TRPCError } from '@trpc/server';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SELECTED_CITY_DATA_KEY, SELECTED_CITY_KEY } from '../shared/cities.ts';
import { mockCatalog } from '../test/mocks/catalog-fixtures.ts';
import { mountWithTrpc, testClients, unmountMounted, waitFor } from '../test/mocks/mount-with-trpc.tsx';
import { trpcHandlers, trpcMsw } from '../test/mocks/trpc-handlers.ts';
import { createTrpcUtils } from './lib/trpc.ts';
import { createAppRouter } from './router.tsx';

// The client on msw-mocked procedures: the very handlers `npm run dev:mock` answers with.
const server = setupServer(...trpcHandlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  localStorage.clear();
  server.resetHandlers();
});
afterAll(() => server.close());

async function renderApp(path: string) {
  window.history.replaceState(null, '', path);
  const clients = testClients();
  const { queryClient } = clients;
  const router = createAppRouter({
    queryClient,
    trpcUtils: createTrpcUtils(queryClient, clients.trpcClient),
  });
  await mountWithTrpc(<RouterProvider router={router} />, clients);
}

const rowTitles = (heading: string): string[] | undefined => {
  const section = [...document.querySelectorAll('section')].find(
    (s) => s.querySelector('h2')?.textContent === heading,
  );
  return section ? [...section.querySelectorAll('li h3')].map((h) => h.textContent ?? '') : undefined;
};

describe('home page on mocked procedures', () => {
  it("words the footer plainly: 'Events', 'Terms & Conditions' and this year's copyright", async () => {
    await renderApp('/');
    const footer = await waitFor(() => document.querySelector('footer'), 'the footer');
    const links = [...footer.querySelectorAll('a')].map((a) => a.textContent);
    expect(links).toContain('Events');
    expect(links).toContain('Terms & Conditions');
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()} Jalsa. All rights reserved.`);
  });

  it("shows the stored city's events under 'Happening near me' and the rest under 'You may also like'", async () => {
    localStorage.setItem(SELECTED_CITY_KEY, 'Mumbai');
    await renderApp('/');
    const near = await waitFor(
      () => (rowTitles('Happening near me')?.length ? rowTitles('Happening near me') : undefined),
      'near row',
    );
    expect(near).toEqual(
      expect.arrayContaining([
        'Retro Bollywood Live',
        'Mumbai Premier T20 Final',
        'Tughlaq: A Play in Two Acts',
      ]),
    );
    expect(near).not.toContain('Sufi Nights under the Stars');
    expect(rowTitles('You may also like')).toContain('Sufi Nights under the Stars');
    expect(document.body.textContent).toContain('4 events in Mumbai');
    // Each card says what the cheapest ticket costs (issue 17), from the server's lowest price.
    const card = [...document.querySelectorAll('li')].find((li) =>
      li.querySelector('h3')?.textContent?.includes('Retro Bollywood Live'),
    );
    expect(card?.textContent).toMatch(/₹[\d,]+(\.\d\d)? onwards/);
    const cityButton = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('City:'));
    expect(cityButton?.textContent).toContain('MUM');
  });

  it("opens 'Select Your City', finds Bengaluru by its alias and switches the rows", async () => {
    await renderApp('/');
    await waitFor(() => rowTitles('Happening near me')?.length, 'near row');
    // Nothing stored yet: the button says 'Select' while the page uses Delhi/NCR (spec §4 default 'Delhi').
    const cityButton = [...document.querySelectorAll('button')].find((b) =>
      b.textContent?.includes('City:'),
    )!;
    expect(cityButton.textContent).toContain('Select');
    expect(rowTitles('Happening near me')).toContain('Sufi Nights under the Stars');

    await act(async () => cityButton.click());
    const search = await waitFor(
      () => document.querySelector<HTMLInputElement>('input[placeholder="Search for your city..."]'),
      'city picker',
    );
    expect(document.body.textContent).toContain('Select Your City');
    await act(async () => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(search, 'bangalore');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const tile = await waitFor(
      () =>
        [...document.querySelectorAll('[role="dialog"] button')].find((b) => b.textContent === 'Bengaluru'),
      'Bengaluru tile',
    );
    expect(document.body.textContent).not.toContain('More Cities');
    await act(async () => (tile as HTMLButtonElement).click());

    await waitFor(
      () => rowTitles('Happening near me')?.includes('Bengaluru Indie Rock Fest'),
      'Bengaluru row',
    );
    expect(localStorage.getItem(SELECTED_CITY_KEY)).toBe('Bengaluru');
    expect(JSON.parse(localStorage.getItem(SELECTED_CITY_DATA_KEY)!)).toEqual({
      name: 'Bengaluru',
      coordinates: { latitude: 12.9716, longitude: 77.5946 },
    });
    expect(cityButton.textContent).toContain('BLR');
  });

  it('shows the nearest alternatives and a friendly line for a city with no events', async () => {
    localStorage.setItem(SELECTED_CITY_KEY, 'Nashik');
    await renderApp('/');
    const near = await waitFor(
      () => (rowTitles('Happening near me')?.length ? rowTitles('Happening near me') : undefined),
      'row',
    );
    expect(document.body.textContent).toContain('Nothing is on in Nashik just yet.');
    // Nashik's nearest cities with events are Mumbai and Pune.
    expect(near.slice(0, 4)).toEqual(
      expect.arrayContaining(['Retro Bollywood Live', 'Mumbai Premier T20 Final']),
    );
  });
});

describe('the header on mocked procedures', () => {
  it("says 'Error: Failed to load user data' when the signed-in user cannot be loaded", async () => {
    server.use(
      trpcMsw.auth.me.query(() => {
        throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'database is locked' });
      }),
    );
    await renderApp('/');
    await waitFor(
      () => document.body.textContent?.includes('Error: Failed to load user data'),
      'the error',
      10_000,
    );
    expect(document.body.textContent).not.toContain('database is locked');
  });
});

// Issue 17 'no half-sentences': buyer copy is whole sentences, and the spec's own texts stay as given.
describe('buyer copy on mocked procedures', () => {
  it("keeps the spec's header search placeholder 'Search for Events, Workshop'", async () => {
    await renderApp('/');
    const box = await waitFor(() => document.querySelector<HTMLInputElement>('header input'), 'search box');
    expect(box.placeholder).toBe('Search for Events, Workshop');
  });

  it("says the spec's 'No bookingId provided in URL.' for /ticket, and where the tickets are", async () => {
    await renderApp('/ticket');
    const message = await waitFor(
      () =>
        [...document.querySelectorAll('[role="status"]')].find(
          (el) => el.textContent === 'No bookingId provided in URL.',
        ),
      'the message',
    );
    const next = message.nextElementSibling;
    expect(next?.textContent).toBe('Your tickets are listed in My Bookings.');
    expect(next?.querySelector('a')?.getAttribute('href')).toBe('/my-bookings');
  });

  it('words a search answered by similar spellings as a whole sentence', async () => {
    const items = mockCatalog().search('retro');
    server.use(
      trpcMsw.events.searchPage.query(() => ({
        items,
        nextCursor: null,
        total: items.length,
        totalIsCapped: false,
        approximate: true,
      })),
    );
    await renderApp('/search?q=retro%20bolywood');
    const status = await waitFor(
      () =>
        [...document.querySelectorAll('main [role="status"]')].find((el) =>
          el.textContent?.startsWith('No exact matches.'),
        ),
      'the count',
    );
    expect(status.textContent).toBe(
      `No exact matches. Showing ${items.length === 1 ? '1 event' : `${items.length} events`} with a similar spelling.`,
    );
  });

  it('suggests what to try when a search finds nothing', async () => {
    await renderApp('/search?q=zzzzqqq');
    await waitFor(() => document.body.textContent?.includes('No events found for "zzzzqqq"'), 'no results');
    expect(document.body.textContent).toContain(
      'Check the spelling, or try an artist, venue or city instead.',
    );
  });
});
