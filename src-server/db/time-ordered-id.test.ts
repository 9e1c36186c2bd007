import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from './time-ordered-id.ts';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID with the RFC 9562 variant', () => {
    const id = timeOrderedUuid();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('starts with the time in milliseconds, so later ids sort after earlier ones', () => {
    const at = Date.UTC(2026, 10, 21, 18, 30);
    expect(timeOrderedUuid(at).replaceAll('-', '').slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    const ids = [at, at + 1, at + 1_000, at + 86_400_000].map((t) => timeOrderedUuid(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs within the same millisecond', () => {
    const at = Date.now();
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(at))).size).toBe(1000);
  });
});
