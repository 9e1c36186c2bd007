// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerProblems,
  type CheckoutAnswers,
  checkoutAnswersOf,
  type TicketTypeForm,
} from '../../../shared/question-schemas.ts';
import { AttendeeQuestions } from './attendee-questions.tsx';

/**
 * The checkout's Attendee Details card (issue 40): one fieldset per ticket with its name and per-ticket
 * questions, the per-booking questions once, the server's messages beside each field, and the values
 * sent to Proceed keyed by ticket position. The server's own checks: test/integration/attendee-questions.test.ts.
 */
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const FORMS: TicketTypeForm[] = [
  {
    ticketTypeId: 'gold',
    ticketTypeName: 'Gold',
    attendeeNames: 'required',
    questions: [
      {
        id: 'size',
        ticketTypeId: 'gold',
        label: 'T-shirt size',
        kind: 'choice',
        options: ['S', 'M'],
        required: true,
        scope: 'attendee',
      },
      {
        id: 'veg',
        ticketTypeId: 'gold',
        label: 'Vegetarian meal',
        kind: 'yes_no',
        options: [],
        required: false,
        scope: 'booking',
      },
    ],
  },
];
const QUANTITIES = new Map([['gold', 2]]);

let root: Root | undefined;
let container: HTMLElement;
let sent: CheckoutAnswers | null = null;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

function Form() {
  const [values, setValues] = useState<Record<string, string>>({});
  sent = checkoutAnswersOf(values);
  return (
    <AttendeeQuestions
      forms={FORMS}
      quantities={QUANTITIES}
      values={values}
      problems={answerProblems(FORMS, QUANTITIES, values)}
      onChange={(key, value) => setValues((v) => ({ ...v, [key]: value }))}
    />
  );
}

function render() {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() => root!.render(<Form />));
}

function type(id: string, text: string) {
  const box = container.querySelector<HTMLInputElement>(`[id="${id}"]`)!;
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(box, text);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

function choose(id: string, value: string) {
  const box = container.querySelector<HTMLSelectElement>(`[id="${id}"]`)!;
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(box, value);
    box.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const errors = () => [...container.querySelectorAll('[id$="-error"]')].map((e) => e.textContent);

describe('AttendeeQuestions', () => {
  it('asks each ticket its name and size, the meal once, and sends what was typed by ticket', () => {
    render();
    const legends = [...container.querySelectorAll('legend')].map((l) => l.textContent);
    expect(legends).toEqual(['Gold, ticket 1', 'Gold, ticket 2', 'Gold']);
    expect(errors()).toEqual([
      'Gold, ticket 1: attendee name is required',
      'Gold, ticket 1: T-shirt size: an answer is required',
      'Gold, ticket 2: attendee name is required',
      'Gold, ticket 2: T-shirt size: an answer is required',
    ]);

    type('name:gold:1', 'Asha Verma');
    type('name:gold:2', 'R');
    choose('answer:size:1', 'M');
    choose('answer:size:2', 'S');
    choose('answer:veg:0', 'Yes');
    expect(errors()).toEqual(['Gold, ticket 2: Attendee name must be at least 2 characters']);
    type('name:gold:2', 'Ravi Verma');
    expect(errors()).toEqual([]);
    expect(sent).toEqual({
      names: [
        { ticketTypeId: 'gold', position: 1, name: 'Asha Verma' },
        { ticketTypeId: 'gold', position: 2, name: 'Ravi Verma' },
      ],
      answers: [
        { questionId: 'size', position: 1, value: 'M' },
        { questionId: 'size', position: 2, value: 'S' },
        { questionId: 'veg', position: 0, value: 'Yes' },
      ],
    });
  });
});
