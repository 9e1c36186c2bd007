import { splitTicketSubject } from './ticket-subject.ts';

/**
 * The text a ticket's QR code carries (docs/decisions/0022-gate-tokens-and-offline-scans.md):
 * `{subject}.{signature}`, the subject being the booking id, or `{bookingId}~{n}` after its n-th transfer
 * (ADR 0025). An 86-character base64url signature is Ed25519 over `ticketSignedText(subject)`; a
 * 43-character one is the first release's HMAC-SHA256, made before transfers existed. Read the same way
 * by the server and by gate devices; neither trusts what it reads until the signature is checked.
 */
export interface ParsedTicketToken {
  subject: string;
  bookingId: string;
  /** The token generation: a QR of a generation below the ticket's was given away. */
  generation: number;
  signature: string;
  kind: 'ed25519' | 'legacy';
  /**
   * Present only on a per-attendee QR (ADR 0046): the one ticket of the booking it admits, the
   * `position`-th (1-based) of its ticket type. Absent: the booking's own QR.
   */
  attendee?: { ticketTypeId: string; position: number };
}

/**
 * A per-attendee token's subject (ADR 0046): the booking's subject (id and generation, so a transfer voids
 * it like the booking's QR), then `+{ticketTypeId}+{position}`. Signed under its own text (`v3:attendee`),
 * so it is never a valid booking token nor the other way round, and a verifier that predates it refuses
 * it as invalid instead of reading it as a booking.
 */
const ATTENDEE_SUBJECT = /^(.+)\+([\w-]{1,64})\+([1-9]\d{0,3})$/;

export function attendeeTicketSubject(
  bookingSubject: string,
  ticketTypeId: string,
  position: number,
): string {
  return `${bookingSubject}+${ticketTypeId}+${position}`;
}

/**
 * The gate's key for one ticket: the booking id for a booking's QR, `{bookingId}+{typeId}+{position}` for an
 * attendee's. Gate lists, feeds and devices count admissions under it, so attendees of one booking are
 * checked in apart.
 */
export function gateTicketId(bookingId: string, attendee?: { ticketTypeId: string; position: number }) {
  return attendee ? `${bookingId}+${attendee.ticketTypeId}+${attendee.position}` : bookingId;
}

/** Reads a gate ticket id back into the booking and the attendee it names (if any). */
export function splitGateTicketId(ticketId: string): {
  bookingId: string;
  attendee?: { ticketTypeId: string; position: number };
} {
  const match = ATTENDEE_SUBJECT.exec(ticketId);
  if (!match || match[1]?.includes('~')) return { bookingId: ticketId };
  return {
    bookingId: match[1] as string,
    attendee: { ticketTypeId: match[2] as string, position: Number(match[3]) },
  };
}

export const ED25519_SIGNATURE_CHARS = 86;
const LEGACY_SIGNATURE_CHARS = 43;

/** Splits a token without checking its signature; null for text that is not a token. */
export function parseTicketToken(token: string): ParsedTicketToken | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || dot === token.length - 1) return null;
  const signature = token.slice(dot + 1);
  if (!/^[\w-]+$/.test(signature)) return null;
  const subject = token.slice(0, dot);
  if (signature.length === ED25519_SIGNATURE_CHARS) {
    const attendee = ATTENDEE_SUBJECT.exec(subject);
    if (attendee)
      return {
        subject,
        ...splitTicketSubject(attendee[1] as string),
        signature,
        kind: 'ed25519',
        attendee: { ticketTypeId: attendee[2] as string, position: Number(attendee[3]) },
      };
    return { subject, ...splitTicketSubject(subject), signature, kind: 'ed25519' };
  }
  // First-release tokens name the booking id itself, generation 0.
  if (signature.length === LEGACY_SIGNATURE_CHARS) {
    return { subject, bookingId: subject, generation: 0, signature, kind: 'legacy' };
  }
  return null;
}

/** The exact text an Ed25519 ticket signature covers (UTF-8); the server signs it, devices verify it. */
export function ticketSignedText(subject: string): string {
  return `jalsa-ticket:v2:${subject}`;
}

/** What a per-attendee token's signature covers: its own prefix, never a booking token's text. */
export function attendeeTicketSignedText(subject: string): string {
  return `jalsa-ticket:v3:attendee:${subject}`;
}

/** The signed text of a parsed Ed25519 token, by its kind (booking or attendee). */
export function signedTextOf(token: Pick<ParsedTicketToken, 'subject' | 'attendee'>): string {
  return token.attendee ? attendeeTicketSignedText(token.subject) : ticketSignedText(token.subject);
}
