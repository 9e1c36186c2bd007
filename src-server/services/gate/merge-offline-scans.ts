import type { GateUploadInput } from '../../../shared/gate-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import {
  admitTicketSteps,
  attendeeDetail,
  loadGateTicketSteps,
  type TicketRef,
  ticketRefOf,
} from '../attendee-tickets/attendee-gate.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { findScanSteps } from './gate-core.ts';
import { findGateSlot } from './gate-events.ts';
import type { GateCaller } from './record-scan.ts';
import { checkBooking } from './record-scan.ts';

export interface MergedScan {
  scanId: string;
  /** 'new': logged now; 'known': this scan id was already in the log (a resend), nothing changed. */
  status: 'new' | 'known';
  /** People counted on the booking by this scan. */
  counted: number;
  /** People the device let in beyond what the ticket allowed (a double entry). */
  excess: number;
}

/**
 * How long before a slot starts its gates may open: an offline scan dated earlier (a device whose clock
 * says 2001) is not believed.
 */
export const GATES_OPEN_BEFORE_MS = 6 * 3_600_000;
/** How far a device's clock may run ahead of the server's. */
export const DEVICE_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Merges scans a device decided while offline into the log, in the order it made them. The people
 * really walked in, so nothing is refused after the fact: admissions count through the same conditional
 * UPDATE as online scans up to what the ticket has left, and anything beyond is recorded as a double entry
 * (excess) with the device, gate, time and the staff account that uploaded it. A scan id already in the
 * log is skipped, so a device that resends a batch (the answer got lost) changes nothing.
 *
 * What a device says is bounded (issue 35), each bound noted in the row's reason so it stays traceable:
 * - a scan time outside the slot's plausible window (before its gates could open, or ahead of the server
 *   beyond a small skew) is replaced by the upload's time, so a wrong clock gains no place in the order
 *   (the earlier admission is the one counted);
 * - one upload never puts more people on a ticket than it admits: a device decides by its own count, so
 *   an honest one never claims more; the rest is not counted, not even as excess.
 */
export async function mergeOfflineScans(
  db: Db,
  appSecret: string,
  caller: GateCaller,
  input: GateUploadInput,
  now: Date,
): Promise<MergedScan[]> {
  const slot = await findGateSlot(db, caller.eventId, input.slotId);
  if (!slot) throw notFound('No such slot at this event');
  const scans = boundedScans(input.scans, slot.start, now);
  // Signatures are checked outside the transaction: it holds the write lock, verifying does not need it.
  const codes = new Map(scans.map((s) => [s.scanId, ticketRefOf(appSecret, s)]));
  return runnerFor(db).write((tx) => mergeOfflineScansSteps(tx as WriteTx, caller, input, scans, codes, now));
}

/** A device's scan as the merge takes it: its time bounded (and noted when it was not believed). */
export type BoundedScan = GateUploadInput['scans'][number] & { note: string | null };

/**
 * The scans in the order the merge takes them, each scan time outside the slot's plausible window
 * (from its gates' opening before `slotStart`, to a small skew past `now`) replaced by the upload's time.
 */
export function boundedScans(scans: GateUploadInput['scans'], slotStart: string, now: Date): BoundedScan[] {
  const earliest = Date.parse(slotStart) - GATES_OPEN_BEFORE_MS;
  const latest = now.getTime() + DEVICE_CLOCK_SKEW_MS;
  return scans
    .map((scan) => {
      const at = Date.parse(scan.scannedAt);
      // Normalised to UTC, so scans sent with different offsets sort by their instant.
      if (at >= earliest && at <= latest)
        return { ...scan, scannedAt: new Date(at).toISOString(), note: null };
      return {
        ...scan,
        scannedAt: now.toISOString(),
        note: `Device clock said ${scan.scannedAt}: logged at upload time`,
      };
    })
    .sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
}

