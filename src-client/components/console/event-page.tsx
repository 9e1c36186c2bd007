import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { EventRole } from '../../../shared/organiser-schemas.ts';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { NotAllowedScreen } from '../not-allowed.tsx';
import { LoadingText, NoticeText } from '../status-screens.tsx';
import { EventNav, type EventSection } from './event-nav.tsx';

type ConsoleEvent = RouterOutputs['console']['event'];

/**
 * The event behind a console page about one event (team, sales, orders), or the screen to show instead:
 * loading, the server's "not found", or "Not allowed" for gate staff (they work at the gate only; the
 * server refuses them anyway).
 */
export function useConsoleEvent(
  eventId: string,
  options: { boxOffice?: boolean } = {},
): { event: ConsoleEvent; screen: null } | { event: undefined; screen: ReactNode } {
  const query = trpc.console.event.useQuery({ eventId });
  if (query.isPending) return { event: undefined, screen: <LoadingText /> };
  if (!query.data)
    return { event: undefined, screen: <NoticeText text={messageOf(query.error, 'Event not found')} /> };
  if (query.data.myRole === 'gate_staff') return { event: undefined, screen: <NotAllowedScreen /> };
  // The box office sees its own page only (issue 40).
  if (query.data.myRole === 'box_office' && !options.boxOffice)
    return { event: undefined, screen: <NotAllowedScreen /> };
  return { event: query.data, screen: null };
}

/** The top of a console page about one event: the way back, its title, the event's pages, then `children`. */
export function ConsoleEventHeader({
  eventId,
  current,
  title,
  myRole,
  children,
}: {
  eventId: string;
  current: EventSection;
  title: string;
  /** The caller's role on the event, when the page is open to the box office (its nav shows less). */
  myRole?: EventRole;
  children?: ReactNode;
}) {
  return (
    <div>
      <Link to="/organiser" className="text-sm font-semibold text-brand-700 underline">
        Organiser console
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-gray-900">{title}</h1>
      <EventNav eventId={eventId} current={current} myRole={myRole} />
      {children}
    </div>
  );
}
