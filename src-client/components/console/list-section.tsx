import { Fragment, type ReactNode, useState } from 'react';
import { serverRefusalOf, zodFieldErrors } from '../../lib/server-field-errors.ts';
import { FormError, SubmitButton } from '../auth-fields.tsx';

/**
 * A console section that lists one kind of thing an organiser keeps for an event (discount codes,
 * shared capacities, add-ons): a heading with its add button, a line on what it is, the table or a
 * line saying there is none, and the form that adds or changes one in place. What differs is only the
 * table's columns and the form's fields; the one place that knows which item is being edited.
 */
export function ListSection<T extends { id: string }>({
  id,
  title,
  addLabel,
  intro,
  error,
  items,
  emptyText,
  table,
  form,
}: {
  /** The heading's id prefix, unique on the page. */
  id: string;
  title: string;
  addLabel: string;
  intro: ReactNode;
  /** A refusal of a row's own action (remove, deactivate). */
  error?: string | null;
  items: T[] | undefined;
  emptyText: string;
  table: (items: T[], edit: (item: T) => void) => ReactNode;
  /** The form for `item` (null: a new one); `done` closes it, after a save or a cancel. */
  form: (item: T | null, done: () => void) => ReactNode;
}) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const done = () => setEditing(null);
  return (
    <section aria-labelledby={`${id}-heading`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-heading`} className="text-xl font-bold">
          {title}
        </h2>
        {editing === null && (
          <button
            type="button"
            className="rounded-lg bg-gray-900 px-4 py-2 text-sm font-semibold text-white"
            onClick={() => setEditing('new')}
          >
            {addLabel}
          </button>
        )}
      </div>
      <p className="mt-1 text-sm text-gray-600">{intro}</p>
      <FormError message={error ?? null} />
      {items && items.length > 0 && table(items, setEditing)}
      {items?.length === 0 && editing === null && <p className="mt-2 text-gray-600">{emptyText}</p>}
      {editing !== null && (
        // A new key per item: switching from one item's form to another's starts from that item's values.
        <Fragment key={editing === 'new' ? 'new' : editing.id}>
          {form(editing === 'new' ? null : editing, done)}
        </Fragment>
      )}
    </section>
  );
}

/** The frame of a list section's form: its title, fields, the form's own error line and its buttons. */
export function SectionForm({
  title,
  onSubmit,
  formError,
  notice,
  busy,
  submitLabel,
  onCancel,
  children,
}: {
  title: string;
  onSubmit: (e: React.FormEvent) => void;
  formError: string | null;
  notice?: ReactNode;
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-4 max-w-md space-y-4 rounded-xl border border-gray-200 p-4"
    >
      <h3 className="font-bold">{title}</h3>
      {children}
      <FormError message={formError} />
      {notice}
      <div className="flex gap-3">
        <SubmitButton busy={busy} busyText="Saving...">
          {submitLabel}
        </SubmitButton>
        <button type="button" className="font-semibold underline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

type Parsed<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly { path: PropertyKey[]; message: string }[] } };

/**
 * A section form's refusals: the server's own zod schema first (the same messages before the round
 * trip), then the server's answer, each put beside its field or on the form's line.
 */
export function useSectionForm() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  /**
   * Sends `parsed.data` when the schema took it; `at` is the path segment that names a field (see
   * zodFieldErrors). Returns whether the server accepted it.
   */
  async function submit<T>(parsed: Parsed<T>, at: number, send: (data: T) => Promise<unknown>) {
    setErrors({});
    setFormError(null);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues, at));
      return false;
    }
    try {
      await send(parsed.data);
      return true;
    } catch (error) {
      const refusal = serverRefusalOf(error);
      setErrors(refusal.fields);
      setFormError(refusal.form);
      return false;
    }
  }
  return { errors, formError, submit };
}
