import { afterHeroPainted } from './lib/after-hero-painted.ts';
import './styles.css';

// The page's first paint is the server's (src-server/http/page-shell.ts): its header and, on the home
// and event pages, the hero picture that is the largest paint. The app's JavaScript is not needed for
// it, and fetched beside the picture it shared a slow phone line with it (≈ 100 KB of scripts against a
// 14 KB banner) and, evaluated before the first frame on a busy phone, held the paint back (issue 39).
// So the entry is this small module: it waits until the hero has loaded and been painted (a page with
// none waits for nothing), then fetches and starts the app.
void afterHeroPainted().then(async () => {
  const { startApp } = await import('./start-app.tsx');
  await startApp();
});
