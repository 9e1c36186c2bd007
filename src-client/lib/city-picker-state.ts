import { useSyncExternalStore } from 'react';

/**
 * Whether the city picker is open. The top bar renders the (lazily loaded) dialog; other screens,
 * such as the home page's "choose another city" prompt, open it through `openCityPicker()`.
 */
let open = false;
const listeners = new Set<() => void>();

export function setCityPickerOpen(next: boolean) {
  open = next;
  for (const listener of listeners) listener();
}

export const openCityPicker = () => setCityPickerOpen(true);

/**
 * The picker's code (Radix's dialog and the city list), loaded when it is first opened; the header renders
 * it lazily from here, and the first visit's prompt loads it ahead of opening it.
 */
export const loadCityPicker = () => import('../components/city-picker.tsx');

export function useCityPickerOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
    () => false,
  );
}
