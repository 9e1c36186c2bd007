/**
 * The payment session's length, in its own module because both the holds (holds.ts, which sets it) and
 * the hoarding rules (hoarding.ts, whose cool-down is measured against it) need it, and holds.ts
 * already imports hoarding.ts.
 */

/** The payment session the buyer sees as a countdown (spec §9: 300 000 ms). */
export const PAYMENT_SESSION_MS = 300_000;
