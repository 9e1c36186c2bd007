/**
 * The look-up's attendee names and answers in one line (issue 40), so staff can check who is who and
 * hand over what was asked for: "Asha Verma, Ravi Verma · T-shirt size: M, L".
 */
export function attendeeLine(answers: {
  attendees: { name: string }[];
  answers: { label: string; value: string }[];
}): string {
  const byLabel = new Map<string, string[]>();
  for (const a of answers.answers) byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a.value]);
  return [
    answers.attendees.map((a) => a.name).join(', '),
    ...[...byLabel].map(([label, values]) => `${label}: ${values.join(', ')}`),
  ]
    .filter(Boolean)
    .join(' · ');
}
