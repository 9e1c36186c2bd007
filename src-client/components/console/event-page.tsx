import { createContext, type ReactNode, useContext } from 'react';
import { messageOf } from '../../lib/auth.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { NotAllowedScreen } from '../not-allowed.tsx';
import { LoadingText, NoticeText } from '../status-screens.tsx';

type ConsoleEvent = RouterOutputs['console']['event'];

/**
 * The event behind the console's pages about one event, or the screen to show instead: loading, the
 * server's "not found", or "Not allowed" for gate staff (they work at the gate only; the server refuses
 * them anyway). Asked once, by the event's layout (routes/console/event-layout.tsx).
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

const LayoutEvent = createContext<ConsoleEvent | undefined>(undefined);

/** Hands the event the layout checked to the tab inside it. */
export const LayoutEventProvider = LayoutEvent.Provider;

/** The event of the tab being shown, as its layout loaded it: only inside the event's layout. */
export function useLayoutEvent(): ConsoleEvent {
  const event = useContext(LayoutEvent);
  if (!event) throw new Error('useLayoutEvent is for the pages inside the event layout');
  return event;
}

/**
 * A tab's title, then `children`. The way back and the event's tabs above it are the layout's; `eventId`,
 * `current` and `myRole` are no longer read (the layout knows them) and stay optional for older callers.
 */
export function ConsoleEventHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <h1 className="text-3xl font-extrabold text-gray-900">{title}</h1>
      {children}
    </div>
  );
}
