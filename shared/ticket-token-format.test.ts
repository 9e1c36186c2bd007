import { describe, expect, it } from 'vitest';
import {
  attendeeTicketSignedText,
  gateTicketId,
  parseTicketToken,
  signedTextOf,
  splitGateTicketId,
  ticketSignedText,
} from './ticket-token-format.ts';

const ED = `${'A'.repeat(85)}w`;
const LEGACY = `${'b'.repeat(42)}_`;

describe('parseTicketToken', () => {
  it('reads an Ed25519 token: the booking, its generation and the signature', () => {
    expect(parseTicketToken(`JB2ABC.${ED}`)).toEqual({
      subject: 'JB2ABC',
      bookingId: 'JB2ABC',
      generation: 0,
      signature: ED,
      kind: 'ed25519',
    });
    expect(parseTicketToken(`JB2ABC~3.${ED}`)).toMatchObject({
      subject: 'JB2ABC~3',
      bookingId: 'JB2ABC',
      generation: 3,
    });
  });

  it('reads a first-release token as the booking id itself, generation 0', () => {
    expect(parseTicketToken(`bk_old.${LEGACY}`)).toEqual({
      subject: 'bk_old',
      bookingId: 'bk_old',
      generation: 0,
      signature: LEGACY,
      kind: 'legacy',
    });
  });

  it('splits at the last dot, so a booking id may hold dots', () => {
    expect(parseTicketToken(`a.b.${ED}`)?.bookingId).toBe('a.b');
  });

  it('refuses text that is not a token', () => {
    for (const bad of [
      '',
      '.',
      'bk_1',
      'bk_1.',
      `.${ED}`,
      'bk_1.abc',
      `bk_1.${ED}x`,
      `bk_1.${ED.slice(1)}+`,
    ]) {
      expect(parseTicketToken(bad), bad).toBeNull();
    }
  });
});

it('ticketSignedText is versioned, so a v2 signature is never valid for anything else', () => {
  expect(ticketSignedText('JB2ABC~1')).toBe('jalsa-ticket:v2:JB2ABC~1');
});

describe('per-attendee tokens (ADR 0046)', () => {
  it('reads the booking, its generation and the attendee from the subject', () => {
    expect(parseTicketToken(`JB2ABC~3+tt-gold+12.${ED}`)).toEqual({
      subject: 'JB2ABC~3+tt-gold+12',
      bookingId: 'JB2ABC',
      generation: 3,
      signature: ED,
      kind: 'ed25519',
      attendee: { ticketTypeId: 'tt-gold', position: 12 },
    });
  });

  it('reads no attendee from a position 0, a bad type id or a first-release token', () => {
    for (const subject of ['JB2ABC+tt-gold+0', 'JB2ABC+tt gold+1', 'JB2ABC+tt-gold+01', 'JB2ABC+tt-gold'])
      expect(parseTicketToken(`${subject}.${ED}`)?.attendee, subject).toBeUndefined();
    expect(parseTicketToken(`JB2ABC+tt-gold+1.${LEGACY}`)?.attendee).toBeUndefined();
  });

  it('signs attendee subjects under their own text', () => {
    expect(attendeeTicketSignedText('JB2ABC+tt+1')).toBe('jalsa-ticket:v3:attendee:JB2ABC+tt+1');
    expect(signedTextOf({ subject: 'JB2ABC', attendee: undefined })).toBe(ticketSignedText('JB2ABC'));
    expect(signedTextOf({ subject: 'JB2ABC+tt+1', attendee: { ticketTypeId: 'tt', position: 1 } })).toBe(
      attendeeTicketSignedText('JB2ABC+tt+1'),
    );
  });

  it('keys gate tickets per attendee and reads the key back', () => {
    const attendee = { ticketTypeId: 'tt-gold', position: 2 };
    expect(gateTicketId('JB2ABC')).toBe('JB2ABC');
    expect(gateTicketId('JB2ABC', attendee)).toBe('JB2ABC+tt-gold+2');
    expect(splitGateTicketId('JB2ABC+tt-gold+2')).toEqual({ bookingId: 'JB2ABC', attendee });
    expect(splitGateTicketId('JB2ABC')).toEqual({ bookingId: 'JB2ABC' });
  });
});
