import { createPublicKey, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ED25519_SIGNATURE_CHARS, parseTicketToken } from '../../../shared/ticket-token-format.ts';
import { ed25519Message, signLegacyTicketToken } from '../../../test/helpers/legacy-ticket-token.ts';
import {
  readTicketToken,
  signAttendeeTicketToken,
  signTicketToken,
  ticketPublicKey,
} from './ticket-token.ts';

/** The booking a correctly signed token names, as the gate's scan and merge read it; null otherwise. */
const bookingOf = (secret: string, token: string) => readTicketToken(secret, token)?.bookingId ?? null;

const SECRET = 'unit-secret-0123456789abcdef0123456789';

describe('ticket tokens', () => {
  it('round-trips any booking id', () => {
    // '~' separates a transferred ticket's generation (shared/ticket-subject.ts) and '+' an attendee's
    // ticket (ADR 0046); booking ids never hold either.
    const bookingIds = fc
      .string({ minLength: 1, maxLength: 80 })
      .filter((id) => !id.includes('~') && !id.includes('+'));
    fc.assert(
      fc.property(bookingIds, (bookingId) => {
        expect(bookingOf(SECRET, signTicketToken(SECRET, bookingId))).toBe(bookingId);
      }),
    );
  });

  it('refuses a token with any single character changed', () => {
    const token = signTicketToken(SECRET, 'bk_3f9a1c');
    for (let i = 0; i < token.length; i++) {
      const replacement = token[i] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, i) + replacement + token.slice(i + 1);
      expect(bookingOf(SECRET, altered), `changed at ${i}`).toBeNull();
    }
  });

  it('refuses a token signed with another secret, and malformed text', () => {
    const other = signTicketToken('another-secret-0123456789abcdef012345', 'bk_1');
    expect(bookingOf(SECRET, other)).toBeNull();
    for (const bad of ['', '.', 'bk_1', 'bk_1.', '.abc', 'bk_1.abc'])
      expect(bookingOf(SECRET, bad)).toBeNull();
  });
});

describe('Ed25519 ticket tokens and the first release’s HMAC tokens', () => {
  it('signs new tokens with Ed25519, verifiable with the public key alone', () => {
    const token = signTicketToken(SECRET, 'bk_3f9a1c');
    const parsed = parseTicketToken(token);
    expect(parsed?.signature).toHaveLength(ED25519_SIGNATURE_CHARS);
    const raw = Buffer.from(ticketPublicKey(SECRET), 'base64url');
    expect(raw).toHaveLength(32);
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
      format: 'der',
      type: 'spki',
    });
    const signature = Buffer.from(parsed?.signature ?? '', 'base64url');
    expect(verify(null, ed25519Message('bk_3f9a1c'), publicKey, signature)).toBe(true);
    expect(verify(null, ed25519Message('bk_3f9a1d'), publicKey, signature)).toBe(false);
  });

  it('keeps accepting tokens issued before (HMAC), and refuses them altered', () => {
    const old = signLegacyTicketToken(SECRET, 'bk_old');
    expect(bookingOf(SECRET, old)).toBe('bk_old');
    expect(bookingOf(SECRET, old.replace('bk_old', 'bk_olc'))).toBeNull();
    expect(bookingOf('another-secret-0123456789abcdef012345', old)).toBeNull();
  });

  it('derives the same key pair from the same secret (a restart verifies what was issued), another from another', () => {
    expect(ticketPublicKey(SECRET)).toBe(ticketPublicKey(`${SECRET}`.slice(0)));
    expect(ticketPublicKey(SECRET)).not.toBe(ticketPublicKey('another-secret-0123456789abcdef012345'));
  });

  it('is compact enough for an easy QR: under 120 characters for a typical booking id', () => {
    expect(signTicketToken(SECRET, 'bk_01JDZ8X4W3M9Q7R2T5V6Y8ZABC').length).toBeLessThan(120);
  });
});

describe('per-attendee tokens (ADR 0046)', () => {
  const attendee = { ticketTypeId: 'tt-gold', position: 2 };

  it('names the booking, its generation and the attendee', () => {
    const token = signAttendeeTicketToken(SECRET, 'JB2ABC', 1, attendee);
    expect(token.startsWith('JB2ABC~1+tt-gold+2.')).toBe(true);
    expect(readTicketToken(SECRET, token)).toEqual({ bookingId: 'JB2ABC', generation: 1, attendee });
  });

  it('is never valid as a booking token, nor a booking token as an attendee one', () => {
    const att = signAttendeeTicketToken(SECRET, 'JB2ABC', 0, attendee);
    const booking = signTicketToken(SECRET, 'JB2ABC');
    const attSig = att.split('.')[1];
    const bookingSig = booking.split('.')[1];
    expect(readTicketToken(SECRET, `JB2ABC.${attSig}`)).toBeNull();
    expect(readTicketToken(SECRET, `JB2ABC+tt-gold+2.${bookingSig}`)).toBeNull();
    // What a verifier from before attendee tokens checks (the v2 text over the whole subject) fails too.
    const subject = att.split('.')[0]!;
    const publicKey = createPublicKey({
      key: Buffer.concat([
        Buffer.from('302a300506032b6570032100', 'hex'),
        Buffer.from(ticketPublicKey(SECRET), 'base64url'),
      ]),
      format: 'der',
      type: 'spki',
    });
    expect(verify(null, ed25519Message(subject), publicKey, Buffer.from(attSig!, 'base64url'))).toBe(false);
  });

  it('refuses another position, type or booking under the same signature', () => {
    const token = signAttendeeTicketToken(SECRET, 'JB2ABC', 0, attendee);
    const sig = token.split('.')[1];
    for (const subject of [
      'JB2ABC+tt-gold+3',
      'JB2ABC+tt-silver+2',
      'JB2ABD+tt-gold+2',
      'JB2ABC~1+tt-gold+2',
    ])
      expect(readTicketToken(SECRET, `${subject}.${sig}`), subject).toBeNull();
  });
});
