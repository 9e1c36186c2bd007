import type { ReactNode } from 'react';
import { trpc } from '../../lib/trpc.ts';
import { Header } from '../header.tsx';
import { NotAllowedScreen } from '../not-allowed.tsx';
import { LoadingText } from '../status-screens.tsx';
import { SkipLink } from '../storefront-chrome.tsx';

/**
 * The organiser console's and the admin's shell: the site's header (the way home, the account menu), the
 * page, and none of the storefront's footer or first-visit city prompt, which are for buyers.
 */
export function ConsoleShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Header />
      <main id="main" className="flex-1 pb-8">
        {children}
      </main>
    </div>
  );
}

/** Who may open a page by their platform role: organisers (and admins), or admins alone. */
export type ConsoleRole = 'organiser' | 'admin';

/**
 * Shows `children` only to a platform role allowed `role`'s pages, else "Not allowed". It only decides
 * what to show: every procedure behind the page authorises itself on the server.
 */
export function RequireConsoleRole({ role, children }: { role: ConsoleRole; children: ReactNode }) {
  const access = trpc.console.access.useQuery();
  if (access.isPending) return <LoadingText />;
  const mine = access.data?.role;
  const allowed = role === 'admin' ? mine === 'admin' : mine === 'organiser' || mine === 'admin';
  return allowed ? children : <NotAllowedScreen />;
}
