import {
  alreadyUsedMessage,
  GATE_MESSAGES,
  notEnoughMessage,
  otherSlotMessage,
} from '../../shared/gate-schemas.ts';

/** A ticket as the device keeps it (from the slot's list, plus the feed and its own admissions). */
export interface LocalTicket {
  id: string;
  name: string;
  type: string;
  allowed: number;
  admitted: number;
  cancelled: boolean;
  /** The mobile's last four digits, for the manual look-up (absent from lists downloaded before them). */
  phoneEnd?: string;
  /** The token generation (ADR 0025): absent or 0 until the booking is transferred. */
  generation?: number;
  /** Add-ons to hand over ("1 × T-shirt (M)", ADR 0041), read-only: marking one given needs the server. */
  addOns?: string[];
  /** The latest admission the device knows of (for "Already used at North gate, 19:04"). */
  lastGate?: string;
  lastAt?: string;
}

export type LocalDecision =
  | { outcome: 'admit'; persons: number; ticket: LocalTicket }
  | { outcome: 'ask'; remaining: number; ticket: LocalTicket }
  | { outcome: 'refuse'; message: string; ticket: LocalTicket | null };

/**
 * Where a ticket that is not on this slot's list belongs, as far as the device knows: the start of
 * another slot of the event (its bookings come with the sync), another event (a signed ticket that is
 * none of this event's bookings at the last sync), or unknown (a list downloaded before the event's other
 * slots came with it).
 */
export type Elsewhere = { slotStart: string } | 'other-event' | 'unknown';

/**
 * The offline decision, the same rules the server applies: a code the device cannot trust is invalid; a
 * ticket not on this slot's list is refused naming its slot, or as another event's; a cancelled
 * booking, a QR given away since (an older token generation), a used ticket and too few entries left
 * are refused; a ticket for several people asks how many enter now.
 */
export function decideLocally(input: {
  /** Signature verified with the public key (Ed25519), or a first-release token found on the lists. */
  trusted: boolean;
  ticket: LocalTicket | null;
  /** For a ticket not on this slot's list. */
  elsewhere?: Elsewhere;
  persons?: number;
  /** The scanned QR's token generation; absent for a booking chosen by look-up. */
  generation?: number;
}): LocalDecision {
  const { ticket } = input;
  if (!input.trusted) return { outcome: 'refuse', message: GATE_MESSAGES.invalid, ticket: null };
  if (!ticket)
    return { outcome: 'refuse', message: elsewhereMessage(input.elsewhere ?? 'unknown'), ticket: null };
  if (isStaleGeneration(ticket, input.generation))
    return { outcome: 'refuse', message: GATE_MESSAGES.transferred, ticket };
  if (ticket.cancelled) return { outcome: 'refuse', message: GATE_MESSAGES.cancelled, ticket };
  // A booking QR that admits nobody: every ticket of the booking has its own QR (ADR 0046).
  if (ticket.allowed === 0) return { outcome: 'refuse', message: GATE_MESSAGES.perAttendee, ticket };
  const remaining = ticket.allowed - ticket.admitted;
  if (remaining <= 0)
    return {
      outcome: 'refuse',
      message: alreadyUsedMessage(ticket.lastGate ?? null, ticket.lastAt ?? null),
      ticket,
    };
  if (input.persons === undefined) {
    // A group ticket always asks, even with one entry left: a remaining entry is never consumed
    // without a tap (issue 35: a re-read let the partner of a 2-person pass in behind staff's back).
    if (ticket.allowed > 1) return { outcome: 'ask', remaining, ticket };
    return { outcome: 'admit', persons: 1, ticket };
  }
  if (input.persons > remaining)
    return { outcome: 'refuse', message: notEnoughMessage(remaining, ticket.allowed), ticket };
  return { outcome: 'admit', persons: input.persons, ticket };
}

/** True for a QR of a booking given away since it was made: the recipient holds a newer one. */
export const isStaleGeneration = (ticket: LocalTicket, generation: number | undefined) =>
  generation !== undefined && generation < (ticket.generation ?? 0);

function elsewhereMessage(elsewhere: Elsewhere): string {
  if (elsewhere === 'other-event') return GATE_MESSAGES.notInLastSync;
  if (elsewhere === 'unknown') return GATE_MESSAGES.notOnList;
  return otherSlotMessage(elsewhere.slotStart);
}
