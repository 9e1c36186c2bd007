import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signTicketToken, verifyTicketToken } from './ticket-token.ts';

const SECRET = 'unit-secret-0123456789abcdef0123456789';

describe('ticket tokens', () => {
  it('round-trips any booking id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (bookingId) => {
        expect(verifyTicketToken(SECRET, signTicketToken(SECRET, bookingId))).toBe(bookingId);
      }),
    );
  });

  it('refuses a token with any single character changed', () => {
    const token = signTicketToken(SECRET, 'bk_3f9a1c');
    for (let i = 0; i < token.length; i++) {
      const replacement = token[i] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, i) + replacement + token.slice(i + 1);
      expect(verifyTicketToken(SECRET, altered), `changed at ${i}`).toBeNull();
    }
  });

  it('refuses a token signed with another secret, and malformed text', () => {
    const other = signTicketToken('another-secret-0123456789abcdef012345', 'bk_1');
    expect(verifyTicketToken(SECRET, other)).toBeNull();
    for (const bad of ['', '.', 'bk_1', 'bk_1.', '.abc', 'bk_1.abc'])
      expect(verifyTicketToken(SECRET, bad)).toBeNull();
  });
});
