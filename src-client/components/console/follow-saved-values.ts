import { useEffect, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * Keeps an editor form in step with what the server has saved, without remounting it. The editor reloads
 * the event after every change; a remount on each reload threw away the "Saved." line and lost an upload
 * still under way (its result landed in the unmounted form). Newly saved values replace the fields only
 * while the organiser has not started changing them; typed edits are never overwritten.
 */
export function useFollowSavedValues<T extends FieldValues>(form: UseFormReturn<T>, saved: T): void {
  // Read during render, so react-hook-form tracks it and the effect sees the current answer.
  const { isDirty } = form.formState;
  const savedKey = JSON.stringify(saved);
  const shownKey = useRef(savedKey);
  useEffect(() => {
    if (savedKey === shownKey.current) return;
    shownKey.current = savedKey;
    if (!isDirty) form.reset(saved);
  }, [savedKey, isDirty, form, saved]);
}
