import { Link } from '@tanstack/react-router';
import type { EventRole } from '../../../shared/organiser-schemas.ts';

/**
 * The console's pages about one event, in the order both the nav and the My events list show them, with
 * the width each page's content takes (the event's layout lines its tabs up with it).
 */
export const EVENT_SECTIONS = [
  { section: 'edit', label: 'Edit', to: '/organiser/events/$eventId/edit', width: 'max-w-4xl' },
  { section: 'team', label: 'Team', to: '/organiser/events/$eventId/team', width: 'max-w-4xl' },
  { section: 'sales', label: 'Sales', to: '/organiser/events/$eventId/sales', width: 'max-w-6xl' },
  { section: 'orders', label: 'Orders', to: '/organiser/events/$eventId/orders', width: 'max-w-6xl' },
  {
    section: 'box-office',
    label: 'Box office',
    to: '/organiser/events/$eventId/box-office',
    width: 'max-w-4xl',
  },
] as const;

/**
 * The sections a role on the event sees: gate staff none (they work at the gate), the box office only
 * its own page (issue 40); the server refuses the others anyway.
 */
export function sectionsFor(role: EventRole) {
  if (role === 'gate_staff') return [];
  if (role === 'box_office') return EVENT_SECTIONS.filter((s) => s.section === 'box-office');
  return EVENT_SECTIONS;
}

export type EventSection = (typeof EVENT_SECTIONS)[number]['section'];

/**
 * The console's pages about one event, drawn once by the event's layout (routes/console/event-layout.tsx).
 * Gate staff see none of them (they work at the gate); the server refuses them anyway.
 */
export function EventNav({
  eventId,
  current,
  myRole = 'owner',
}: {
  eventId: string;
  current: EventSection;
  myRole?: EventRole;
}) {
  const item = 'rounded-md px-3 py-1.5 text-sm font-semibold';
  const idle = `${item} text-brand-700 underline hover:bg-brand-50`;
  const active = `${item} bg-brand-600 text-white`;
  return (
    <nav aria-label="This event" className="mt-3 flex flex-wrap gap-2">
      {sectionsFor(myRole).map(({ section, label, to }) => (
        <Link
          key={section}
          to={to}
          params={{ eventId }}
          className={section === current ? active : idle}
          aria-current={section === current ? 'page' : undefined}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}
