// @vitest-environment happy-dom
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mountWithTrpc, unmountMounted, waitFor } from '../../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../../test/mocks/trpc-handlers.ts';
import { PlatformEInvoicing } from './platform-e-invoicing.tsx';

/**
 * The admin's section for the platform's own e-invoicing (issue 36): what is on, the B2B fee invoices and
 * credit notes the IRP has not registered with its message, and "Try again" once the retries stopped,
 * which asks the server and then shows the list again. The server's side (admin.eInvoicing,
 * admin.retryEInvoice, who may call them) is in test/integration/platform-e-invoicing.test.ts.
 */
type State = {
  applies: boolean;
  since: string | null;
  providerConfigured: boolean;
  notRegistered: {
    invoiceId: string;
    number: string;
    issuedAt: string;
    status: 'pending' | 'failed';
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
  }[];
  creditNotesNotRegistered: never[];
};
const FAILED = {
  invoiceId: 'inv-fee-1',
  number: 'PLT/26-27/000007',
  issuedAt: '2026-11-20T10:00:00.000Z',
  status: 'failed' as const,
  attempts: 5,
  lastError: 'IRP: the recipient GSTIN is not active',
  nextAttemptAt: null,
};
let state: State;
const retried: unknown[] = [];

const server = setupServer(
  trpcMsw.admin.eInvoicing.query(() => state as never),
  trpcMsw.admin.retryEInvoice.mutation(({ input }) => {
    retried.push(input);
    state = { ...state, notRegistered: [] };
    return { retried: true } as never;
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  retried.length = 0;
});
afterAll(() => server.close());

const on = (over: Partial<State> = {}): State => ({
  applies: true,
  since: '2026-10-01',
  providerConfigured: true,
  notRegistered: [FAILED],
  creditNotesNotRegistered: [],
  ...over,
});

describe('the admin’s platform e-invoicing', () => {
  it('lists a fee invoice the IRP refused with its message; Try again retries it and the list empties', async () => {
    state = on();
    const container = await mountWithTrpc(<PlatformEInvoicing />);
    const button = await waitFor(
      () => container.querySelector<HTMLButtonElement>(`button[aria-label="Try again: ${FAILED.number}"]`),
      'the Try again button',
    );
    expect(container.textContent).toContain('registered with the IRP');
    expect(container.textContent).toContain(`${FAILED.number} of`);
    expect(container.textContent).toContain(FAILED.lastError);
    await act(async () => button.click());
    await waitFor(
      () => container.textContent?.includes('Nothing is waiting for an IRN.'),
      'the emptied list',
    );
    expect(retried).toEqual([{ invoiceId: FAILED.invoiceId }]);
  });

  it('says when the server cannot reach an IRP, and when e-invoicing is off', async () => {
    state = on({ providerConfigured: false });
    let container = await mountWithTrpc(<PlatformEInvoicing />);
    await waitFor(() => container.querySelector('[role="status"]'), 'the no-connection status');
    expect(container.querySelector('[role="status"]')?.textContent).toContain('no connection to the IRP');
    unmountMounted();

    state = on({ applies: false, since: null, notRegistered: [] });
    container = await mountWithTrpc(<PlatformEInvoicing />);
    await waitFor(() => container.textContent?.includes('E-invoicing is off'), 'the off text');
    expect(container.textContent).not.toContain('Nothing is waiting');
  });
});
