import { and, eq } from 'drizzle-orm';
import {
  BOX_OFFICE_MESSAGES,
  type BoxOfficeKind,
  type IssueCompInput,
  type RecordDoorSaleInput,
} from '../../../shared/box-office-schemas.ts';
import { ticketSaleGstProblemMessage } from '../../../shared/gst-schemas.ts';
import { placeOfSupplyOfEvent } from '../../../shared/gst-states.ts';
import { DEFAULT_CHECKOUT_TAXES } from '../../../shared/pricing.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { checkoutTaxesAndSaleProblemSteps } from '../checkout/checkout-taxes.ts';
import { type DbOrTx, reserveSteps } from '../inventory/holds.ts';
import { confirmBoxOfficeHoldSteps } from '../payments/confirm.ts';

/**
 * The account a box-office booking belongs to when its buyer's e-mail has none (ADR 0042): nobody can
 * sign in as it (no password, an address under the reserved `.invalid` domain no mailbox or Google account
 * can have). The buyer reaches the booking by the ticket link in their mail.
 */
export const WALK_IN_ACCOUNT = { id: 'box-office-walk-in', email: 'walk-in@box-office.invalid' } as const;

export interface BoxOfficeSale {
  kind: BoxOfficeKind;
  input: IssueCompInput | RecordDoorSaleInput;
}

/**
 * A comp or a door sale (issue 40, ADR 0042), in one write transaction through the online sale's own path:
 * the seats are taken by the hold's conditional updates (never oversold, racing online buyers under the
 * same lock), and the hold is confirmed by payments/confirm.ts (booking, QR, mail, history; a door sale's
 * GST invoice). A comp is priced at ₹0; neither pays the platform's convenience fee (pretix and Hi.Events
 * charge no online fee on box-office sales). Door prices are the server's, taxed as the event is.
 */
export async function recordBoxOfficeSale(
  deps: AppDeps,
  eventId: string,
  actorUserId: string,
  sale: BoxOfficeSale,
): Promise<{ bookingId: string; totalPaise: number }> {
  const { input, kind } = sale;
  const now = deps.clock.now();
  // Written once for both engines (ADR 0045): the hold's own steps take the seats (each row by its
  // conditional UPDATE, so racing door sales and online buyers on PostgreSQL never oversell).
  return runnerFor(deps.db).write(function* (tx) {
    const { boxOfficeSales, eventDates, events, slots, ticketTypes } = tablesOf(tx);
    const slot = yield* row(
      tx
        .select({
          eventDateId: slots.eventDateId,
          cancelledAt: slots.cancelledAt,
          eventStatus: events.status,
          city: events.city,
          venueState: events.venueState,
        })
        .from(slots)
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .innerJoin(events, eq(events.id, eventDates.eventId))
        .where(and(eq(slots.id, input.slotId), eq(eventDates.eventId, eventId))),
    );
    if (!slot) throw notFound(BOX_OFFICE_MESSAGES.slotNotFound);
    if (slot.cancelledAt || slot.eventStatus === 'cancelled')
      throw conflict(BOX_OFFICE_MESSAGES.slotCancelled);
    for (const line of input.lines) {
      const type = yield* row(
        tx
          .select({ slotId: ticketTypes.slotId })
          .from(ticketTypes)
          .where(eq(ticketTypes.id, line.ticketTypeId)),
      );
      if (type?.slotId !== input.slotId) throw notFound('No ticket types available for this slot.');
    }
    // Bought at the venue: the buyer's state is the venue's, which is also the admission's place of supply
    // (IGST Act s.12(6)). Every city of the list has one; an event without it is refused, not guessed.
    const state = placeOfSupplyOfEvent(slot);
    if (!state) throw conflict(BOX_OFFICE_MESSAGES.venueStateUnknown);
    // A door sale is invoiced: not with wrong GST (issue 36: a rate the schedule no longer has, or no
    // venue state where the city spans states), told in the organiser's words; a comp is not invoiced.
    const { taxes, saleGstProblem } =
      kind === 'door'
        ? yield* checkoutTaxesAndSaleProblemSteps(tx, deps.env, eventId, now)
        : { taxes: DEFAULT_CHECKOUT_TAXES, saleGstProblem: null };
    if (saleGstProblem !== null) throw conflict(ticketSaleGstProblemMessage(saleGstProblem, 'organiser'));
    const userId = yield* buyerAccountSteps(tx, input.email, now);
    const hold = yield* reserveSteps(
      tx,
      {
        userId,
        eventId,
        eventDateId: slot.eventDateId,
        slotId: input.slotId,
        lines: input.lines,
        details: { name: input.name, email: input.email, phone: input.phone, state },
        userCity: slot.city,
        platformFeeRate: 0,
        taxes,
        complimentary: kind === 'comp',
        // The organiser's own sale: hidden types (press, sponsors) need no access code here (ADR 0038).
        sellsHiddenTypes: true,
      },
      now,
      { sessionExpiresAt: now.toISOString(), expiresAt: now.toISOString() },
    );
    const bookingId = yield* confirmBoxOfficeHoldSteps(
      deps,
      tx,
      hold.id,
      {
        orderId: `${kind}_${hold.id}`,
        paymentId: `${kind}_${hold.id}`,
        invoice: kind === 'door',
        actorUserId,
        // A buyer without an account opens the ticket by its link alone.
        tokenInLink: userId === WALK_IN_ACCOUNT.id,
      },
      now,
    );
    yield* changes(
      tx.insert(boxOfficeSales).values({
        bookingId,
        eventId,
        kind,
        method: 'method' in input ? input.method : null,
        reference: ('reference' in input && input.reference) || null,
        reason: input.reason || null,
        recordedBy: actorUserId,
        createdAt: now.toISOString(),
      }),
    );
    return { bookingId, totalPaise: hold.totalPaise };
  });
}

/** The buyer's own account when their e-mail has one (the booking is then in their My Bookings), else the walk-in account. */
function* buyerAccountSteps(tx: DbOrTx, email: string, now: Date): Steps<string> {
  const { users } = tablesOf(tx);
  const own = yield* row(tx.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())));
  if (own) return own.id;
  yield* changes(
    tx
      .insert(users)
      .values({
        id: WALK_IN_ACCOUNT.id,
        email: WALK_IN_ACCOUNT.email,
        name: 'Box office',
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .onConflictDoNothing(),
  );
  return WALK_IN_ACCOUNT.id;
}
