import { parseTicketToken } from '../../shared/ticket-token-format.ts';

/**
 * Which camera reads the gate acts on (issue 35): the camera reads a QR held up several times a second,
 * and acting on each read admitted a 2-person pass's partner half a second after staff chose 1, and
 * re-admitted an undone ticket while it stayed in view. So the code of the result on screen is held:
 *
 * - while its result is on screen, reads of it are ignored: the result stays until staff dismiss it or
 *   a different code is read (a different code is always scanned, and replaces the result);
 * - once dismissed (or after its admission was undone, or its question cancelled), it stays held while
 *   the camera keeps seeing it; it is scanned again only once it has been out of view for `AWAY_MS`
 *   (taken away and shown again), and then a ticket with entries left asks how many (the engine),
 *   so a remaining entry is never consumed without a tap.
 *
 * Codes are compared by booking (`codeKey`): a QR and the same booking picked by look-up are one code.
 * Pure and clock-free (the screen passes `performance.now()`), so its rules are unit-tested.
 */
export interface ScanHold {
  /** The booking (or unreadable text) whose result is on screen or was last dismissed; null: none. */
  key: string | null;
  /** Its result is on screen. */
  showing: boolean;
  /** When the camera last read it (or the screen last dismissed it), in ms. */
  seenAt: number;
}

/** Out of view this long, a dismissed code counts as shown again. */
export const AWAY_MS = 1500;

export const NO_HOLD: ScanHold = { key: null, showing: false, seenAt: 0 };

/** One read of the camera: scan it, or ignore it (and note that the held code is still in view). */
export function readCode(hold: ScanHold, key: string, now: number): { hold: ScanHold; scan: boolean } {
  if (key !== hold.key || (!hold.showing && now - hold.seenAt > AWAY_MS))
    return { hold: { key, showing: true, seenAt: now }, scan: true };
  return { hold: { ...hold, seenAt: now }, scan: false };
}

/** A code acted on without the camera (a look-up pick): its result is on screen. */
export function showCode(key: string, now: number): ScanHold {
  return { key, showing: true, seenAt: now };
}

/**
 * Staff dismissed the result, cancelled the question, undid the admission or closed a panel: the code
 * stays held until it has been out of view for `AWAY_MS` (the scanner was paused meanwhile, so the
 * clock starts now). `key` names the code to hold instead (an undo picked in the look-up).
 */
export function releaseCode(hold: ScanHold, now: number, key: string | null = hold.key): ScanHold {
  return { key, showing: false, seenAt: now };
}

/** The booking a code names (a QR's or a look-up's), else the text itself: what `ScanHold` compares. */
export function codeKey(code: { token: string } | { bookingId: string }): string {
  if ('bookingId' in code) return `booking:${code.bookingId}`;
  const token = parseTicketToken(code.token.trim());
  return token ? `booking:${token.bookingId}` : `text:${code.token}`;
}
