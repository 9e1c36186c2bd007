// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGES } from '../../../shared/quota-schemas.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../../test/mocks/trpc-handlers.ts';
import { QuotasSection } from './quotas-section.tsx';

/**
 * The editor's Shared capacity section (issue 40) on msw-mocked procedures: the list's figures, and
 * what the form sends or refuses before sending. The server's own checks are in
 * test/integration/quotas.test.ts.
 */
const SLOTS = [
  {
    id: 'slot-matinee',
    startTime: '2026-12-19T08:30:00.000Z',
    tickets: [
      { id: 'tt-stalls', name: 'Stalls' },
      { id: 'tt-balcony', name: 'Balcony' },
    ],
  },
  { id: 'slot-evening', startTime: '2026-12-19T14:30:00.000Z', tickets: [{ id: 'tt-eve', name: 'Stalls' }] },
];
const sent: unknown[] = [];
const server = setupServer(
  trpcMsw.console.quotas.query(() => [
    {
      id: 'qt-1',
      name: 'Hall',
      capacity: 940,
      sold: 600,
      held: 40,
      left: 300,
      slotIds: ['slot-matinee'],
      ticketTypes: [
        { id: 'tt-stalls', name: 'Stalls', slotId: 'slot-matinee' },
        { id: 'tt-balcony', name: 'Balcony', slotId: 'slot-matinee' },
      ],
    },
  ]),
  trpcMsw.console.createQuota.mutation(({ input }) => {
    sent.push(input);
    return { id: 'qt-2' };
  }),
);

let container: HTMLElement;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  sent.length = 0;
});
afterAll(() => server.close());

async function render() {
  const router = createRouter({
    routeTree: createRootRoute({
      component: () => <QuotasSection eventId="evt-1" version={3} slots={SLOTS} />,
    }),
    history: createMemoryHistory(),
  });
  container = await mountWithTrpc(<RouterProvider router={router} />);
  await waitFor(() => container.querySelector('table'), 'the list');
}

function field(label: string): HTMLInputElement {
  const id = [...container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label))!.htmlFor;
  return container.querySelector<HTMLInputElement>(`[id="${id}"]`)!;
}

async function type(label: string, value: string) {
  const input = field(label);
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function click(element: HTMLElement) {
  await act(async () => element.click());
}

const button = (text: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === text) as HTMLButtonElement;

describe('the event editor’s Shared capacity section', () => {
  it('lists each quota with its sold, held and left', async () => {
    await render();
    const cells = [...container.querySelectorAll('tbody tr > *')].map((c) => c.textContent);
    expect(cells.slice(0, 1)).toEqual(['Hall']);
    expect(cells.slice(2, 6)).toEqual(['940', '600', '40', '300']);
  });

  it('refuses a capacity of 0 and no ticket types before sending; sends the chosen types with their slots', async () => {
    await render();
    await click(button('Add shared capacity'));
    await type('Name', 'Ground');
    await type('Capacity', '0');
    await click(button('Add shared capacity'));
    await waitFor(() => container.textContent?.includes(QUOTA_MESSAGES.capacityPositive), 'the refusal');
    expect(container.textContent).toContain(QUOTA_MESSAGES.typesRequired);
    expect(sent).toEqual([]);

    await type('Capacity', '1200');
    const boxes = [...container.querySelectorAll<HTMLInputElement>('form input[type="checkbox"]')];
    await click(boxes[0]!); // the matinee's Stalls
    await click(boxes[2]!); // the evening's Stalls
    await click(button('Add shared capacity'));
    await waitFor(() => sent.length > 0, 'the save');
    expect(sent).toEqual([
      {
        eventId: 'evt-1',
        quota: {
          name: 'Ground',
          capacity: 1200,
          slotIds: ['slot-matinee', 'slot-evening'],
          ticketTypeIds: ['tt-stalls', 'tt-eve'],
        },
      },
    ]);
  });

  it('opens a quota’s own values to edit, closes on Cancel, and closes after a save', async () => {
    await render();
    await click(button('Edit'));
    expect(container.querySelector('form h3')?.textContent).toBe('Edit Hall');
    expect(field('Name').value).toBe('Hall');
    expect(field('Capacity').value).toBe('940');
    expect(button('Add shared capacity')).toBeUndefined();
    await click(button('Cancel'));
    expect(container.querySelector('form')).toBeNull();

    await click(button('Add shared capacity'));
    expect(field('Name').value).toBe('');
    await type('Name', 'Ground');
    await type('Capacity', '10');
    await click(container.querySelector<HTMLInputElement>('form input[type="checkbox"]')!);
    await click(button('Add shared capacity'));
    await waitFor(() => container.querySelector('form') === null, 'the form to close after the save');
    expect(sent).toHaveLength(1);
  });
});
