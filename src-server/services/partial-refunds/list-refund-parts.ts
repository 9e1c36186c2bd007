import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { CancelledTicketLine } from '../../db/schema/partial-refunds.ts';
import type { RefundStatus } from '../../db/schema/payments.ts';
import { type RefundableLeft, refundableLeftSteps } from './refund-part-in.ts';

/** One part refund of a booking as its booking page shows it. */
export interface RefundPartView {
  id: string;
  kind: 'organiser' | 'buyer';
  amountPaise: number;
  reason: string;
  cancelledTickets: CancelledTicketLine[];
  status: RefundStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  creditNotes: { id: string; number: string; totalPaise: number }[];
}

interface PartRefundedBooking {
  id: string;
  paymentId: string;
  totalAmountPaise: number;
  feeAmountPaise: number;
  igstAmountPaise: number;
}

export interface RefundParts {
  parts: RefundPartView[];
  refundableLeft: RefundableLeft;
}

/**
 * A booking's part refunds, oldest first, each with its credit notes, and what is still refundable:
 * written once for both engines (ADR 0045), read in the booking page's one snapshot.
 */
export function* listRefundPartsSteps(db: DbOrTx, booking: PartRefundedBooking): Steps<RefundParts> {
  const { refundParts, partialCreditNotes } = tablesOf(db);
  const parts = yield* rows(
    db
      .select()
      .from(refundParts)
      .where(eq(refundParts.bookingId, booking.id))
      .orderBy(asc(refundParts.createdAt)),
  );
  const notes = yield* rows(
    db
      .select({
        id: partialCreditNotes.id,
        refundPartId: partialCreditNotes.refundPartId,
        number: partialCreditNotes.number,
        totalPaise: partialCreditNotes.totalPaise,
      })
      .from(partialCreditNotes)
      .innerJoin(refundParts, eq(refundParts.id, partialCreditNotes.refundPartId))
      .where(eq(refundParts.bookingId, booking.id))
      .orderBy(asc(partialCreditNotes.number)),
  );
  return {
    parts: parts.map((p) => ({
      id: p.id,
      kind: p.kind,
      amountPaise: p.amountPaise,
      reason: p.reason,
      cancelledTickets: p.cancelledTickets,
      status: p.status,
      attempts: p.attempts,
      lastError: p.lastError,
      createdAt: p.createdAt,
      creditNotes: notes
        .filter((n) => n.refundPartId === p.id)
        .map((n) => ({ id: n.id, number: n.number, totalPaise: n.totalPaise })),
    })),
    refundableLeft: yield* refundableLeftSteps(db, booking),
  };
}
