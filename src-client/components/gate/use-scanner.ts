import { type RefObject, useEffect, useRef, useState } from 'react';
import type { Code, GateEngine, Shown } from '../../gate/gate-engine.ts';
import { codeKey, NO_HOLD, readCode, releaseCode, showCode } from '../../gate/scan-hold.ts';
import { scanContinuously, signal } from '../../gate/scanner.ts';

export type Admitted = Extract<Shown, { kind: 'admit' }>;

/**
 * What the scanner shows and acts on: the result on screen, the last admission (for Undo), and which camera
 * reads become scans. One scan at a time; none while a question or a panel covers the camera (`covered`).
 */
export function useScanner(
  engine: Pick<GateEngine, 'scan'> | null,
  video: RefObject<HTMLVideoElement | null>,
  covered: boolean,
) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [lastAdmit, setLastAdmit] = useState<Admitted | null>(null);
  const busy = useRef(false);
  const paused = useRef(false);
  paused.current = shown?.kind === 'ask' || covered;
  // Which camera reads are acted on: the code on screen is not read again (scan-hold.ts).
  const hold = useRef(NO_HOLD);
  const release = (key?: string) => {
    hold.current = releaseCode(hold.current, performance.now(), key);
  };

  // A result stays until staff dismiss it or a different code is read (issue 35).
  const show = (s: Shown) => {
    setShown(s);
    if (s.kind === 'admit') setLastAdmit(s);
    if (s.kind !== 'ask') signal(s.kind === 'admit' ? 'admit' : 'refuse');
  };

  const run = async (code: Code, persons?: number, scanId?: string) => {
    if (!engine || busy.current) return;
    busy.current = true;
    try {
      show(await engine.scan(code, persons, scanId));
    } catch (error) {
      show({
        kind: 'refuse',
        scanId: '',
        message: error instanceof Error ? error.message : 'Could not check this ticket',
        ticket: null,
        offline: false,
      });
    } finally {
      busy.current = false;
    }
  };

  // One scanning loop per engine (its repeat filter must outlive re-renders); it calls the latest `run`.
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    if (!engine || !video.current) return;
    return scanContinuously(
      video.current,
      (text) => {
        const read = readCode(hold.current, codeKey({ token: text }), performance.now());
        hold.current = read.hold;
        if (read.scan) void runRef.current({ token: text });
      },
      { paused: () => paused.current || busy.current },
    );
  }, [engine, video]);

  return {
    shown,
    lastAdmit,
    dismiss: () => {
      setShown(null);
      release();
    },
    /** Staff answered "how many enter now?" for the ticket asked about. */
    admitPersons: (asked: Extract<Shown, { kind: 'ask' }>, persons: number) => {
      setShown(null);
      // Still this code's result on screen: a re-read while the answer comes is not a new scan.
      hold.current = showCode(codeKey(asked.code), performance.now());
      void run(asked.code, persons, asked.scanId);
    },
    /** A ticket picked in the look-up, scanned as if its QR were read. */
    scanBooking: (bookingId: string) => {
      hold.current = showCode(codeKey({ bookingId }), performance.now());
      void run({ bookingId });
    },
    /** An admission of this ticket was undone: nothing on screen still claims it is in. */
    forgetTicket: (bookingId: string) => {
      if (lastAdmit?.ticket.id === bookingId) setLastAdmit(null);
      if (shown && shown.kind !== 'ask' && shown.ticket?.id === bookingId) setShown(null);
      // The undone ticket's QR, if still in view, is not read again until taken away.
      release(codeKey({ bookingId }));
    },
    /** The last admission was undone. */
    forgetLastAdmit: () => {
      if (!lastAdmit) return;
      setLastAdmit(null);
      if (shown?.kind === 'admit' && shown.scanId === lastAdmit.scanId) setShown(null);
      // The undone ticket's QR, if still in view, is not read again until taken away.
      release(codeKey({ bookingId: lastAdmit.ticket.id }));
    },
    /** The camera was covered: the clock for "taken away" starts now, and a result still shown stays held. */
    uncovered: () => {
      hold.current = { ...hold.current, seenAt: performance.now() };
    },
  };
}
