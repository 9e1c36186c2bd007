// @vitest-environment happy-dom
import { setupServer } from 'msw/node';
import { act, type ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountWithTrpc, unmountMounted, waitFor } from '../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../test/mocks/trpc-handlers.ts';
import { BookingInvoiceLinks } from './booking-invoices.tsx';
import { CancelSomeTickets } from './cancel-some-tickets.tsx';

/**
 * A booking's invoice links on My Bookings (issue 36 item 12): the credit notes of part refunds ("Cancel
 * some tickets") download beside the invoices, and appear as soon as the part is cancelled. The server's
 * side (invoices.forBooking listing them, the PDF route) is in test/integration/partial-refunds-buyer.test.ts.
 */
const BOOKING = 'JBPARTCN2345';
const NOTE = { id: 'pcn-1', number: 'CRN/26-27/000001', totalPaise: 118_000 };
let partNotes: { id: string; number: string; totalPaise: number }[] = [];
let feeNotes: { id: string; number: string; totalPaise: number }[] = [];
const server = setupServer(
  trpcMsw.invoices.forBooking.query(({ input }) => [
    {
      id: 'inv-1',
      bookingId: input.bookingId,
      kind: 'admission' as const,
      number: 'INV/26-27/000001',
      issuedAt: '2026-11-20T10:00:00.000Z',
      totalPaise: 236_000,
      buyerGstin: null,
      creditNoteNumber: null,
      creditNoteId: null,
      partCreditNotes: partNotes,
    },
    {
      id: 'inv-2',
      bookingId: input.bookingId,
      kind: 'platform_fee' as const,
      number: 'PLF/26-27/000001',
      issuedAt: '2026-11-20T10:00:00.000Z',
      totalPaise: 27_848,
      buyerGstin: null,
      creditNoteNumber: null,
      creditNoteId: null,
      partCreditNotes: feeNotes,
    },
  ]),
  trpcMsw.bookings.cancelSomeTickets.mutation(() => {
    partNotes = [NOTE];
    return { refundAmountPaise: NOTE.totalPaise };
  }),
);

let container: HTMLElement;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  partNotes = [];
  feeNotes = [];
});
afterAll(() => server.close());

async function render(children: ReactNode) {
  container = await mountWithTrpc(children);
}

/** The download links shown: accessible name, visible text and address. */
const links = () =>
  [...container.querySelectorAll('a')].map((a) => ({
    name: a.getAttribute('aria-label'),
    text: a.textContent,
    href: a.getAttribute('href'),
  }));

const button = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === text);

describe('part-refund credit notes among a booking’s invoice links', () => {
  it('one link per part credit note, named by its number and amount, to its PDF', async () => {
    partNotes = [NOTE, { id: 'pcn-3', number: 'CRN/26-27/000002', totalPaise: 59_000 }];
    feeNotes = [{ id: 'pcn-2', number: 'CRN/26-27/000001', totalPaise: 6_962 }];
    await render(<BookingInvoiceLinks bookingId={BOOKING} />);
    await waitFor(() => container.querySelector('a'), 'the invoice links');
    expect(links()).toEqual([
      {
        name: 'Download GST invoice INV/26-27/000001',
        text: 'GST invoice',
        href: '/api/invoices/inv-1.pdf',
      },
      {
        name: 'Download Convenience fee invoice PLF/26-27/000001',
        text: 'Convenience fee invoice',
        href: '/api/invoices/inv-2.pdf',
      },
      {
        name: 'Download Credit note CRN/26-27/000001 for ₹1,180.00',
        text: 'Credit note CRN/26-27/000001 for ₹1,180.00',
        href: '/api/invoices/credit-notes/pcn-1.pdf',
      },
      {
        name: 'Download Credit note CRN/26-27/000002 for ₹590.00',
        text: 'Credit note CRN/26-27/000002 for ₹590.00',
        href: '/api/invoices/credit-notes/pcn-3.pdf',
      },
      // The platform numbers its own notes: the same number as the organiser's, told apart by its kind.
      {
        name: 'Download Convenience fee credit note CRN/26-27/000001 for ₹69.62',
        text: 'Convenience fee credit note CRN/26-27/000001 for ₹69.62',
        href: '/api/invoices/credit-notes/pcn-2.pdf',
      },
    ]);
    expect(new Set(links().map((l) => l.name)).size).toBe(links().length);
  });

  it('"Cancel some tickets" brings the new credit note’s link without a reload', async () => {
    await render(
      <>
        <BookingInvoiceLinks bookingId={BOOKING} />
        <CancelSomeTickets
          bookingId={BOOKING}
          eventName="Sufi Evening"
          lines={[{ id: 'tt-floor', name: 'Floor', quantity: 2 }]}
        />
      </>,
    );
    await waitFor(() => container.querySelector('a'), 'the invoice links');
    expect(links().some((l) => l.href?.includes('credit-notes'))).toBe(false);

    await act(async () => button('Cancel some tickets')!.click());
    const quantity = await waitFor(
      () => document.querySelector<HTMLInputElement>('input[aria-label="Floor tickets to cancel"]'),
      'the quantity box',
    );
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(quantity, '1');
      quantity.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => button('Cancel these tickets')!.click());
    await waitFor(() => document.querySelector('[role="status"]'), 'the refund stated');

    const link = await waitFor(
      () => container.querySelector<HTMLAnchorElement>('a[href="/api/invoices/credit-notes/pcn-1.pdf"]'),
      'the new credit note’s link',
    );
    expect(link.textContent).toBe('Credit note CRN/26-27/000001 for ₹1,180.00');
  });
});
