/**
 * Lets the browser handle input and paint before the rest of the work: `scheduler.yield()` where the
 * browser has it (the continuation runs before other queued tasks), else a new task. It imports nothing,
 * so the start-up (start-app.tsx) can yield before React or any library is evaluated.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
