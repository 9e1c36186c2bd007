/**
 * The key every transition that changes one booking serialises on (ADR 0045: an advisory lock on
 * PostgreSQL, nothing on SQLite, whose writes run one at a time): admission at the gate, its undo and the
 * offline merge, a cancellation, a part refund. One key, so a part refund that cancels the tickets nobody
 * was admitted with and a gate admitting one of them at the same moment take turns, and neither reads
 * what the other is about to change.
 */
export function bookingLockKey(bookingId: string): string {
  return `booking:${bookingId}`;
}
