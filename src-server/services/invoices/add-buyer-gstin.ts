import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { reportedSacOf } from '../../../shared/gst.ts';
import { stateOfGstin } from '../../../shared/gst-states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { BookedTicketLine } from '../../db/schema/bookings.ts';
import type { InvoiceLine, invoices } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { paidBy } from '../bookings/payer.ts';
import { type CreditedAmounts, creditedByPartsSteps } from '../partial-refunds/partial-credit-notes.ts';
import { documentNumberSteps } from './document-numbers.ts';
import { feeInvoiceTax } from './issue-booking-invoices.ts';
import { issueCreditNotesSteps } from './issue-credit-note.ts';
import { leftOn, linesLeft, totalsOf } from './left-after-part-credits.ts';

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
 * a new number, carrying the GSTIN, all in one transaction. After part refunds (ADR 0043) the credit note
 * credits only what their part credit notes left on the invoice (issue-credit-note.ts), and the invoice
 * is re-issued for that same rest, the supply the buyer has finally paid for: old − part notes − note = 0.
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
        .select({
          id: bookings.id,
          status: bookings.status,
          eventName: bookings.eventName,
          ticketTypes: bookings.ticketTypes,
        })
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
    // What part refunds' credit notes took off each invoice: an invoice they credited whole is not re-issued.
    const credited = new Map<string, CreditedAmounts>();
    for (const invoice of current) credited.set(invoice.id, yield* creditedByPartsSteps(tx, invoice.id));
    const left = current.filter((i) => i.totalPaise - credited.get(i.id)!.totalPaise > 0);
    if (booking.status !== 'confirmed' || left.length === 0) throw badRequest(NO_INVOICE);
    if (current.some((i) => i.buyerGstin)) throw badRequest(GSTIN_ALREADY_GIVEN);
    if (current.some((i) => istMonth(i.issuedAt) !== istMonth(now))) throw badRequest(GSTIN_TOO_LATE);

    yield* issueCreditNotesSteps(tx as WriteTx, bookingId, 'Re-issued with the buyer’s GSTIN', now);
    yield* recordBookingEventSteps(tx, {
      bookingId,
      kind: 'gstin_added',
      actor: 'buyer',
      actorUserId: userId,
      at: now,
      details: { gstin: buyer.buyerGstin, invoices: left.length },
    });
    const ids: string[] = [];
    for (const old of left) {
      const series =
        old.kind === 'platform_fee'
          ? 'platform_invoice'
          : old.documentType === 'bill_of_supply'
            ? 'bill_of_supply'
            : 'invoice';
      const { number, financialYear } = yield* documentNumberSteps(tx as WriteTx, old.issuer, series, now);
      const id = randomUUID();
      const reissued = {
        ...old,
        // What part refunds left of it, when they credited some (ADR 0043).
        ...(old.kind === 'admission' ? linesAfterParts(old, credited.get(old.id)!, booking) : {}),
        // The fee's place of supply is now the GSTIN's state (issue 36), which may change its heads.
        ...(old.kind === 'platform_fee' ? refeeFor(old, buyer.buyerGstin, credited.get(old.id)!) : {}),
      };
      yield* changes(
        tx.insert(invoices).values({
          ...reissued,
          // A new document carries a code in the scheme today, not an omitted one it copied (ADR 0034).
          lines: reissued.lines.map((line) => ({ ...line, sac: reportedSacOf(line) })),
          id,
          number,
          financialYear,
          issuedAt: now.toISOString(),
          buyerGstin: buyer.buyerGstin,
          buyerLegalName: buyer.buyerLegalName,
          buyerAddress: buyer.buyerAddress,
          // The recipient's state is now their GSTIN's (the place of supply stays as issued).
          buyerState: stateOfGstin(buyer.buyerGstin) ?? old.buyerState,
          notes: yield* notesAfterPartsSteps(tx, old, credited.get(old.id)!),
        }),
      );
      ids.push(id);
    }
    return ids;
  });
}

type Invoice = typeof invoices.$inferSelect;

/**
 * An admission invoice's lines and totals re-issued after part refunds credited `credited` of it: the
 * tickets the booking still holds and its add-ons, adding up to what is left (left-after-part-credits.ts).
 * Nothing credited: the invoice as it was.
 */
function linesAfterParts(
  old: Invoice,
  credited: CreditedAmounts,
  booking: { eventName: string; ticketTypes: BookedTicketLine[] },
) {
  if (credited.totalPaise === 0) return {};
  // The invoice's ticket lines are named "<event>: <ticket type>" (issue-booking-invoices.ts); a type the
  // booking no longer holds (all its tickets cancelled) is held 0 times.
  const heldOf = (line: InvoiceLine) =>
    booking.ticketTypes.find((t) => line.description === `${booking.eventName}: ${t.name}`)?.quantity ?? 0;
  const lines = linesLeft(old, heldOf, leftOn(old, credited));
  return { lines, ...totalsOf(lines) };
}

/** The re-issued invoice's notes: the old one's, and after part refunds which credit notes they were. */
function* notesAfterPartsSteps(tx: DbOrTx, old: Invoice, credited: CreditedAmounts) {
  if (credited.totalPaise === 0) return old.notes;
  const { partialCreditNotes } = tablesOf(tx);
  const parts = yield* rows(
    tx
      .select({ number: partialCreditNotes.number })
      .from(partialCreditNotes)
      .where(eq(partialCreditNotes.invoiceId, old.id))
      .orderBy(asc(partialCreditNotes.issuedAt), asc(partialCreditNotes.number)),
  );
  return [
    ...old.notes,
    AFTER_PARTS_NOTE(
      old.number,
      parts.map((n) => n.number),
    ),
  ];
}

export const AFTER_PARTS_NOTE = (invoice: string, notes: string[]) =>
  `Replaces invoice ${invoice} for the supply left after the part refunds credited by credit ${notes.length === 1 ? 'note' : 'notes'} ${notes.join(', ')}.`;

/**
 * A fee invoice's tax as re-issued to a registered buyer: the same fee and tax, split by the GSTIN's state.
 * After part refunds gave back a share of the fee: what they left of its value and of its GST.
 */
function refeeFor(old: Invoice, buyerGstin: string, credited: CreditedAmounts) {
  const [line] = old.lines;
  if (!line) return {};
  const left = leftOn(old, credited);
  // What was paid for the fee: the fee as priced and its GST (an odd paisa may sit in the taxable value).
  const [feePaise, taxPaise] =
    credited.totalPaise === 0
      ? [line.unitPricePaise, line.totalPaise - line.unitPricePaise]
      : [left.taxableValuePaise, left.cgstPaise + left.sgstPaise + left.igstPaise];
  const fee = feeInvoiceTax(old.supplierState, feePaise, taxPaise, {
    state: old.buyerState,
    buyerGstin,
  });
  return {
    placeOfSupply: fee.placeOfSupply,
    stateTaxHead: fee.stateTaxHead,
    lines: [{ ...line, ...(credited.totalPaise === 0 ? {} : { unitPricePaise: feePaise }), ...fee.split }],
    taxableValuePaise: fee.split.taxableValuePaise,
    cgstPaise: fee.split.cgstPaise,
    sgstPaise: fee.split.sgstPaise,
    igstPaise: fee.split.igstPaise,
    totalPaise: fee.split.totalPaise,
  };
}
