// @vitest-environment happy-dom
import { TRPCError } from '@trpc/server';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { E_INVOICING_MESSAGES } from '../../../shared/e-invoicing-schemas.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../../test/mocks/trpc-handlers.ts';
import { EInvoicingSettings } from './e-invoicing.tsx';

/**
 * The organiser's e-invoicing section (ADR 0034): the turnover answer (₹10 crore or more: the IRP's
 * 30-day window applies) is sent with the setting, and the server's refusal to turn it on without a PIN
 * code in the profile's address is shown. The server's side is in test/integration/e-invoicing.test.ts.
 */
let state: { applies: boolean; aatoTenCroreOrMore: boolean };
let refusePin = false;
let failed: { invoiceId: string; number: string }[] = [];
const sent: unknown[] = [];
const RETRY_REFUSED = 'This invoice is no longer waiting for an IRN.';

const server = setupServer(
  trpcMsw.invoices.eInvoicing.query(
    () =>
      ({
        ...state,
        since: state.applies ? '2026-11-01T00:00:00.000Z' : null,
        providerConfigured: true,
        notRegistered: failed.map((f) => ({
          ...f,
          issuedAt: '2026-11-20T10:00:00.000Z',
          status: 'failed',
          attempts: 8,
          lastError: 'IRP: 2150 duplicate IRN',
          nextAttemptAt: null,
        })),
        creditNotesNotRegistered: [],
      }) as never,
  ),
  trpcMsw.invoices.retryEInvoice.mutation(() => {
    throw new TRPCError({ code: 'CONFLICT', message: RETRY_REFUSED });
  }),
  trpcMsw.invoices.setEInvoicing.mutation(({ input }) => {
    sent.push(input);
    if (refusePin) throw new TRPCError({ code: 'BAD_REQUEST', message: E_INVOICING_MESSAGES.needsPin });
    state = {
      applies: input.applies,
      aatoTenCroreOrMore: input.aatoTenCroreOrMore ?? state.aatoTenCroreOrMore,
    };
    return undefined as never;
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  sent.length = 0;
  refusePin = false;
  failed = [];
});
afterAll(() => server.close());

const checkbox = (container: HTMLElement, label: string) =>
  [...container.querySelectorAll('label')]
    .find((l) => l.textContent?.includes(label))
    ?.querySelector<HTMLInputElement>('input[type="checkbox"]:not([disabled])') ?? null;
const box = (container: HTMLElement, label: string) => waitFor(() => checkbox(container, label), label);

describe('the organiser’s e-invoicing settings', () => {
  it('sends the turnover answer with the setting', async () => {
    state = { applies: true, aatoTenCroreOrMore: false };
    const container = await mountWithTrpc(<EInvoicingSettings registered />);
    const aato = await box(container, '₹10 crore or more');
    expect(aato.checked).toBe(false);
    await act(async () => aato.click());
    await waitFor(() => sent.length > 0, 'the setting sent');
    expect(sent).toEqual([{ applies: true, aatoTenCroreOrMore: true }]);
    await waitFor(() => checkbox(container, '₹10 crore or more')?.checked, 'the answer shown as ticked');
  });

  it('shows the refusal to turn it on without a PIN code in the profile’s address', async () => {
    state = { applies: false, aatoTenCroreOrMore: false };
    refusePin = true;
    const container = await mountWithTrpc(<EInvoicingSettings registered />);
    const applies = await box(container, 'E-invoicing applies to me');
    await act(async () => applies.click());
    const alert = await waitFor(() => container.querySelector('[role="alert"]'), 'the refusal');
    expect(alert.textContent).toBe(E_INVOICING_MESSAGES.needsPin);
  });

  it('shows a refused Try again above the list, as the admin’s section does', async () => {
    state = { applies: true, aatoTenCroreOrMore: false };
    failed = [{ invoiceId: 'inv-9', number: 'INV/26-27/000009' }];
    const container = await mountWithTrpc(<EInvoicingSettings registered />);
    const again = await waitFor(
      () => container.querySelector<HTMLButtonElement>('button[aria-label="Try again: INV/26-27/000009"]'),
      'the Try again button',
    );
    await act(async () => again.click());
    const alert = await waitFor(() => container.querySelector('[role="alert"]'), 'the refusal');
    expect(alert.textContent).toBe(RETRY_REFUSED);
  });
});
