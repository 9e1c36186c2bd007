import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { loadCityPicker, openCityPicker } from '../lib/city-picker-state.ts';
import { useSelectedCity } from '../lib/city-storage.ts';
import { yieldToMain } from '../lib/yield-to-main.ts';

/** Where the city decides what is shown ('Happening near me', Explore's city row). */
const CITY_PAGES = new Set(['/', '/explore']);

/** Session storage: the visitor was asked this visit (and may have closed the picker without choosing). */
export const CITY_ASKED_KEY = 'cityAsked';

/** The longest the prompt waits for an idle moment after the page has loaded. */
const PROMPT_WAIT_MS = 1500;

/**
 * A first visit to the home or Explore page opens 'Select Your City' (issue 17), as the big Indian
 * ticketing apps do, instead of quietly showing Delhi/NCR as if it were near. It asks once per visit:
 * someone who closes it keeps the default until they choose, and a stored choice is never questioned.
 * It opens once the page has loaded and the browser is idle (at most PROMPT_WAIT_MS later), so the
 * dialog's code and first render do not hold up the page's own first paint behind it.
 */
export function FirstVisitCityPrompt() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { storedName } = useSelectedCity();
  useEffect(() => {
    if (storedName !== null || !CITY_PAGES.has(pathname) || !mayAsk()) return;
    // Marked asked only when it opens: a page left before then (or React's development double run)
    // must not use up the question.
    let cancelled = false;
    const cancelIdle = whenIdle(async () => {
      // The dialog's code is evaluated in one task and drawn in the next: together they were one
      // 100 ms task on a slow phone, blocking input just after the page became usable (issue 39).
      await loadCityPicker().catch(() => undefined);
      await yieldToMain();
      if (cancelled || !mayAsk()) return;
      try {
        sessionStorage.setItem(CITY_ASKED_KEY, '1');
      } catch {
        return;
      }
      openCityPicker();
    });
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, [storedName, pathname]);
  return null;
}

/** Not asked yet this visit; without storage the question would come back on every page: better not to ask. */
function mayAsk(): boolean {
  try {
    return !sessionStorage.getItem(CITY_ASKED_KEY);
  } catch {
    return false;
  }
}

/** Runs `run` when the page has loaded and the main thread is idle; returns a cancel. */
function whenIdle(run: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const schedule = () => {
    if (cancelled) return;
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(run, { timeout: PROMPT_WAIT_MS });
      cancelIdle = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(run, 0);
      cancelIdle = () => clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', schedule);
    cancelIdle();
  };
}
