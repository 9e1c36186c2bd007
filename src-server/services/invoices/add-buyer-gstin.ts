import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { stateOfGstin } from '../../../shared/gst-states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { invoices } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { paidBy } from '../bookings/payer.ts';
import { documentNumberSteps } from './document-numbers.ts';
import { feeInvoiceTax } from './issue-booking-invoices.ts';
import { issueCreditNotesSteps } from './issue-credit-note.ts';

export const GSTIN_TOO_LATE =
  'This invoice is final: a GSTIN can be added until the end of the month it was issued in.';
export const GSTIN_ALREADY_GIVEN = 'This booking’s invoice already carries a GSTIN.';
export const NO_INVOICE = 'This booking has no invoice to add a GSTIN to.';

const istMonth = (instant: string | Date) =>
  new Date(new Date(instant).getTime() + 330 * 60_000).toISOString().slice(0, 7);

/**
 * A buyer adds their GSTIN after buying (ADR 0024): allowed until the end of the IST calendar month the
 * invoice was issued in, so the B2C sale and its B2B replacement land in the same GSTR-1. Issued rows
 * never change: each current invoice of the booking is cancelled by a credit note and re-issued, with
 * a new number, carrying the GSTIN, all in one transaction.
 */
export async function addBuyerGstin(
  db: Db | DbOrTx,
  userId: string,
  bookingId: string,
  buyer: { buyerGstin: string; buyerLegalName: string; buyerAddress: string },
  now: Date,
): Promise<string[]> {
  return runnerFor(db).write(function* (tx) {
    const { bookings, invoices, creditNotes } = tablesOf(tx);
    // One transition of the booking at a time (as a cancellation's, the gate's): two requests adding a
    // GSTIN at once would otherwise both find the invoices current on PostgreSQL and re-issue them twice.
    yield* serialize(bookingLockKey(bookingId));
    const booking = yield* row(
      tx
        .select({ id: bookings.id, status: bookings.status })
        .from(bookings)
        .where(and(eq(bookings.id, bookingId), paidBy(userId))),
    );
    if (!booking) throw notFound('Booking not found');
    const current = (yield* rows(
      tx
        .select({ invoice: invoices })
        .from(invoices)
        .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
        .where(and(eq(invoices.bookingId, bookingId), isNull(creditNotes.id))),
    )).map((r) => r.invoice);
    if (booking.status !== 'confirmed' || current.length === 0) throw badRequest(NO_INVOICE);
    if (current.some((i) => i.buyerGstin)) throw badRequest(GSTIN_ALREADY_GIVEN);
    if (current.some((i) => istMonth(i.issuedAt) !== istMonth(now))) throw badRequest(GSTIN_TOO_LATE);

    yield* issueCreditNotesSteps(tx as WriteTx, bookingId, 'Re-issued with the buyer’s GSTIN', now);
    yield* recordBookingEventSteps(tx, {
      bookingId,
      kind: 'gstin_added',
      actor: 'buyer',
      actorUserId: userId,
      at: now,
      details: { gstin: buyer.buyerGstin, invoices: current.length },
    });
    const ids: string[] = [];
    for (const old of current) {
      const series =
        old.kind === 'platform_fee'
          ? 'platform_invoice'
          : old.documentType === 'bill_of_supply'
            ? 'bill_of_supply'
            : 'invoice';
      const { number, financialYear } = yield* documentNumberSteps(tx as WriteTx, old.issuer, series, now);
      const id = randomUUID();
      yield* changes(
        tx.insert(invoices).values({
          ...old,
          // The fee's place of supply is now the GSTIN's state (issue 36), which may change its heads.
          ...(old.kind === 'platform_fee' ? refeeFor(old, buyer.buyerGstin) : {}),
          id,
          number,
          financialYear,
          issuedAt: now.toISOString(),
          buyerGstin: buyer.buyerGstin,
          buyerLegalName: buyer.buyerLegalName,
          buyerAddress: buyer.buyerAddress,
          // The recipient's state is now their GSTIN's (the place of supply stays as issued).
          buyerState: stateOfGstin(buyer.buyerGstin) ?? old.buyerState,
        }),
      );
      ids.push(id);
    }
    return ids;
  });
}

/** A fee invoice's tax as re-issued to a registered buyer: the same fee and tax, split by the GSTIN's state. */
function refeeFor(old: typeof invoices.$inferSelect, buyerGstin: string) {
  const [line] = old.lines;
  if (!line) return {};
  // What was paid for the fee: the fee as priced and its GST (an odd paisa may sit in the taxable value).
  const fee = feeInvoiceTax(old.supplierState, line.unitPricePaise, line.totalPaise - line.unitPricePaise, {
    state: old.buyerState,
    buyerGstin,
  });
  return {
    placeOfSupply: fee.placeOfSupply,
    stateTaxHead: fee.stateTaxHead,
    lines: [{ ...line, ...fee.split }],
    taxableValuePaise: fee.split.taxableValuePaise,
    cgstPaise: fee.split.cgstPaise,
    sgstPaise: fee.split.sgstPaise,
    igstPaise: fee.split.igstPaise,
    totalPaise: fee.split.totalPaise,
  };
}
