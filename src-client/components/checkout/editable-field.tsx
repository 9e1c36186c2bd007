import { type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { afterPointerRelease } from '../../lib/after-pointer-release.ts';

export interface EditableFieldHandle {
  /** Opens the field for editing, focuses it and scrolls it to the middle of the screen. */
  reveal(): void;
}

/**
 * A Ticket Details value shown as text with an edit button; clicking turns it into an input (spec §2).
 * Enter or leaving the field keeps the edit; Esc puts back the value from before it. Closing with a key
 * returns focus to the Edit button, which would otherwise fall to the page with the removed input.
 */
export function EditableField({
  label,
  value,
  onChange,
  type = 'text',
  autoComplete,
  placeholder,
  error,
  ref,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  placeholder: string;
  /** The field's problem after a Proceed, shown under it (the banner lists them all as well). */
  error?: string;
  ref?: Ref<EditableFieldHandle>;
}) {
  const [editing, setEditing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const valueBeforeEdit = useRef(value);
  const refocusEditButton = useRef(false);
  const id = useId();
  const errorId = `${id}-error`;
  useEffect(() => {
    if (editing) focusInView(input.current);
    else if (refocusEditButton.current) {
      refocusEditButton.current = false;
      editButton.current?.focus();
    }
  }, [editing]);
  const startEditing = () => {
    valueBeforeEdit.current = value;
    setEditing(true);
  };
  const closeByKey = () => {
    refocusEditButton.current = true;
    setEditing(false);
  };
  useImperativeHandle(ref, () => ({
    reveal() {
      if (input.current) focusInView(input.current);
      else startEditing();
    },
  }));

  return (
    <div className="flex items-center justify-between gap-3 border-b border-gray-100 py-3 last:border-b-0">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-xs font-medium uppercase tracking-wide text-gray-500">
          {label}
        </label>
        {editing ? (
          <input
            id={id}
            ref={input}
            type={type}
            value={value}
            autoComplete={autoComplete}
            placeholder={placeholder}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => onChange(e.target.value)}
            onBlur={() => afterPointerRelease(() => setEditing(false))}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== 'Escape') return;
              // Without this the key's keypress would land on the Edit button focused meanwhile and
              // press it, opening the field again.
              e.preventDefault();
              if (e.key === 'Escape') onChange(valueBeforeEdit.current);
              closeByKey();
            }}
            className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2"
          />
        ) : (
          <output id={id} className={`mt-1 block truncate ${value ? '' : 'text-gray-500'}`}>
            {value || placeholder}
          </output>
        )}
        {error && (
          <p id={errorId} className="mt-1 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {!editing && (
        <button
          ref={editButton}
          type="button"
          onClick={startEditing}
          aria-label={`Edit ${label}`}
          className="shrink-0 rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
        >
          Edit
        </button>
      )}
    </div>
  );
}

/**
 * Focus without the browser's own minimal scroll, then centre the field: on a phone the checkout's
 * sticky Proceed bar covers the bottom of the screen, where a minimal scroll would leave it.
 */
export function focusInView(element: HTMLElement | null) {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: 'center' });
}
