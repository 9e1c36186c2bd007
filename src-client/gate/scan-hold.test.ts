import { describe, expect, it } from 'vitest';
import { AWAY_MS, codeKey, NO_HOLD, readCode, releaseCode, type ScanHold, showCode } from './scan-hold.ts';

/** The camera reading `key` every 120 ms from `from` to `to` (the scanner's pace): the reads acted on. */
function holdUp(state: { hold: ScanHold }, key: string, from: number, to: number): number[] {
  const scanned: number[] = [];
  for (let now = from; now <= to; now += 120) {
    const read = readCode(state.hold, key, now);
    state.hold = read.hold;
    if (read.scan) scanned.push(now);
  }
  return scanned;
}

describe('which camera reads the gate acts on (issue 35)', () => {
  it('a 2-person pass held up after "Admit 1" is not read again: its result stays, the partner is not let in', () => {
    const state = { hold: NO_HOLD };
    // First read: scanned (the gate asks how many; the scanner is paused while it asks).
    expect(holdUp(state, 'booking:JB2', 0, 0)).toEqual([0]);
    // Staff tap "Admit 1" at 3 s; the QR stays in view for a minute while the result shows: never again.
    expect(holdUp(state, 'booking:JB2', 3000, 63_000)).toEqual([]);
    expect(state.hold.showing).toBe(true);
    // Staff dismiss the result; the QR is still in view: still not read.
    state.hold = releaseCode(state.hold, 63_100);
    expect(holdUp(state, 'booking:JB2', 63_200, 70_000)).toEqual([]);
    // Taken away and shown again (the partner's turn): read once more (and the gate asks, see the engine).
    expect(holdUp(state, 'booking:JB2', 70_000 + AWAY_MS + 120, 75_000)).toEqual([70_000 + AWAY_MS + 120]);
  });

  it('a different code replaces the result at once', () => {
    const state = { hold: NO_HOLD };
    holdUp(state, 'booking:A', 0, 1000);
    expect(holdUp(state, 'booking:B', 1120, 1120)).toEqual([1120]);
    expect(state.hold).toMatchObject({ key: 'booking:B', showing: true });
    // …and then the first one again is a different code too.
    expect(holdUp(state, 'booking:A', 1240, 1240)).toEqual([1240]);
  });

  it('an undone admission is not re-admitted while its QR stays in view', () => {
    const state = { hold: NO_HOLD };
    holdUp(state, 'booking:JB1', 0, 2000);
    // The Undo panel paused the camera for 20 s; undone at 22 s, the QR still in view.
    state.hold = releaseCode(state.hold, 22_000);
    expect(holdUp(state, 'booking:JB1', 22_100, 40_000)).toEqual([]);
  });

  it('an undo picked in the look-up holds that booking, and a look-up pick holds its QR', () => {
    let hold = showCode('booking:JB7', 0);
    expect(readCode(hold, 'booking:JB7', 100).scan).toBe(false);
    hold = releaseCode(hold, 5000, 'booking:JB9');
    expect(readCode(hold, 'booking:JB9', 5100).scan).toBe(false);
    expect(readCode(hold, 'booking:JB7', 5100).scan).toBe(true);
  });

  it('compares codes by booking: a QR (of any generation) and a look-up of the same booking are one code', () => {
    const sig = 'x'.repeat(86);
    expect(codeKey({ token: `JB2.${sig}` })).toBe('booking:JB2');
    expect(codeKey({ token: `JB2~1.${sig}` })).toBe('booking:JB2');
    expect(codeKey({ bookingId: 'JB2' })).toBe('booking:JB2');
    expect(codeKey({ token: 'not a ticket' })).toBe('text:not a ticket');
  });
});
