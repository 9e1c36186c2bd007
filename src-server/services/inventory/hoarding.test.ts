import { describe, expect, it } from 'vitest';
import { coolDownEndsAt, HOLD_COOL_DOWN_MS, slotSharesOf } from './hoarding.ts';
import { PAYMENT_SESSION_MS } from './payment-session.ts';

describe('coolDownEndsAt', () => {
  const end = Date.parse('2026-11-21T06:35:00.000Z');
  const start = end - PAYMENT_SESSION_MS;
  const sessionExpiresAt = new Date(end).toISOString();
  const releasedAt = (ms: number) => ({
    status: 'released',
    sessionExpiresAt,
    endedAt: new Date(ms).toISOString(),
  });

  it('is the full ten minutes after the end for a session that ran out, held or released late', () => {
    expect(coolDownEndsAt({ status: 'active', sessionExpiresAt, endedAt: null })).toBe(
      end + HOLD_COOL_DOWN_MS,
    );
    expect(coolDownEndsAt(releasedAt(end + 120_000))).toBe(end + HOLD_COOL_DOWN_MS);
  });

  it('is nothing for a window closed at once, and grows with the share of the session held', () => {
    expect(coolDownEndsAt(releasedAt(start))).toBe(start);
    expect(coolDownEndsAt(releasedAt(start + PAYMENT_SESSION_MS / 2))).toBe(
      start + PAYMENT_SESSION_MS / 2 + HOLD_COOL_DOWN_MS / 2,
    );
  });

  it('has no edge to release just before: a second earlier ends the wait only about three seconds sooner', () => {
    const atEnd = coolDownEndsAt(releasedAt(end));
    const justBefore = coolDownEndsAt(releasedAt(end - 1_000));
    expect(atEnd - justBefore).toBe(1_000 + HOLD_COOL_DOWN_MS / (PAYMENT_SESSION_MS / 1_000));
  });
});

describe('slotSharesOf', () => {
  it('is a tenth of the slot per account and a quarter per address, rounded up', () => {
    expect(slotSharesOf(400, 10)).toEqual({ perAccount: 40, perAddress: 100 });
    expect(slotSharesOf(101, 4)).toEqual({ perAccount: 11, perAddress: 26 });
  });

  it('is never less than one full order of the slot’s most generous type', () => {
    expect(slotSharesOf(40, 10)).toEqual({ perAccount: 10, perAddress: 10 });
    expect(slotSharesOf(5, 10)).toEqual({ perAccount: 10, perAddress: 10 });
  });
});
