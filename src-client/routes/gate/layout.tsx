import { createRoute, isRedirect, Link, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SkipLink } from '../../components/storefront-chrome.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The gate's home-screen icon (public/gate-icons), also its tab's icon while the gate is open. */
const GATE_ICON = '/gate-icons/gate-icon-192.png';

/**
 * The gate scanner (docs/decisions/0022): full screen, with its own slim bar and icon and none of the
 * storefront's header, search or footer, which a phone held at a door has no room for. Who may scan is
 * checked here once: signed in (the event's gate staff, co-organisers, owner; admins).
 */
export const gateLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_gate',
  // Offline (the service worker served the page), who is signed in cannot be asked: the gate opens
  // with what the device kept, and the server checks the session on every call once back online.
  beforeLoad: async (options) => {
    try {
      return await requireSignedIn(options);
    } catch (error) {
      if (isRedirect(error)) throw error;
      return { user: null };
    }
  },
  component: GateChrome,
});

function GateChrome() {
  useGateTabIcon();
  return (
    <div className="flex min-h-dvh flex-col bg-white">
      <SkipLink />
      <header className="flex items-center gap-2 border-b border-gray-200 px-4 py-2">
        <img src={GATE_ICON} alt="" width={28} height={28} className="rounded-md" />
        <span className="text-lg font-extrabold text-gray-900">Jalsa Gate</span>
        <Link
          to="/"
          className="ml-auto rounded-md px-3 py-2 text-sm font-semibold text-gray-700 hover:bg-gray-100"
        >
          Leave the gate
        </Link>
      </header>
      <main id="main" className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}

/** The tab shows the gate's icon while the gate is open, and the site's again after. */
function useGateTabIcon() {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) return;
    const before = { href: link.getAttribute('href') ?? '', type: link.type };
    link.setAttribute('href', GATE_ICON);
    link.type = 'image/png';
    return () => {
      link.setAttribute('href', before.href);
      link.type = before.type;
    };
  }, []);
}
