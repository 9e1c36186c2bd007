import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { messageOf } from './auth.ts';
import { fieldErrorsOf } from './trpc.ts';

/**
 * Puts the server's field errors (tRPC's `data.fieldErrors`, from the same zod schema the form parses)
 * on the form's own fields: each beside its field, the first one focused so a long form scrolls to it.
 * `fields` are the names this form shows (the server may name others, which no field could show).
 *
 * Returns the message for the form's own error line when no field took one (a refusal about the whole
 * form, a lost connection), else null. The one home of a loop each form wrote out for itself (issue 39).
 */
export function showServerErrors<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  fields: readonly Path<T>[],
  fallback?: string,
): string | null {
  const messages = fieldErrorsOf(error);
  const placed = fields.filter((name) => messages[name]);
  placed.forEach((name, i) => {
    form.setError(name, { message: messages[name] }, { shouldFocus: i === 0 });
  });
  return placed.length > 0 ? null : messageOf(error, fallback);
}

/**
 * For a form kept in component state (the console's sections): a zod refusal's messages by field, the
 * first per field. The field is the path segment at `at` (`1` for `{ eventId, quota: { name } }`, so a
 * list's item refusal shows on the list; `-1` for the innermost name).
 */
export function zodFieldErrors(issues: readonly { path: PropertyKey[]; message: string }[], at: number) {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[String(issue.path.at(at))] ??= issue.message;
  return errors;
}

/**
 * The server's refusal for a form kept in state: its field messages when it named fields, else the
 * message for the form's own line (`fallback` when no answer came). The state forms' counterpart of
 * `showServerErrors`, and like it, given `fields` (the names this form shows), a message for a field the
 * form does not show goes to the form's line instead of nowhere. No error (a mutation's `error` before
 * it fails): nothing to show.
 */
export function serverRefusalOf(
  error: unknown,
  options: { fields?: readonly string[]; fallback?: string } = {},
): { fields: Record<string, string>; form: string | null } {
  if (error == null) return { fields: {}, form: null };
  const named = fieldErrorsOf(error);
  const shown = options.fields
    ? Object.fromEntries(Object.entries(named).filter(([name]) => options.fields?.includes(name)))
    : named;
  return Object.keys(shown).length > 0
    ? { fields: shown, form: null }
    : { fields: {}, form: messageOf(error, options.fallback) };
}
