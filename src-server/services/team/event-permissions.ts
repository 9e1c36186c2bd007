import type { EventRole } from '../../../shared/organiser-schemas.ts';

/**
 * Who may do what with one event (docs/decisions/0015-roles-and-ownership.md). The event-scoped
 * middleware checks one of these before the handler runs; a role outside the list is refused.
 */
export const EVENT_PERMISSIONS = {
  /** The console's event pages. Gate staff and the box office see the event they work at. */
  view: ['owner', 'admin', 'co_organiser', 'gate_staff', 'box_office'],
  /** See who is on the team. */
  viewTeam: ['owner', 'admin', 'co_organiser'],
  /** The event editor: details, dates, slots, ticket types, publish and unpublish. */
  edit: ['owner', 'admin', 'co_organiser'],
  /** The sales dashboard, the orders table and its CSV: buyers' names, e-mails and money. Not the gate. */
  viewSales: ['owner', 'admin', 'co_organiser'],
  /**
   * Invite people and remove them, gate staff and co-organisers alike (issue 14: a co-organiser does
   * everything but delete the event). The owner is not a team row: nobody can remove or invite them.
   */
  /**
   * The payout statement and its CSV (issue 40): what the event is owed, month by month. The owner's and
   * admins' (settling it): like cancelEvent, a co-organiser helps run the event but the money owed is
   * the owner's business. Co-organisers still see the Sales page's totals (viewSales).
   */
  viewPayouts: ['owner', 'admin'],
  manageTeam: ['owner', 'admin', 'co_organiser'],
  /** One booking's page with the buyer's details: resend its ticket mail, cancel it with a full refund. */
  manageBookings: ['owner', 'admin', 'co_organiser'],
  /**
   * Cancel the whole event and refund every booking. Not co-organisers (they may cancel a slot): it ends
   * the event for every buyer and cannot be undone, the nearest thing to deleting it, which the issue
   * keeps for the owner.
   */
  cancelEvent: ['owner', 'admin'],
  /**
   * Cancel a slot that has bookings: every buyer of it is refunded and the show is off. Cancelling the
   * booked slots one by one reaches what `cancelEvent` keeps for the owner (issue 35: a co-organiser
   * refunded 6 of 6 bookings so), so it is the owner's and admins' too. A co-organiser still cancels a
   * slot nobody has booked (`edit`), and one booking at a time for a buyer who asks (`manageBookings`).
   */
  cancelBookedSlot: ['owner', 'admin'],
  /**
   * Publish an event an admin took off sale, or whose owner's organiser rights were taken away, and
   * release an admin's hold: an admin's take-down sticks until an admin undoes it (issue 35).
   */
  publishHeld: ['admin'],
  /** Run the event's gate: scan, look up, undo, download the ticket list (docs/decisions/0022). */
  checkIn: ['owner', 'admin', 'co_organiser', 'gate_staff'],
  /**
   * The box office (issue 40, ADR 0042): issue complimentary bookings, record sales at the door and look
   * up the event's orders to do so. The box-office role does this and nothing else: not the editor, not
   * the Sales page or payouts, not the team.
   */
  boxOffice: ['owner', 'admin', 'co_organiser', 'box_office'],
} as const satisfies Record<string, readonly EventRole[]>;

export type EventPermission = keyof typeof EVENT_PERMISSIONS;

export function eventRoleMay(role: EventRole, permission: EventPermission): boolean {
  return (EVENT_PERMISSIONS[permission] as readonly EventRole[]).includes(role);
}

/**
 * What cancelling a slot needs, by what it would do: a slot with confirmed bookings refunds them. Read
 * inside the cancelling transaction, so a booking made meanwhile cannot slip past.
 */
export function slotCancellationPermission(confirmedBookings: number): EventPermission {
  return confirmedBookings > 0 ? 'cancelBookedSlot' : 'edit';
}
