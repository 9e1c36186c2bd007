import { describe, expect, it } from 'vitest';
import { parseTicketToken, ticketSignedText } from './ticket-token-format.ts';

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
