import { afterHeroPainted } from './lib/after-hero-painted.ts';
import './styles.css';

// The page's first paint is the server's (src-server/http/page-shell.ts): its header and, on the home
// and event pages, the hero picture that is the largest paint. The app's JavaScript is not needed for
// it, and fetched beside the picture it shared a slow phone line with it (≈ 100 KB of scripts against a
// 14 KB banner) and, evaluated before the first frame on a busy phone, held the paint back (issue 39).
// So the entry is this small module: it waits until the hero has loaded and been painted (a page with
// none waits for nothing), then fetches and starts the app.
void afterHeroPainted().then(async () => {
  // The page's first use of each kind of web storage opens it with a synchronous call to the browser
  // process, which on a busy machine blocks for 20–90 ms at Lighthouse's 4×. The router reads session
  // storage (scroll positions) and the city comes from local storage as their modules are evaluated;
  // opened here, each in a task of its own, they add nothing to those tasks.
  touchStorage('sessionStorage');
  await nextTask();
  touchStorage('localStorage');
  await nextTask();
  const { startApp } = await import('./start-app.tsx');
  await startApp();
});

function touchStorage(kind: 'sessionStorage' | 'localStorage'): void {
  try {
    void window[kind];
  } catch {
    // Storage refused (a private mode, a sandbox): the app copes with that where it reads it.
  }
}

/** A new task (start-app's `yieldToMain` is not imported here: the entry chunk imports nothing). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
