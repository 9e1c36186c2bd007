let installing: Promise<boolean> | null = null;

/**
 * Makes /gate installable and available offline: adds the gate's web manifest and home-screen icon to
 * this page only and registers the gate's service worker (scope /gate). Resolves true once the offline
 * copy is complete (the worker precached everything and is active); buyer pages never call this.
 */
export function installGateApp(): Promise<boolean> {
  if (!installing) installing = install();
  return installing;
}

async function install(): Promise<boolean> {
  addLink('manifest', '/gate.webmanifest');
  // iOS reads no manifest icons: its home screen takes this one.
  addLink('apple-touch-icon', '/gate-icons/gate-apple-touch-icon.png');
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return false;
  const registration = await navigator.serviceWorker.register('/gate-sw.js', { scope: '/gate' });
  // Not `serviceWorker.ready`: it never resolves for a page that was opened as /check-in (outside the
  // scope) and redirected here.
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (!worker) return false;
  if (worker.state === 'activated') return true;
  return new Promise((resolve) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve(true);
      if (worker.state === 'redundant') resolve(false);
    });
  });
}

function addLink(rel: string, href: string) {
  if (document.querySelector(`link[rel="${rel}"]`)) return;
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  document.head.append(link);
}
