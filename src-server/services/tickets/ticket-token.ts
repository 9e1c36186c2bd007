import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The text a ticket's QR code carries: `{bookingId}.{signature}`, where the signature is the base64url
 * HMAC-SHA256 of the booking id under the app secret. Anyone can read the booking id, nobody without the
 * secret can make a valid signature, so an altered or invented code is recognised at the gate without
 * trusting what it says.
 */
export function signTicketToken(secret: string, bookingId: string): string {
  return `${bookingId}.${signature(secret, bookingId)}`;
}

/** The booking id a token names if its signature is right; null for anything forged, altered or malformed. */
export function verifyTicketToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || dot === token.length - 1) return null;
  const bookingId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'utf8');
  const expected = Buffer.from(signature(secret, bookingId), 'utf8');
  if (given.length !== expected.length) return null;
  return timingSafeEqual(given, expected) ? bookingId : null;
}

// The app secret also signs simulator payments: a prefix keeps a ticket signature from ever being
// valid as anything else.
function signature(secret: string, bookingId: string): string {
  return createHmac('sha256', secret).update(`jalsa-ticket:${bookingId}`).digest('base64url');
}
