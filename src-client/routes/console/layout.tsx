import { createRoute, Outlet, useMatches } from '@tanstack/react-router';
import { ConsoleShell, RequireConsoleRole } from '../../components/console/console-shell.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/**
 * Every organiser console page: the console's shell, and one sign-in check for all of them (a signed-out
 * visitor signs in first and comes back). A page for organisers alone (a new event, the tax profile) says
 * so in its `staticData.organiserOnly`, and this layout shows anyone else "Not allowed". Pathless: the
 * pages keep their own URLs.
 */
export const consoleLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_console',
  beforeLoad: requireSignedIn,
  component: ConsoleLayout,
});

function ConsoleLayout() {
  const organiserOnly = useMatches({ select: (matches) => matches.some((m) => m.staticData.organiserOnly) });
  return (
    <ConsoleShell>
      {organiserOnly ? (
        <RequireConsoleRole role="organiser">
          <Outlet />
        </RequireConsoleRole>
      ) : (
        <Outlet />
      )}
    </ConsoleShell>
  );
}