/**
 * `mergeOfflineScans`' transition, written once for both engines (ADR 0045): `scans` as `boundedScans`
 * gives them, `codes` the ticket each names (`ticketRefOf`, by scan id).
 */
export function* mergeOfflineScansSteps(
  tx: WriteTx,
  caller: GateCaller,
  input: Pick<GateUploadInput, 'slotId' | 'gate' | 'deviceId'>,
  scans: BoundedScan[],
  codes: Map<string, TicketRef | null>,
  now: Date,
): Steps<MergedScan[]> {
  const { gateScans } = tablesOf(tx);
  // Every booking the upload names, locked in one order before any is read: two uploads never deadlock.
  const locked = new Set<string>();
  for (const code of codes.values()) if (code) locked.add(code.bookingId);
  for (const bookingId of [...locked].sort()) yield* serialize(bookingLockKey(bookingId));
  /** People this upload has put on each booking so far (counted and excess). */
  const claimed = new Map<string, number>();
  const merged: MergedScan[] = [];
  for (const scan of scans) {
    if (yield* findScanSteps(tx, scan.scanId)) {
      merged.push({ scanId: scan.scanId, status: 'known', counted: 0, excess: 0 });
      continue;
    }
    const code = codes.get(scan.scanId);
    // An attendee's QR (ADR 0046) is its own ticket: its own persons, count and cap per upload.
    const booking = code ? yield* loadGateTicketSteps(tx, code) : null;
    const key = booking?.ticketId ?? booking?.bookingId ?? '';
    // An admission on a QR given away since (a device with a stale list) counts as a double entry.
    const refusal = checkBooking(booking, caller.eventId, input.slotId, code?.generation ?? null);
    const notes = [scan.note];
    let counted = 0;
    let excess = 0;
    if (scan.decision === 'admit' && booking) {
      const before = claimed.get(key) ?? 0;
      const persons = Math.min(scan.persons, Math.max(0, booking.allowed - before));
      if (persons < scan.persons)
        notes.push(`${scan.persons - persons} more than the ticket admits in one upload: not counted`);
      claimed.set(key, before + persons);
      if (!refusal) {
        const left = Math.max(0, booking.allowed - booking.admitted);
        counted = Math.min(persons, left);
        if (counted > 0 && !(yield* admitTicketSteps(tx, booking, counted, new Date(scan.scannedAt))))
          counted = 0;
      }
      // On a ticket this slot does not admit (a stale list) all of it is excess.
      excess = persons - counted;
    }
    const admitted = scan.decision === 'admit';
    const reason = admitted ? (refusal?.message ?? null) : (scan.reason ?? refusal?.message ?? 'Refused');
    yield* changes(
      tx.insert(gateScans).values({
        scanId: scan.scanId,
        eventId: caller.eventId,
        slotId: input.slotId,
        bookingId: booking && !(refusal?.reason === 'other-event') ? booking.bookingId : null,
        ticketId: booking && !(refusal?.reason === 'other-event') ? (booking.ticketId ?? null) : null,
        kind: admitted ? 'admit' : 'refuse',
        persons: counted,
        excess,
        reason: [reason, ...notes].filter(Boolean).join('; ') || null,
        gate: input.gate,
        deviceId: input.deviceId,
        // Who uploaded it: the signed-in account the device sent the scans with.
        staffUserId: caller.staffUserId,
        scannedAt: scan.scannedAt,
        receivedAt: now.toISOString(),
        offline: true,
      }),
    );
    // The history tells what the booking's count became: people counted on it, when the device scanned.
    if (booking && counted > 0)
      yield* recordBookingEventSteps(tx, {
        bookingId: booking.bookingId,
        kind: 'checked_in',
        actor: 'gate',
        actorUserId: caller.staffUserId,
        at: scan.scannedAt,
        details: { persons: counted, gate: input.gate, offline: true, ...attendeeDetail(booking) },
      });
    merged.push({ scanId: scan.scanId, status: 'new', counted, excess });
  }
  return merged;
}
