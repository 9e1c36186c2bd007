/**
 * Why a credit note was issued, in words for the document (issue 36): credit notes store the
 * cancellation's reason code ('event_cancelled', …) and the stored rows are immutable, so the words are
 * chosen when the note is drawn. A reason stored as words already (a re-issue) prints as it is.
 */
const REASON_WORDS: Record<string, string> = {
  event_cancelled: 'Event cancelled by the organiser; the booking was refunded in full',
  slot_cancelled: 'Show cancelled by the organiser; the booking was refunded in full',
  organiser: 'Booking cancelled by the organiser; refunded in full',
  buyer: 'Booking cancelled by the buyer under the event’s refund policy',
};

export function creditNoteReasonInWords(reason: string): string {
  return REASON_WORDS[reason] ?? reason;
}
