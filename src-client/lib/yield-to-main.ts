import { useEffect, useState } from 'react';

/**
 * Lets the browser handle input and paint before the rest of the work: `scheduler.yield()` where the
 * browser has it (the continuation runs before other queued tasks), else a new task.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Renders a long list in steps, so no step holds the main thread for long (issue 39: a phone's first
 * render of every home card was one 200 ms task, Lighthouse's total blocking time): the first render
 * shows `first` items per list, then each later task `step` more, until `total` are shown. Returns how
 * many to show. Once caught up it stays caught up: a list that grows later (a next page) shows at once.
 */
export function useRenderInSteps(total: number, first: number, step: number): number {
  const [shown, setShown] = useState(first);
  const caughtUp = shown >= total;
  useEffect(() => {
    if (caughtUp) return;
    let cancelled = false;
    void yieldToMain().then(() => {
      if (!cancelled) setShown(shown + step >= total ? Number.POSITIVE_INFINITY : shown + step);
    });
    return () => {
      cancelled = true;
    };
  }, [caughtUp, shown, total, step]);
  return caughtUp ? total : shown;
}
