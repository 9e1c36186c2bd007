import { createRoute, Link, Outlet, useMatches, useParams } from '@tanstack/react-router';
import { EVENT_SECTIONS, EventNav } from '../../components/console/event-nav.tsx';
import { LayoutEventProvider, useConsoleEvent } from '../../components/console/event-page.tsx';
import { consoleLayout } from './layout.tsx';

/**
 * An event's tabs (Edit, Team, Sales, Orders, Box office): the way back to the console and the tab bar,
 * drawn once here above the tab's own page, and who may see the tab decided once: the event's team
 * (gate staff never, the box office its own tab only; the server refuses them anyway). Each tab names
 * itself in `staticData.eventSection`; the tab reads the checked event with useLayoutEvent().
 */
export const eventLayout = createRoute({
  getParentRoute: () => consoleLayout,
  id: '_event',
  component: EventLayout,
});

function EventLayout() {
  const { eventId } = useParams({ strict: false }) as { eventId: string };
  const section = useMatches({
    select: (matches) => matches.findLast((m) => m.staticData.eventSection)?.staticData.eventSection,
  });
  const tab = EVENT_SECTIONS.find((s) => s.section === section) ?? EVENT_SECTIONS[0];
  const { event, screen } = useConsoleEvent(eventId, { boxOffice: tab.section === 'box-office' });
  if (!event) return screen;
  return (
    <>
      <div className={`mx-auto w-full ${tab.width} px-4 pt-8`}>
        <Link to="/organiser" className="text-sm font-semibold text-brand-700 underline">
          Organiser console
        </Link>
        <EventNav eventId={eventId} current={tab.section} myRole={event.myRole} />
      </div>
      <LayoutEventProvider value={event}>
        <Outlet />
      </LayoutEventProvider>
    </>
  );
}
