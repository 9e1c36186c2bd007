// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GST_MESSAGES } from '../../../shared/gst-schemas.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../../test/mocks/trpc-handlers.ts';
import { type EventGst, EventGstSection } from './event-gst-section.tsx';

/**
 * The editor's GST section (issue 36) on an msw-mocked procedure: what it sends, and what it refuses
 * before sending. The server's own checks are in test/integration/gst-place-of-supply.test.ts.
 */
const sent: unknown[] = [];
const server = setupServer(
  trpcMsw.invoices.setEventTaxRate.mutation(({ input }) => {
    sent.push(input);
  }),
  trpcMsw.organiser.editableEvent.query(() => {
    throw new Error('not needed');
  }),
);

let container: HTMLElement;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  sent.length = 0;
});
afterAll(() => server.close());

async function render(gst: Partial<EventGst>) {
  const props: EventGst = {
    eventId: 'evt-1',
    taxRate: null,
    venueState: null,
    venueStates: ['Delhi', 'Haryana', 'Uttar Pradesh'],
    admissionKind: null,
    defaultAdmissionKind: 'concert',
    taxInclusive: null,
    invoicing: { registered: false },
    ticketSaleGstProblem: null,
    ...gst,
  };
  const router = createRouter({
    routeTree: createRootRoute({ component: () => <EventGstSection gst={props} /> }),
    history: createMemoryHistory(),
  });
  container = await mountWithTrpc(<RouterProvider router={router} />);
  await waitFor(() => container.querySelector('form'), 'the form');
}

function select(label: string): HTMLSelectElement {
  const id = [...container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label))!.htmlFor;
  return container.querySelector<HTMLSelectElement>(`[id="${id}"]`)!;
}

async function choose(label: string, value: string) {
  const field = select(label);
  await act(async () => {
    field.value = value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function submit() {
  await act(async () => {
    container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
  });
}

describe('the event editor’s GST section', () => {
  it('in Delhi/NCR asks for the venue’s state before saving, then sends it with the kind of event', async () => {
    await render({});
    const venue = select('Venue’s state');
    expect([...venue.options].map((o) => o.value)).toEqual(['', 'Delhi', 'Haryana', 'Uttar Pradesh']);
    expect(venue.value).toBe('');
    // The kind's empty choice names the category's default.
    expect(select('Kind of event').options[0]!.textContent).toBe(
      'Category default: Concert or musical performance',
    );

    await submit();
    await waitFor(() => container.textContent?.includes(GST_MESSAGES.venueStateRequired), 'the refusal');
    expect(sent).toEqual([]);

    await choose('Venue’s state', 'Haryana');
    await choose('Kind of event', 'other');
    await submit();
    await waitFor(() => sent.length > 0, 'the save');
    expect(sent).toEqual([
      { eventId: 'evt-1', taxRate: null, venueState: 'Haryana', admissionKind: 'other' },
    ]);
  });

  it('fills in the one state of a single-state city', async () => {
    await render({ venueStates: ['Maharashtra'], defaultAdmissionKind: 'other' });
    expect(select('Venue’s state').value).toBe('Maharashtra');
    await submit();
    await waitFor(() => sent.length > 0, 'the save');
    expect(sent).toEqual([
      { eventId: 'evt-1', taxRate: null, venueState: 'Maharashtra', admissionKind: null },
    ]);
  });

  it('offers a registered organiser "Prices plus GST" and sends it; an unregistered one is not offered it', async () => {
    await render({ venueStates: ['Maharashtra'] });
    expect(container.textContent).not.toContain('Ticket prices');

    unmountMounted();
    await render({ venueStates: ['Maharashtra'], invoicing: { registered: true } });
    expect([...select('Ticket prices').options].map((o) => o.textContent)).toEqual([
      'Prices include GST (profile default)',
      'Prices include GST',
      'Prices plus GST (added at checkout)',
    ]);
    await choose('Ticket prices', 'plus');
    await submit();
    await waitFor(() => sent.length > 0, 'the save');
    expect(sent).toEqual([
      {
        eventId: 'evt-1',
        taxRate: null,
        venueState: 'Maharashtra',
        admissionKind: null,
        taxInclusive: false,
      },
    ]);
  });

  it('tells the organiser a rate saved before 22 September 2025 is out of the schedule, and the rates to choose from', async () => {
    await render({ venueStates: ['Maharashtra'], invoicing: { registered: true }, taxRate: 28 });
    expect(container.querySelector('[role="alert"]')).toBeNull();

    unmountMounted();
    await render({
      venueStates: ['Maharashtra'],
      invoicing: { registered: true },
      taxRate: 28,
      ticketSaleGstProblem: { kind: 'rateNotInForce', ratePercent: 28 },
    });
    const alert = container.querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe(GST_MESSAGES.rateNotInForce(28));
    expect(alert.textContent).toContain('28 % is no longer in force');
    expect(alert.textContent).toContain('since 22 September 2025 the rates are 0, 5, 18, 40 %');
  });
  it('tells a registered organiser why a Delhi/NCR event published without its venue’s state sells nothing', async () => {
    await render({
      invoicing: { registered: true },
      ticketSaleGstProblem: { kind: 'venueStateNotSet', city: 'Delhi/NCR' },
    });
    const alert = container.querySelector('[role="alert"]')!;
    expect(alert.textContent).toBe(GST_MESSAGES.venueStateNotSet('Delhi/NCR'));
    expect(alert.textContent).toContain('Delhi/NCR spans several states');
    expect(alert.textContent).toContain('until then its tickets are not sold');
  });
});
