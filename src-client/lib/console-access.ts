import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { requireSignedIn } from './auth.ts';
import type { RouterContext } from './router-context.ts';

/**
 * The /organiser guard: a signed-out visitor signs in first; someone with neither organiser rights nor
 * a place on an event's team is sent to the "List your Event" form. It only decides where to send a
 * person; every console procedure authorises itself on the server.
 */
export async function requireConsole(options: {
  context: RouterContext;
  location: Pick<ParsedLocation, 'href'>;
}) {
  await requireSignedIn(options);
  // Fresh each time: an admin may have just approved the request.
  const access = await options.context.trpcUtils.console.access.fetch(undefined, { staleTime: 0 });
  if (!access || (access.role === 'none' && access.teamEvents === 0))
    throw redirect({ to: '/list-your-event' });
  return { access };
}
