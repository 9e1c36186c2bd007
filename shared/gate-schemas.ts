import { z } from 'zod';
import { formatInIndia } from './dates.ts';
import { MAX_STORED_INTEGER } from './stored-integer.ts';
import { gateTicketId, parseTicketToken } from './ticket-token-format.ts';

/** The most people one scan may admit on one ticket (a group at the gate). */
export const MAX_PERSONS_PER_SCAN = 100;
/** The most queued offline scans one upload carries; a device sends the rest in the next call. */
export const MAX_SCANS_PER_UPLOAD = 500;
/**
 * The most scans of one ticket one upload carries (issue 35: an upload of hundreds of made-up admissions
 * on one ticket). A device sends more in the next call (`uploadBatch`); the server also never counts more
 * people on a ticket in one upload than it admits.
 */
export const MAX_SCANS_PER_TICKET = 20;

const id = z.string().trim().min(1).max(100);
/** A position the server handed the device (0: none yet). */
const cursor = z
  .number()
  .int()
  .min(0)
  .max(MAX_STORED_INTEGER, 'Unknown sync position: reload the gate to sync again')
  .default(0);
const gateName = z
  .string()
  .trim()
  .min(1, 'Name the gate, e.g. North gate')
  .max(60, 'Use at most 60 characters');
const persons = z
  .number({ error: 'Enter a whole number of people' })
  .int('Enter a whole number of people')
  .min(1, 'Admit at least 1 person')
  .max(MAX_PERSONS_PER_SCAN, `Admit at most ${MAX_PERSONS_PER_SCAN} people at once`);
/** A device-made unique id: a resend of the same scan is recognised and never counted twice. */
const scanId = z.string().trim().min(8).max(64);
const isoInstant = z.iso.datetime({ offset: true });

/** Where a device scans: the event and slot chosen on the gate screen, the gate's name, the device. */
const where = { slotId: id, gate: gateName, deviceId: z.string().trim().min(1).max(64) };

/** One scan made while online. Either the QR token or (manual look-up) a booking id. */
export const GateScanInput = z
  .object({
    ...where,
    scanId,
    token: z.string().trim().min(1).max(500).optional(),
    bookingId: id.optional(),
    /** Omitted on the first try: a ticket for several people (entries left) answers 'ask' instead. */
    persons: persons.optional(),
  })
  .refine((v) => v.token || v.bookingId, { message: 'Scan a ticket or choose a booking' });
export type GateScanInput = z.input<typeof GateScanInput>;

/** A scan the device decided on its own while offline, sent when the network came back. */
export const OfflineScan = z.object({
  scanId,
  token: z.string().trim().min(1).max(500).optional(),
  bookingId: id.optional(),
  /** What the device showed: it admitted `persons`, or refused with `reason`. */
  decision: z.enum(['admit', 'refuse']),
  persons: z.number().int().min(0).max(MAX_PERSONS_PER_SCAN),
  reason: z.string().max(200).optional(),
  scannedAt: isoInstant,
});
export type OfflineScan = z.infer<typeof OfflineScan>;

export const GateUploadInput = z.object({
  ...where,
  scans: z
    .array(OfflineScan)
    .min(1)
    .max(MAX_SCANS_PER_UPLOAD, `Send at most ${MAX_SCANS_PER_UPLOAD} scans at once`)
    .superRefine((scans, ctx) => {
      const seen = new Map<string, number>();
      for (const [i, scan] of scans.entries()) {
        const key = ticketKey(scan);
        const count = (seen.get(key) ?? 0) + 1;
        seen.set(key, count);
        if (count === MAX_SCANS_PER_TICKET + 1)
          ctx.addIssue({
            code: 'custom',
            path: [i],
            message: `Send at most ${MAX_SCANS_PER_TICKET} scans of one ticket at once`,
          });
      }
    }),
});
export type GateUploadInput = z.input<typeof GateUploadInput>;

/**
 * The longest start of a device's queue that one upload may carry: at most MAX_SCANS_PER_UPLOAD scans
 * and MAX_SCANS_PER_TICKET of any one ticket. A prefix, so the queue stays in scan order.
 */
export function uploadBatch<T extends { token?: string; bookingId?: string }>(queue: readonly T[]): T[] {
  const seen = new Map<string, number>();
  let end = 0;
  for (const scan of queue.slice(0, MAX_SCANS_PER_UPLOAD)) {
    const key = ticketKey(scan);
    const count = (seen.get(key) ?? 0) + 1;
    if (count > MAX_SCANS_PER_TICKET) break;
    seen.set(key, count);
    end += 1;
  }
  return queue.slice(0, end);
}

