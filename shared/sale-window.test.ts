import { describe, expect, it } from 'vitest';
import { saleWindowMessage, saleWindowState } from './sale-window.ts';

const at = new Date('2026-11-21T06:30:00.000Z');

describe('sale windows', () => {
  it('is open with no limits, and inside its limits', () => {
    expect(saleWindowState({ saleOpensAt: null, saleClosesAt: null }, at)).toBe('open');
    expect(
      saleWindowMessage(
        { saleOpensAt: '2026-11-21T06:30:00.000Z', saleClosesAt: '2026-11-21T06:30:00.001Z' },
        at,
      ),
    ).toBeNull();
  });

  it('says when a sale opens, in India time', () => {
    expect(saleWindowMessage({ saleOpensAt: '2026-11-21T13:30:00.000Z', saleClosesAt: null }, at)).toBe(
      'Sale opens 21 Nov 2026, 7:00 PM',
    );
  });

  it('is closed from the closing instant on', () => {
    expect(saleWindowMessage({ saleOpensAt: null, saleClosesAt: '2026-11-21T06:30:00.000Z' }, at)).toBe(
      'Sales closed',
    );
  });
});
