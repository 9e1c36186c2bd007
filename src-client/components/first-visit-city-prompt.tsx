import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { openCityPicker } from '../lib/city-picker-state.ts';
import { useSelectedCity } from '../lib/city-storage.ts';

/** Where the city decides what is shown ('Happening near me', Explore's city row). */
const CITY_PAGES = new Set(['/', '/explore']);

/** Session storage: the visitor was asked this visit (and may have closed the picker without choosing). */
export const CITY_ASKED_KEY = 'cityAsked';

/**
 * A first visit to the home or Explore page opens 'Select Your City' (issue 17), as the big Indian
 * ticketing apps do, instead of quietly showing Delhi/NCR as if it were near. It asks once per visit:
 * someone who closes it keeps the default until they choose, and a stored choice is never questioned.
 */
export function FirstVisitCityPrompt() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { storedName } = useSelectedCity();
  useEffect(() => {
    if (storedName !== null || !CITY_PAGES.has(pathname)) return;
    try {
      if (sessionStorage.getItem(CITY_ASKED_KEY)) return;
      sessionStorage.setItem(CITY_ASKED_KEY, '1');
    } catch {
      // Without storage the question would come back on every page: better not to ask.
      return;
    }
    openCityPicker();
  }, [storedName, pathname]);
  return null;
}
