// @vitest-environment happy-dom
import { TRPCError } from '@trpc/server';
import { setupServer } from 'msw/node';
import { act } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUESTION_MESSAGES } from '../../shared/question-schemas.ts';
import { mountWithTrpc, unmountMounted, waitFor } from '../../test/mocks/mount-with-trpc.tsx';
import { trpcMsw } from '../../test/mocks/trpc-handlers.ts';
import { AttendeeNamesSection } from './attendee-names.tsx';

/**
 * The buyer corrects an attendee's name on My Bookings until the cut-off (issue 40, ADR 0040). The
 * server's side (the cut-off, someone else's booking, the order history) is in
 * test/integration/attendee-questions.test.ts; here msw answers `questions.myAttendees` and
 * `questions.correctAttendeeName` as the server would.
 */
const BOOKING = 'JBNAMES23456';
const UNTIL = '2099-01-09T13:30:00.000Z';
type Attendee = { ticketTypeId: string; ticketTypeName: string; position: number; name: string };
let attendees: Attendee[] = [];
let editable = true;
let sent: unknown[] = [];
/** What the next correction answers: null saves it; an error is thrown as the server's refusal. */
let refusal: TRPCError | null = null;

const server = setupServer(
  trpcMsw.questions.myAttendees.query(() => ({ attendees, editable, editableUntil: UNTIL })),
  trpcMsw.questions.correctAttendeeName.mutation(({ input }) => {
    sent.push(input);
    if (refusal) throw refusal;
    attendees = attendees.map((a) =>
      a.ticketTypeId === input.ticketTypeId && a.position === input.position ? { ...a, name: input.name } : a,
    );
    return input;
  }),
);

let container: HTMLElement;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  unmountMounted();
  attendees = [];
  editable = true;
  sent = [];
  refusal = null;
});
afterAll(() => server.close());

async function render() {
  attendees = [
    { ticketTypeId: 'tt-floor', ticketTypeName: 'Floor', position: 1, name: 'Asha Verma' },
    { ticketTypeId: 'tt-floor', ticketTypeName: 'Floor', position: 2, name: 'Priya Verma' },
  ];
  container = await mountWithTrpc(<AttendeeNamesSection bookingId={BOOKING} />);
  await waitFor(() => container.textContent?.includes('Attendees'), 'the attendees');
}

const byLabel = (label: string) =>
  container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`) ?? undefined;
const button = (text: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === text);
/** The row of one attendee: its label and the name shown. */
const rows = () => [...container.querySelectorAll('li')].map((li) => li.textContent);

/** Change → type `name` → Save on the second ticket, as the buyer does it. */
async function renameSecond(name: string) {
  await act(async () => byLabel('Change the name of Floor, ticket 2')!.click());
  const input = await waitFor(
    () => container.querySelector<HTMLInputElement>('input#attendee-tt-floor-2'),
    'the name field',
  );
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, name);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await act(async () => button('Save')!.click());
  return input;
}

describe('correcting an attendee’s name on My Bookings', () => {
  it('sends the corrected name for that ticket and shows it once saved', async () => {
    await render();
    expect(container.textContent).toContain('Names can be changed until');
    expect(rows()).toEqual(['Floor, ticket 1: Asha VermaChange', 'Floor, ticket 2: Priya VermaChange']);

    await renameSecond('  Priya Sharma ');
    await waitFor(() => rows()[1]?.includes('Priya Sharma'), 'the new name');
    // Trimmed by the same schema the server parses; only the one ticket named.
    expect(sent).toEqual([
      { bookingId: BOOKING, ticketTypeId: 'tt-floor', position: 2, name: 'Priya Sharma' },
    ]);
    expect(rows()).toEqual(['Floor, ticket 1: Asha VermaChange', 'Floor, ticket 2: Priya SharmaChange']);
    expect(container.querySelector('input')).toBeNull();
  });

  it('past the cut-off: the names are shown, nothing can be edited, and the section says why', async () => {
    editable = false;
    await render();
    expect(rows()).toEqual(['Floor, ticket 1: Asha Verma', 'Floor, ticket 2: Priya Verma']);
    expect(container.querySelectorAll('button')).toHaveLength(0);
    expect(container.querySelector('input')).toBeNull();
    expect(container.textContent).toContain(
      'Names can no longer be changed: the show starts within 24 hours.',
    );
    expect(container.textContent).not.toContain('Names can be changed until');
  });

  it('shows the server’s refusal of the name on the field, which keeps what was typed', async () => {
    const message = QUESTION_MESSAGES.nameTooLong;
    // As the server's error formatter sends a zod refusal: the field's message, also as the message.
    refusal = Object.assign(new TRPCError({ code: 'BAD_REQUEST', message }), {
      fieldErrors: { name: message },
    });
    await render();
    const input = await renameSecond('Priya Sharma');
    const alert = await waitFor(() => container.querySelector('[role="alert"]'), 'the refusal');
    expect(alert.textContent).toBe(message);
    expect(sent).toHaveLength(1);
    // On the field: marked invalid and described by the message, the typed name still there to fix.
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    expect(alert.id).not.toBe('');
    expect(input.value).toBe('Priya Sharma');
    expect(attendees[1]!.name).toBe('Priya Verma');
  });
});
