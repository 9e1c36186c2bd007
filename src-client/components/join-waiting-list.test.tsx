// @vitest-environment happy-dom
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHECKOUT_TAXES } from '../../shared/pricing.ts';
import { RECIPIENT_ADDRESS_MESSAGES } from '../../shared/recipient-address.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../test/mocks/trpc-handlers.ts';
import { JoinWaitingList } from './join-waiting-list.tsx';

/**
 * The waiting list's join form asks for the billing address exactly when Rule 46 needs it on the offer's
 * invoice, by the checkout's rule on the taxable value (issue 36). The server's refusal is in
 * test/integration/waitlist.test.ts.
 */
const ME = {
  id: 'u1',
  name: 'Asha Verma',
  email: 'asha@example.com',
  phone: '9876543210',
  imageUrl: null,
  isEmailVerified: true,
  gender: 'female' as const,
  country: 'india' as const,
  state: 'Karnataka',
  about: null,
  bookingIdsList: [],
  hasPassword: true,
  googleLinked: false,
  updatedAt: '2026-11-01T10:00:00.000Z',
};
let joined: unknown[] = [];
const server = setupServer(
  trpcMsw.auth.me.query(() => ME),
  trpcMsw.waitlist.mine.query(() => []),
  trpcMsw.waitlist.join.mutation(({ input }) => {
    joined.push(input);
    return { entryId: 'e1', place: 3 };
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  joined = [];
});
afterAll(() => server.close());

/** A registered organiser's ₹29,500 seat, GST included at 18 % (a workshop: no exemption). */
const TAXES = {
  ...DEFAULT_CHECKOUT_TAXES,
  admissionInvoiceRatePercent: 18,
  admissionExemptionApplies: false,
};

function choose(container: HTMLElement, selector: string, value: string) {
  const box = container.querySelector<HTMLSelectElement>(selector)!;
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(box, value);
    box.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

function type(box: HTMLTextAreaElement, text: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, text);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('JoinWaitingList', () => {
  it('asks for the billing address from a taxable value of ₹50,000, and sends it', async () => {
    const container = await mountWithTrpc(
      <JoinWaitingList
        ticketTypeId="t1"
        ticketTypeName="Gold"
        maxPerOrder={4}
        pricePaise={2_950_000}
        personsPerTicket={1}
        taxes={TAXES}
      />,
    );
    const open = await waitFor(
      () => [...container.querySelectorAll('button')].find((b) => b.textContent === 'Join waiting list'),
      'the join button',
    );
    act(() => open.click());
    const address = () => container.querySelector<HTMLTextAreaElement>('textarea');
    // One seat: 29,500 / 1.18 = 25,000.00 taxable: no address.
    await waitFor(() => container.querySelector('form'), 'the form');
    expect(address()).toBeNull();
    // Two: 59,000 / 1.18 = 50,000.00 taxable: the address, required.
    choose(container, 'select[id$="-quantity"]', '2');
    expect(container.textContent).toContain('Billing address (printed on your GST invoice)');
    const submit = () =>
      act(() => container.querySelector<HTMLButtonElement>('button[type="submit"]')!.click());
    submit();
    expect(container.textContent).toContain(RECIPIENT_ADDRESS_MESSAGES.required);
    expect(joined).toEqual([]);
    type(address()!, 'Flat 4, Koregaon Park, Pune 411001');
    submit();
    await waitFor(() => joined.length > 0, 'the join');
    expect(joined[0]).toMatchObject({
      ticketTypeId: 't1',
      quantity: 2,
      details: { buyerAddress: 'Flat 4, Koregaon Park, Pune 411001' },
    });
  });
});
