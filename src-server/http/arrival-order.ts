/** How long handlers may run back to back before the event loop reads the sockets again. */
const TURN_MS = 2;
/** The most queued requests one turn starts, however cheap they are. */
const MAX_BATCH = 64;

/**
 * Starts requests in the order they arrived, in short turns, so that when the server is saturated no
 * buyer waits about twice as long as the others (docs/benchmarks.md, "tail latency").
 *
 * Without it, Node reads sockets in rounds: one poll of the event loop returns every socket with a
 * request, in the order epoll keeps them, and runs each request's handler before it reads the next
 * socket. In a rush a round is 64 reservations of over a millisecond each. A connection already in
 * epoll's list keeps its place there, so a request that arrived early in a round on another
 * connection can wait behind requests that arrived after it, and some connections wait about two
 * rounds instead of one.
 *
 * Here a request starts at once only if nobody is waiting and the current turn (handlers run since the
 * loop last read the sockets) is younger than `turnMs`. Otherwise it queues, and the queue is served
 * oldest first, a turn at a time, with the loop reading sockets between turns: a request queues
 * behind the ones that arrived before it and ahead of the ones that arrive after it. A turn starts as
 * many queued requests as took about `turnMs` last time (one for reservations, dozens for catalogue
 * reads). Every request does the same work as before; only the order in which they start changes.
 */
export function inArrivalOrder<Args extends unknown[], Result>(
  handle: (...args: Args) => Result | Promise<Result>,
  turnMs = TURN_MS,
): (...args: Args) => Result | Promise<Result> {
  const waiting: (() => void)[] = [];
  /** When the current turn began; -1 once the loop has read the sockets since. */
  let turnStartedAt = -1;
  let scheduled = false;
  /** How many queued requests the next turn starts, from how long the last ones took. */
  let batch = 1;
  let lastBatch = 0;
  let lastBatchAt = 0;

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(serveQueue);
  };

  // The event loop's check phase, right after its poll phase has read every socket that had data.
  // The handlers a turn starts run in the microtasks after this function returns.
  function serveQueue() {
    scheduled = false;
    const now = performance.now();
    if (lastBatch > 0) {
      const msEach = (now - lastBatchAt) / lastBatch;
      batch = Math.min(MAX_BATCH, Math.max(1, Math.floor(turnMs / Math.max(msEach, 0.001))));
      lastBatch = 0;
    }
    // Requests started at once in this iteration's poll phase may have used the turn already.
    const turnUsed = turnStartedAt >= 0 && now - turnStartedAt >= turnMs;
    turnStartedAt = -1;
    if (waiting.length === 0) return;
    schedule();
    if (turnUsed) return; // read the sockets once more first
    lastBatchAt = now;
    lastBatch = Math.min(batch, waiting.length);
    for (const start of waiting.splice(0, lastBatch)) start();
  }

  return (...args) => {
    const now = performance.now();
    if (waiting.length === 0) {
      if (turnStartedAt < 0) {
        turnStartedAt = now;
        schedule(); // closes the turn after this poll phase
      }
      if (now - turnStartedAt < turnMs) return handle(...args);
    }
    schedule();
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => handle(...args));
  };
}
