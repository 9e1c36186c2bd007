import type { Path, UseFormReturn } from 'react-hook-form';
import { showServerErrors } from '../../lib/server-field-errors.ts';

/**
 * A slot form's refusal: one about a field it has (the start already taken or past, a bad day) goes on
 * that field, the first focused so it is in view; anything else is the form's own line.
 */
export function slotErrorOn<T extends { startTime: string; endTime: string }>(
  form: UseFormReturn<T>,
  error: unknown,
): string | null {
  return showServerErrors(form, error, Object.keys(form.getValues()) as Path<T>[]);
}
