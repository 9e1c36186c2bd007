/**
 * Most procedure calls one tRPC request may carry. The server refuses a longer batch with 400 before
 * running any of it; the client's batch link splits its calls at the same size, so it never sends one.
 * A page asks for a handful of queries at once; without a cap, one request of 700 sign-ins held the
 * server's password-hashing threads for seconds while everyone else's sign-in waited.
 */
export const MAX_BATCH_ITEMS = 10;
