// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PLUS_GST_OPTIONS } from '../../../test/mocks/prices-plus-gst-fixtures.ts';
import { TicketSelection } from './select-tickets.lazy.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

/** Ticket selection on the server's options, under a router (its Checkout is a link). */
async function render(data: typeof PLUS_GST_OPTIONS) {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <TicketSelection data={data} /> }),
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
}

const byTestId = (id: string) => container.querySelector(`[data-testid="${id}"]`)?.textContent;
const press = (label: string) =>
  act(() => container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!.click());

describe('ticket selection shows GST added to the price, and the total with it (issue 40, no drip pricing)', () => {
  it('Gold at ₹750 + 18 % GST: the type says so and the running total is ₹885 a ticket, GST included', async () => {
    await render(PLUS_GST_OPTIONS);
    const card = container.querySelector('li')!;
    expect(card.querySelector('h3')?.textContent).toBe('Gold');
    expect(card.querySelector('p.text-lg')?.textContent).toBe('₹750+ 18% GST');
    expect(byTestId('selection-total')).toBe('₹0');

    press('Select Ticket: Gold');
    // By hand: 750.00 + GST 18 % 135.00 = 885.00.
    expect(byTestId('selection-total')).toBe('₹885');
    expect(byTestId('selection-gst')).toBe(' · incl. ₹135 GST');

    press('Add one Gold');
    // Two: 1,500.00 + 270.00 = 1,770.00.
    expect(byTestId('selection-total')).toBe('₹1,770');
    expect(byTestId('selection-gst')).toBe(' · incl. ₹270 GST');
  });

  it('prices that include GST: the type’s price alone, and the total is the prices', async () => {
    await render({
      ...PLUS_GST_OPTIONS,
      taxes: { ...PLUS_GST_OPTIONS.taxes, admissionTaxRatePercent: null },
    });
    expect(container.querySelector('li p.text-lg')?.textContent).toBe('₹750');
    press('Select Ticket: Gold');
    expect(byTestId('selection-total')).toBe('₹750');
    expect(byTestId('selection-gst')).toBeUndefined();
  });
});
