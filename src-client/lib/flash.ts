import { useSyncExternalStore } from 'react';

/**
 * A short confirmation for something that just happened elsewhere in the app ('Signed out'), shown by
 * the layout's <FlashMessage> for a few seconds. One at a time: a new one replaces the last.
 */
let message = '';
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

const FLASH_MS = 4_000;

export function flash(text: string): void {
  clearTimeout(timer);
  set(text);
  timer = setTimeout(() => set(''), FLASH_MS);
}

export function useFlash(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => message,
    () => '',
  );
}

function set(text: string) {
  message = text;
  for (const listener of listeners) listener();
}
