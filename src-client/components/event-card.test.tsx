// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PLUS_GST_SUMMARY } from '../../test/mocks/prices-plus-gst-fixtures.ts';
import { EventCard } from './event-card.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

/** The card's price line, the card rendered under a router (it is a link to the event). */
async function priceLine(event: typeof PLUS_GST_SUMMARY): Promise<string | undefined> {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <EventCard event={event} /> }),
    history: createMemoryHistory(),
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => root!.render(<RouterProvider router={router} />));
  const deadline = Date.now() + 2_000;
  while (!container.querySelector('h3') && Date.now() < deadline) {
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
  return [...container.querySelectorAll('p')].map((p) => p.textContent ?? '').find((t) => t.includes('₹'));
}

describe('the event card says when GST is added to the price (issue 40, no drip pricing)', () => {
  it('a ₹750 ticket with GST added at checkout: "₹750 + GST onwards"', async () => {
    expect(await priceLine(PLUS_GST_SUMMARY)).toBe('₹750 + GST onwards');
  });

  it('prices that include GST stay "₹750 onwards"', async () => {
    expect(await priceLine({ ...PLUS_GST_SUMMARY, pricesPlusGst: false })).toBe('₹750 onwards');
  });
});
