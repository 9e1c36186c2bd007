import { useEffect, useRef, useState } from 'react';
import { ticketDetailsFieldProblems, ticketDetailsProblems } from '../../../shared/checkout-schemas.ts';
import { answerProblems } from '../../../shared/question-schemas.ts';
import type { useCurrentUser } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';
import type { SelectedLine } from './checkout-price.ts';
import { type EditableFieldHandle, focusInView } from './editable-field.tsx';
import { useBuyerDetails } from './use-buyer-details.ts';

/**
 * What the buyer fills in: their details and the attendee names and answers the ticket types ask for
 * (issue 40). Nothing is marked wrong until the first Proceed (`check`); from then on each field shows its
 * own problem until it is fixed, and each Proceed takes the buyer to the first field to fix.
 */
export function useCheckoutForm({
  me,
  eventId,
  slotId,
  lines,
}: {
  me: ReturnType<typeof useCurrentUser>;
  eventId: string;
  slotId: string;
  lines: SelectedLine[];
}) {
  const [details, setDetails] = useBuyerDetails(me);
  const [detailsChecked, setDetailsChecked] = useState(false);
  // Attendee names and answers to the ticket types' questions, keyed as Proceed sends them.
  const questions = trpc.questions.checkoutForm.useQuery({ eventId, slotId });
  const questionForms = questions.data ?? [];
  const quantities = new Map(lines.map((l) => [l.type.id, l.quantity]));
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [answersChecked, setAnswersChecked] = useState(false);

  const fields = {
    name: useRef<EditableFieldHandle>(null),
    email: useRef<EditableFieldHandle>(null),
    phone: useRef<EditableFieldHandle>(null),
  };
  const stateSelect = useRef<HTMLSelectElement>(null);
  // After the render that shows each field's problem, so that focus lands on a field already described.
  const [revealField, setRevealField] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per Proceed, on that Proceed's details.
  useEffect(() => {
    if (revealField === 0) return;
    const problems = ticketDetailsFieldProblems(details);
    if (problems.name) fields.name.current?.reveal();
    else if (problems.email) fields.email.current?.reveal();
    else if (problems.phone) fields.phone.current?.reveal();
    else if (problems.state) focusInView(stateSelect.current);
  }, [revealField]);

  return {
    details,
    setDetails,
    fields,
    stateSelect,
    fieldProblems: (addressRequired: boolean) =>
      detailsChecked ? ticketDetailsFieldProblems(details, { addressRequired }) : {},
    questionForms,
    quantities,
    answers,
    answerProblems: answersChecked ? answerProblems(questionForms, quantities, answers) : {},
    setAnswer: (key: string, value: string) => setAnswers((a) => ({ ...a, [key]: value })),
    /** Proceed's check: every problem in the form, and the first field to fix brought into view. */
    check: (addressRequired: boolean): string[] => {
      setDetailsChecked(true);
      setAnswersChecked(true);
      const problems = [
        ...ticketDetailsProblems(details, { addressRequired }),
        ...Object.values(answerProblems(questionForms, quantities, answers)),
      ];
      if (problems.length > 0) setRevealField((n) => n + 1);
      return problems;
    },
  };
}
