/**
 * Resolves once the server's hero picture (the shell's `img[fetchpriority="high"]` in `#root`,
 * src-server/http/page-shell.ts) has loaded and had a frame to paint in, or at once where the page has
 * none. A picture that fails to load waits no longer, and none waits more than `limitMs`: the app must
 * start even when the picture is slow.
 */
export function afterHeroPainted(doc: Document = document, limitMs = 3000): Promise<void> {
  const hero = doc.querySelector<HTMLImageElement>('#root img[fetchpriority="high"]');
  if (!hero) return Promise.resolve();
  return new Promise((resolve) => {
    const limit = setTimeout(resolve, limitMs);
    const painted = () => {
      clearTimeout(limit);
      afterNextFrame(resolve);
    };
    if (hero.complete) painted();
    else {
      hero.addEventListener('load', painted, { once: true });
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
