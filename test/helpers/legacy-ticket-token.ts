import { createHmac } from 'node:crypto';

/**
 * Ticket tokens as something other than today's signer makes them, written out here from their published
 * formats (docs/decisions/0022-gate-tokens-and-offline-scans.md) rather than borrowed from
 * src-server/services/tickets/ticket-token.ts: a change to the server's formats then fails the tests
 * that prove old tokens and outside verifiers still work, instead of changing both sides at once.
 */

/**
 * A token of the first release: `{bookingId}.{HMAC-SHA256 of "jalsa-ticket:{bookingId}" under the app
 * secret, base64url}`. Such tokens are still in buyers' hands, and the server still accepts them.
 */
export function signLegacyTicketToken(secret: string, bookingId: string): string {
  return `${bookingId}.${createHmac('sha256', secret).update(`jalsa-ticket:${bookingId}`).digest('base64url')}`;
}

/** The bytes a booking token's Ed25519 signature covers, as a gate device or any outside verifier builds them. */
export const ed25519Message = (subject: string) => Buffer.from(`jalsa-ticket:v2:${subject}`, 'utf8');
