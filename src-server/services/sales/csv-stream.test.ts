import { describe, expect, it } from 'vitest';
import { csvStream, keysetPages } from './csv-stream.ts';

// ignoreBOM: keep the byte-order mark in the text, as the file has it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

describe('keysetPages', () => {
  it('reads each page after the last row of the one before, until a short page', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7];
    const asked: (number | undefined)[] = [];
    const read = (after: number | undefined) => {
      asked.push(after);
      return rows.filter((r) => r > (after ?? 0)).slice(0, 3);
    };
    expect([...keysetPages(read, 3)]).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(asked).toEqual([undefined, 3, 6]);
  });

  it('reads one more (empty) page when the last page is full, and nothing before it is asked for', () => {
    const read = (after: number | undefined) => (after === undefined ? [1, 2] : []);
    const pages = keysetPages(read, 2);
    expect(pages.next().value).toEqual([1, 2]);
    expect(pages.next().value).toEqual([]);
    expect(pages.next().done).toBe(true);
  });
});

describe('csvStream', () => {
  it('sends the byte-order mark and header, then one chunk per non-empty piece, pulled one at a time', async () => {
    let pulled = 0;
    function* pieces() {
      for (const piece of ['a\r\n', '', '', 'b\r\n']) {
        pulled++;
        yield piece;
      }
    }
    const reader = csvStream(['Name', 'Total (INR)'], pieces()).getReader();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('\uFEFFName,Total (INR)\r\n');
    expect(pulled, 'nothing is read ahead of the client').toBe(0);
    expect(decoder.decode((await reader.read()).value)).toBe('a\r\n');
    expect(pulled).toBe(1);
    // The empty pieces (pages that produced no rows) are skipped, not sent and not a stall.
    expect(decoder.decode((await reader.read()).value)).toBe('b\r\n');
    expect(pulled).toBe(4);
    expect((await reader.read()).done).toBe(true);
  });

  it('reads each piece on a later turn of the event loop, so other requests run between pages (issue 35)', async () => {
    // Event-loop turns, counted by an immediate that re-arms itself: what another request's I/O waits for.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const turnAtPiece: number[] = [];
    function* pieces() {
      for (let i = 0; i < 5; i++) {
        turnAtPiece.push(turns);
        yield `row ${i}\r\n`;
      }
    }
    // A client that takes every chunk the moment it comes, as a fast socket does (never a 'drain' wait).
    const reader = csvStream(['Name'], pieces()).getReader();
    let chunks = 0;
    while (!(await reader.read()).done) chunks++;
    counting = false;
    expect(chunks).toBe(6);
    for (let i = 1; i < turnAtPiece.length; i++) {
      expect(turnAtPiece[i], `piece ${i} read on a later turn than piece ${i - 1}`).toBeGreaterThan(
        turnAtPiece[i - 1]!,
      );
    }
  });

  it('stops the pieces when the download is cancelled', async () => {
    let finished = false;
    function* pieces() {
      try {
        for (;;) yield 'row\r\n';
      } finally {
        finished = true;
      }
    }
    const reader = csvStream(['Name'], pieces()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });
});