/** The booking a scan names, as far as can be told without the signature: `{id}~{generation}.{signature}`. */
function ticketKey(scan: { token?: string; bookingId?: string }): string {
  const code = scan.token?.trim() ?? scan.bookingId?.trim() ?? '';
  const token = parseTicketToken(code);
  // Each attendee's QR of a booking is a ticket of its own (ADR 0046).
  return token ? gateTicketId(token.bookingId, token.attendee) : code;
}

export const GateUndoInput = z.object({
  ...where,
  undoId: scanId,
  scanId,
  reason: z.string().trim().min(2, 'Say why (e.g. scanned the wrong ticket)').max(200),
});
export type GateUndoInput = z.input<typeof GateUndoInput>;

/** One ticket's check-in history at the gate's look-up (issue 35: undo any admission, after a reload too). */
export const GateHistoryInput = z.object({ bookingId: id });
export type GateHistoryInput = z.input<typeof GateHistoryInput>;

/** The ticket list and feed since the device's cursors (0 and 0: the whole list). */
export const GateSyncInput = z.object({
  slotId: id,
  ticketCursor: cursor,
  feedCursor: cursor,
});
export type GateSyncInput = z.input<typeof GateSyncInput>;

export const GateLookUpInput = z.object({
  slotId: id,
  query: z.string().trim().min(2, 'Type at least 2 characters').max(100),
});
export type GateLookUpInput = z.input<typeof GateLookUpInput>;

/**
 * A ticket as the gate's list carries it, compact: [bookingId, holder name, ticket type, persons allowed,
 * admitted so far, cancelled (1) or not (0), the mobile's last four digits, token generation]. Four
 * digits, not the number: enough to find a buyer whose phone is dead while the device is offline, without
 * a venue's phones holding thousands of numbers. The generation (ADR 0025) is sent only for a transferred
 * booking: a QR naming an older one is refused. Lists downloaded before the digits were added have six entries.
 * A ninth entry lists the booking's add-ons to hand over ("1 × T-shirt (M)", ADR 0041), only when it has
 * some (the generation is then 0 when not transferred): offline the device shows them read-only.
 */
export type GateListTicket = [string, string, string, number, number, 0 | 1, string?, number?, string[]?];

/**
 * The event's bookings in one of its other slots, as the gate's sync carries them: [slot start, booking
 * ids]. Ids only (12 characters each): a device names that slot when such a ticket is scanned offline.
 */
export type GateElsewhere = [string, string[]];

/** One admission or undo in the feed: [seq, scanId, bookingId, +persons (admit) or -persons (undo), gate, scannedAt]. */
export type GateFeedEntry = [number, string, string, number, string, string];

export const GATE_MESSAGES = {
  invalid: 'Invalid ticket',
  otherEvent: 'Ticket for another event',
  /**
   * Offline, a genuine ticket missing from every slot the device synced is another event's, or was booked
   * after the last sync: the device cannot tell, so it says both and the volunteer can send them online.
   */
  notInLastSync: 'Not in this event’s list at the last sync (another event, or booked since)',
  cancelled: 'Cancelled booking',
  transferred: 'Ticket was transferred',
  /** A booking whose tickets each have their own QR (ADR 0046): its booking QR admits nobody. */
  perAttendee: 'Each person has their own QR on this booking: scan theirs',
  notOnList: 'Not on this slot’s list (another event or slot?)',
} as const;

/** "Sat 12 Dec, 7 PM" (minutes only when they are not :00), India time. */
export function slotLabel(startIso: string): string {
  const minutes = formatInIndia(startIso, 'mm');
  return formatInIndia(startIso, minutes === '00' ? 'EEE d MMM, h a' : 'EEE d MMM, h:mm a');
}

export const otherSlotMessage = (startIso: string) => `Ticket for ${slotLabel(startIso)} slot`;
export const alreadyUsedMessage = (gate: string | null, atIso: string | null) =>
  `Already used${gate ? ` at ${gate}` : ''}${atIso ? `, ${formatInIndia(atIso, 'HH:mm')}` : ''}`;
export const notEnoughMessage = (remaining: number, allowed: number) =>
  `Only ${remaining} of ${allowed} entries left on this ticket`;
