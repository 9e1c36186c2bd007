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
