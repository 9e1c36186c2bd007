import type { UseFormReturn } from 'react-hook-form';
import type { EventDetailsFields } from '../../../shared/event-editor-schemas.ts';
import type { fieldBinder } from '../auth-fields.tsx';

/** What each part of the event details form (event-details-form.tsx) is handed: the form and its binder. */
export interface DetailsPartProps {
  form: UseFormReturn<EventDetailsFields>;
  /** `fieldBinder`'s: a text or select field's props, which clear its error and the 'Saved.' on edit. */
  field: ReturnType<typeof fieldBinder<EventDetailsFields, EventDetailsFields>>;
}

/** A top-level field's message (the number fields, registered without the binder). */
export function errorOf(form: UseFormReturn<EventDetailsFields>, name: keyof EventDetailsFields) {
  return form.formState.errors[name]?.message as string | undefined;
}

/** An optional number field: empty is null (no limit, no value). */
export const emptyToNull = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));

/** A number field with a default: empty leaves it to the schema's default. */
export const numberOrDefault = (v: unknown) => (v === '' ? undefined : Number(v));
