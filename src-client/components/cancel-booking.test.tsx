// @vitest-environment happy-dom
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountWithTrpc, unmountMounted, waitFor } from '../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../test/mocks/trpc-handlers.ts';
import type { OwnBooking } from '../lib/booking-display.ts';
import { Route as MyBookingsRoute } from '../routes/buyer/my-bookings.lazy.tsx';
import { Route as TicketRoute } from '../routes/buyer/ticket.lazy.tsx';

/**
 * After "Yes, cancel booking" (issue 39, accessibility): the booking's card loses its "Cancel booking"
 * button (My Bookings) or the ticket gives way to a message (the ticket page) when the booking is read
 * again. The page then says what was done, politely, and focus goes to that message rather than falling to
 * the start of the page. The real pages, under a router, with msw answering their procedures.
 */
const BOOKING = 'JBCANCEL2345';
const REFUND_PAISE = 45_000;
const MESSAGE = `Booking ${BOOKING} cancelled. A refund of ₹450.00 is on its way to your original payment method.`;
let status: 'confirmed' | 'cancelled' = 'confirmed';

const booking = (): OwnBooking => ({
  id: BOOKING,
  eventId: 'ev-1',
  eventName: 'Sufi Evening',
  eventLocation: 'Bengaluru',
  posterUrl: null,
  imageUrl: null,
  ticketDate: '2099-01-10T00:00:00.000Z',
  ticketSlot: '2099-01-10T13:30:00.000Z',
  ticketSlotEnd: '2099-01-10T16:30:00.000Z',
  rescheduledFrom: null,
  ticketTypeName: 'Floor',
  ticketCount: 1,
  ticketTypes: [{ id: 'tt-floor', name: 'Floor', quantity: 1, pricePaise: 50_000 }],
  userName: 'Asha Verma',
  totalAmountPaise: 55_000,
  status,
  cancelReason: status === 'cancelled' ? 'buyer' : null,
  isCheckIn: false,
  numberOfUserCheckedIn: 0,
  totalUserAllowed: 1,
  createdAt: '2026-11-20T10:00:00.000Z',
  qrToken: 'token',
  addOns: [],
  attendeeTickets: [],
  // No booking QR to draw: each person's would be on the ticket page.
  bookingQrAdmits: false,
});

const server = setupServer(
  trpcMsw.bookings.mine.query(() => [booking()]),
  trpcMsw.bookings.byId.query(() => booking() as never),
  trpcMsw.transfers.sent.query(() => []),
  trpcMsw.waitlist.mine.query(() => []),
  trpcMsw.invoices.forBooking.query(() => []),
  trpcMsw.questions.myAttendees.query(
    () => ({ attendees: [], editable: false, editableUntil: null }) as never,
  ),
  trpcMsw.transfers.status.query(() => ({ state: 'unavailable', reason: 'Not transferable.' }) as never),
  trpcMsw.bookings.cancellationQuote.query(() =>
    status === 'confirmed'
      ? {
          cancellable: true as const,
          refundAmountPaise: REFUND_PAISE,
          cutoffAt: '2099-01-09T13:30:00.000Z',
          rescheduled: false,
          policy: { rule: 'minus_fee' as const, percent: null, cutoffHours: 24 },
          policyText: 'Refundable up to 24 hours before the show; the convenience fee is not refunded.',
        }
      : ({ cancellable: false, reason: 'This booking is already cancelled.' } as never),
  ),
  trpcMsw.bookings.cancel.mutation(() => {
    status = 'cancelled';
    return { cancelled: true, refundAmountPaise: REFUND_PAISE };
  }),
);

let container: HTMLElement;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  status = 'confirmed';
});
afterAll(() => server.close());

/** The two pages at their real route ids (the ticket page reads its id from its route's params). */
async function render(path: string) {
  const rootRoute = createRootRoute();
  const buyer = createRoute({ getParentRoute: () => rootRoute, id: '_buyer' });
  const routeTree = rootRoute.addChildren([
    buyer.addChildren([
      createRoute({
        getParentRoute: () => buyer,
        path: '/my-bookings',
        component: MyBookingsRoute.options.component,
      }),
      createRoute({
        getParentRoute: () => buyer,
        path: '/ticket/$bookingId',
        component: TicketRoute.options.component,
      }),
    ]),
  ]);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });
  container = await mountWithTrpc(<RouterProvider router={router} />);
}

const button = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === text);
const statusSaying = (text: string) =>
  [...document.querySelectorAll('[role="status"]')].find((s) => s.textContent === text);

/** Cancel booking → Yes, cancel booking, as a click does it (the button takes focus first). */
async function cancelTheBooking() {
  const opener = await waitFor(() => button('Cancel booking'), 'the Cancel booking button');
  await act(async () => {
    opener.focus();
    opener.click();
  });
  const confirm = await waitFor(() => button('Yes, cancel booking'), 'the confirmation');
  await act(async () => {
    confirm.focus();
    confirm.click();
  });
}

describe('a whole booking cancelled: the page says so and focus goes to what it says (issue 39)', () => {
  it('My Bookings: a polite status with the refund, focused, once the card shows it cancelled', async () => {
    await render('/my-bookings');
    await cancelTheBooking();
    // The booking read again: its card says it was cancelled and its cancel button has gone.
    await waitFor(() => container.textContent?.includes('You cancelled this booking.'), 'the cancelled card');
    await waitFor(() => !button('Cancel booking'), 'the Cancel booking button to go');
    await act(() => new Promise((r) => setTimeout(r, 20)));

    const region = statusSaying(MESSAGE);
    expect(region, document.body.textContent ?? '').toBeDefined();
    // Focus on the message itself (tabIndex -1), inside the live region; not the page's start.
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.textContent).toBe(MESSAGE);
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
    expect(region!.contains(document.activeElement)).toBe(true);
  });

  it('the ticket page: the same message, focused, the only status, above the line that the ticket no longer works', async () => {
    await render(`/ticket/${BOOKING}`);
    await cancelTheBooking();
    await waitFor(
      () => container.textContent?.includes('This ticket is no longer valid.'),
      'the cancelled ticket’s line',
    );
    await act(() => new Promise((r) => setTimeout(r, 20)));

    const region = statusSaying(MESSAGE);
    expect(region, document.body.textContent ?? '').toBeDefined();
    // Said once: the ticket's own "You cancelled booking …" status is not read out after it.
    expect([...document.querySelectorAll('[role="status"]')].map((s) => s.textContent)).toEqual([MESSAGE]);
    expect(document.activeElement?.textContent).toBe(MESSAGE);
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
    expect(region!.contains(document.activeElement)).toBe(true);
  });
});
