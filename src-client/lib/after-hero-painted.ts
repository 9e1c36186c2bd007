/**
 * Resolves once the server's hero picture (the shell's `img[fetchpriority="high"]` in `#root`,
 * src-server/http/page-shell.ts) has loaded and had a frame to paint in, or at once where the page has
 * none. A picture that fails to load waits no longer, and none waits more than `limitMs`: the app must
 * start even when the picture is slow (a large uploaded event picture on a slow line would otherwise
 * keep the Book button away). The demo's pictures take 0.1–0.3 s on slow 4G; 1.5 s leaves room for an
 * organiser's larger ones without making a buyer wait long for the page to answer.
 */
export function afterHeroPainted(doc: Document = document, limitMs = 1500): Promise<void> {
  const hero = doc.querySelector<HTMLImageElement>('#root img[fetchpriority="high"]');
  if (!hero) return Promise.resolve();
  return new Promise((resolve) => {
    const limit = setTimeout(resolve, limitMs);
    const painted = () => {
      clearTimeout(limit);
      afterNextFrame(resolve);
    };
    // Loaded is not yet drawable: the picture is decoded off the main thread, and the frame after `load`
    // can be drawn without it. Replaced by the app's own picture before it was ever drawn, the page's
    // largest paint became the app's (2.2 s instead of 0.8–1.1 s in Lighthouse once start-up got
    // quicker, issue 39). So wait for the decode too; the limit still holds while it runs.
    const loaded = () => {
      if (typeof hero.decode !== 'function') return painted();
      hero.decode().then(painted, painted);
    };
    if (hero.complete) loaded();
    else {
      hero.addEventListener('load', loaded, { once: true });
      hero.addEventListener('error', painted, { once: true });
    }
  });
}

/** After the next frame has been drawn; a hidden tab draws none, so 100 ms at most. */
function afterNextFrame(callback: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    callback();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}
