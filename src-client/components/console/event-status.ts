import type { RouterOutputs } from '../../lib/trpc.ts';

/** How the console and the admin page name an event's status. */
export const EVENT_STATUS_LABELS: Record<RouterOutputs['console']['myEvents'][number]['status'], string> = {
  draft: 'Draft',
  cancelled: 'Cancelled',
  on_sale: 'On sale',
  sale_ended: 'Sale ended',
  past: 'Past',
};
