import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import { ticketSubject } from '../../../shared/ticket-subject.ts';
import {
  attendeeTicketSignedText,
  attendeeTicketSubject,
  parseTicketToken,
  signedTextOf,
  ticketSignedText,
} from '../../../shared/ticket-token-format.ts';

/**
 * The text a ticket's QR code carries: `{subject}.{signature}` (docs/decisions/0022-gate-tokens-and-offline-scans.md),
 * where the subject is the booking id, or `{bookingId}~{n}` after its n-th transfer (ADR 0025).
 *
 * - New tokens: the signature is the 86-character base64url Ed25519 signature of `jalsa-ticket:v2:{bookingId}`.
 *   The private key is derived from the app secret (so it is as durable, and backed up, as that secret);
 *   gate devices get the public key and verify tickets offline without holding any secret.
 * - Tokens issued by the first release: a 43-character base64url HMAC-SHA256 under the app secret. The
 *   server still accepts them; devices send them to the server (or accept them by the downloaded list).
 *
 * Anyone can read the booking id; nobody without the key can make a valid signature, so an altered or
 * invented code is recognised at the gate without trusting what it says.
 */
export function signTicketToken(secret: string, bookingId: string, generation = 0): string {
  const { privateKey } = ticketKeys(secret);
  const subject = ticketSubject(bookingId, generation);
  // The exact bytes the gate device verifies (shared/ticket-token-format.ts).
  const text = Buffer.from(ticketSignedText(subject), 'utf8');
  return `${subject}.${sign(null, text, privateKey).toString('base64url')}`;
}

/**
 * One attendee's own QR (ADR 0046): the booking (and its generation) and the `position`-th ticket of the
 * type, signed under the attendee text so it can never pass as the booking's QR.
 */
export function signAttendeeTicketToken(
  secret: string,
  bookingId: string,
  generation: number,
  attendee: { ticketTypeId: string; position: number },
): string {
  const { privateKey } = ticketKeys(secret);
  const subject = attendeeTicketSubject(
    ticketSubject(bookingId, generation),
    attendee.ticketTypeId,
    attendee.position,
  );
  const text = Buffer.from(attendeeTicketSignedText(subject), 'utf8');
  return `${subject}.${sign(null, text, privateKey).toString('base64url')}`;
}

/**
 * The booking and token generation a correctly signed token names (generation 0: never transferred, or
 * a QR made before the first transfer); null for anything forged, altered or malformed.
 */
export function readTicketToken(
  secret: string,
  token: string,
): { bookingId: string; generation: number; attendee?: { ticketTypeId: string; position: number } } | null {
  const parsed = parseTicketToken(token);
  if (!parsed) return null;
  const { subject, signature, bookingId, generation } = parsed;
  if (parsed.kind === 'ed25519') {
    const bytes = Buffer.from(signature, 'base64url');
    // base64url has spare bits in its last character: only the canonical spelling is the signature.
    if (bytes.length !== 64 || bytes.toString('base64url') !== signature) return null;
    const text = Buffer.from(signedTextOf(parsed), 'utf8');
    if (!verify(null, text, ticketKeys(secret).publicKey, bytes)) return null;
    return parsed.attendee ? { bookingId, generation, attendee: parsed.attendee } : { bookingId, generation };
  }
  // First-release HMAC tokens were made before transfers existed: they name generation 0.
  const given = Buffer.from(signature, 'utf8');
  const expected = Buffer.from(hmacSignature(secret, subject), 'utf8');
  if (given.length !== expected.length) return null;
  return timingSafeEqual(given, expected) ? { bookingId: subject, generation: 0 } : null;
}

/** The raw 32-byte Ed25519 public key, base64url: what gate devices verify tokens with. */
export function ticketPublicKey(secret: string): string {
  return ticketKeys(secret).publicRaw;
}

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): node:crypto imports keys in DER, not raw.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const keyCache = new Map<string, { privateKey: KeyObject; publicKey: KeyObject; publicRaw: string }>();

/**
 * The ticket key pair. The seed is an HMAC of the app secret under a label used for nothing else, so the
 * key needs no storage of its own: the `app-secret` file (or APP_SECRET) that the installation already
 * keeps and backs up is the key's storage, and a restored installation verifies the tickets it issued.
 */
function ticketKeys(secret: string) {
  let keys = keyCache.get(secret);
  if (!keys) {
    const seed = createHmac('sha256', secret).update('jalsa-ticket-ed25519-seed:v1').digest();
    const privateKey = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
    const publicKey = createPublicKey(privateKey);
    const spki = publicKey.export({ format: 'der', type: 'spki' });
    keys = { privateKey, publicKey, publicRaw: spki.subarray(spki.length - 32).toString('base64url') };
    keyCache.set(secret, keys);
  }
  return keys;
}

// The first release's tokens (still in buyers' hands; test/helpers/legacy-ticket-token.ts makes them).
// The app secret also signs simulator payments: a prefix keeps a ticket signature from ever being
// valid as anything else.
function hmacSignature(secret: string, bookingId: string): string {
  return createHmac('sha256', secret).update(`jalsa-ticket:${bookingId}`).digest('base64url');
}
