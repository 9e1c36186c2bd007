import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvRow } from './csv-cells.ts';

/**
 * A CSV download as a pull stream: UTF-8 with a byte-order mark (so Excel reads ₹ and names in
 * Devanagari right), the header row, then each piece `pieces` yields, read only when the client has
 * taken the previous one, so a large file never sits in memory and a slow download holds no database
 * lock (every page is its own short read). Empty pieces (a page that produced no rows) are skipped,
 * since a pull that enqueues nothing is not called again.
 *
 * Each piece is read on a later turn of the event loop (issue 35): a client that takes every chunk at
 * once (a fast socket never asks to wait for 'drain') would otherwise pull page after page in
 * microtasks, and the 200 pages of a 100,000-order event kept every other request waiting for seconds.
 */
export function csvStream(
  header: readonly string[],
  pieces: Iterator<string> | AsyncIterator<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(`\uFEFF${csvRow([...header])}`));
          return;
        }
        for (;;) {
          // Let the requests that arrived meanwhile run before the next page is read.
          await nextTurn();
          if (cancelled) return;
          // A reader written once for both engines awaits its page (ADR 0045); SQLite's answers at once.
          const next = await pieces.next();
          if (next.done) {
            controller.close();
            return;
          }
          if (next.value !== '') {
            controller.enqueue(encoder.encode(next.value));
            return;
          }
        }
      },
      async cancel() {
        cancelled = true;
        await pieces.return?.();
      },
    },
    // Read nothing ahead of the client: a page is queried only when the previous one has been taken.
    { highWaterMark: 0 },
  );
}

/**
 * Keyset paging: the pages `readPage` returns, each read after the previous page's last row, until a
 * page comes back short. Lazy, so each page is read only when the stream asks for it.
 */
export function* keysetPages<Row>(
  readPage: (after: Row | undefined) => Row[],
  pageSize: number,
): Generator<Row[], void, undefined> {
  let after: Row | undefined;
  for (;;) {
    const rows = readPage(after);
    yield rows;
    const last = rows.at(-1);
    if (rows.length < pageSize || last === undefined) return;
    after = last;
  }
}

/** `keysetPages` for a reader that awaits each page (a read written once for both engines, ADR 0045). */
export async function* keysetPagesAsync<Row>(
  readPage: (after: Row | undefined) => Promise<Row[]>,
  pageSize: number,
): AsyncGenerator<Row[], void, undefined> {
  let after: Row | undefined;
  for (;;) {
    const rows = await readPage(after);
    yield rows;
    const last = rows.at(-1);
    if (rows.length < pageSize || last === undefined) return;
    after = last;
  }
}
