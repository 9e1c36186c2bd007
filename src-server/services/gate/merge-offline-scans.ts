import type { GateUploadInput, OfflineScan } from '../../../shared/gate-schemas.ts';
import type { Db } from '../../db/client.ts';
import { gateScans } from '../../db/schema/gate.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { readTicketToken } from '../tickets/ticket-token.ts';
import { admitConditionally, findScan, loadGateBooking } from './gate-core.ts';
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
 * Merges scans a device decided while offline into the log, in the order it made them. The people
 * really walked in, so nothing is refused after the fact: admissions count through the same conditional
 * UPDATE as online scans up to what the ticket has left, and anything beyond is recorded as a double entry
 * (excess) with the device, gate, staff and time. A scan id already in the log is skipped, so a device
 * that resends a batch (the answer got lost) changes nothing.
 */
export async function mergeOfflineScans(
  db: Db,
  appSecret: string,
  caller: GateCaller,
  input: GateUploadInput,
  now: Date,
): Promise<MergedScan[]> {
  const scans = [...input.scans].sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
  // Signatures are checked outside the transaction: it holds the write lock, verifying does not need it.
  const codes = new Map(scans.map((s) => [s.scanId, codeOf(appSecret, s)]));
  return writeTransaction(db, (tx) =>
    scans.map((scan): MergedScan => {
      if (findScan(tx, scan.scanId)) return { scanId: scan.scanId, status: 'known', counted: 0, excess: 0 };
      const code = codes.get(scan.scanId);
      const booking = code?.bookingId ? loadGateBooking(tx, code.bookingId) : null;
      // An admission on a QR given away since (a device with a stale list) counts as a double entry.
      const refusal = checkBooking(booking, caller.eventId, input.slotId, code?.generation ?? null);
      let counted = 0;
      let excess = 0;
      if (scan.decision === 'admit' && booking && !refusal) {
        const left = Math.max(0, booking.allowed - booking.admitted);
        counted = Math.min(scan.persons, left);
        if (counted > 0 && !admitConditionally(tx, booking.bookingId, counted, new Date(scan.scannedAt)))
          counted = 0;
        excess = scan.persons - counted;
      } else if (scan.decision === 'admit' && refusal && booking) {
        // The device let people in on a ticket this slot does not admit (a stale list): all of it is excess.
        excess = scan.persons;
      }
      const admitted = scan.decision === 'admit';
      tx.insert(gateScans)
        .values({
          scanId: scan.scanId,
          eventId: caller.eventId,
          slotId: input.slotId,
          bookingId: booking && !(refusal?.reason === 'other-event') ? booking.bookingId : null,
          kind: admitted ? 'admit' : 'refuse',
          persons: counted,
          excess,
          reason: admitted ? (refusal?.message ?? null) : (scan.reason ?? refusal?.message ?? 'Refused'),
          gate: input.gate,
          deviceId: input.deviceId,
          staffUserId: caller.staffUserId,
          scannedAt: scan.scannedAt,
          receivedAt: now.toISOString(),
          offline: true,
        })
        .run();
      return { scanId: scan.scanId, status: 'new', counted, excess };
    }),
  );
}

function codeOf(
  appSecret: string,
  scan: OfflineScan,
): { bookingId: string; generation: number | null } | null {
  if (scan.token) return readTicketToken(appSecret, scan.token.trim());
  return scan.bookingId ? { bookingId: scan.bookingId, generation: null } : null;
}
