// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnswersView, BookingAnswersList } from './booking-answers-list.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

function render(answers: AnswersView): HTMLElement {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<BookingAnswersList answers={answers} />));
  return container;
}

/**
 * The organiser's booking page lists attendee names (issue 40); a part refund that cancelled one
 * attendee's own ticket (ADR 0043, ADR 0046) keeps their name on record but must not show them as holding
 * a ticket. The server's side (answers.attendees[].cancelled) is in test/integration/attendee-qr.test.ts.
 */
describe('BookingAnswersList', () => {
  it('marks an attendee whose own ticket a part refund cancelled, and only them', () => {
    const el = render({
      attendees: [
        {
          ticketTypeId: 'fan',
          ticketTypeName: 'Fan Club',
          position: 1,
          name: 'Kavya Menon',
          cancelled: false,
        },
        { ticketTypeId: 'fan', ticketTypeName: 'Fan Club', position: 2, name: 'Rohan Das', cancelled: true },
      ],
      answers: [],
    });
    const names = [...el.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(names).toEqual(['Kavya Menon', 'Rohan Das · ticket cancelled']);
  });
});
