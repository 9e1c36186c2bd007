import { createRoute, Outlet } from '@tanstack/react-router';
import { ConsoleShell, RequireConsoleRole } from '../../components/console/console-shell.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/**
 * The admin's pages: the console's shell, and the check once for all of them: signed in, then an admin
 * (anyone else sees "Not allowed"; every admin procedure checks again on the server).
 */
export const adminLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_admin',
  beforeLoad: requireSignedIn,
  component: () => (
    <ConsoleShell>
      <RequireConsoleRole role="admin">
        <Outlet />
      </RequireConsoleRole>
    </ConsoleShell>
  ),
});
