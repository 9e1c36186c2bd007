import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from './pooled-random.ts';

describe('pooledRandomBytes', () => {
  it('gives the size asked for, in buffers the caller owns', () => {
    const a = pooledRandomBytes(16);
    const b = pooledRandomBytes(16);
    expect(a).toHaveLength(16);
    const before = Buffer.from(b);
    a.fill(0xff);
    expect(b.equals(before)).toBe(true);
  });

  it('never hands out the same bytes twice, across many refills of its block', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i += 1) seen.add(pooledRandomBytes(10).toString('hex'));
    expect(seen.size).toBe(5_000);
  });

  it('looks uniformly random: every byte value turns up, none far too often', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2_000; i += 1) for (const byte of pooledRandomBytes(16)) counts[byte]! += 1;
    // 32,000 bytes: 125 expected per value; a broken pool (zeros, a repeated block) fails by far.
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(220);
  });

  it('serves sizes larger than a quarter block straight from the CSPRNG', () => {
    const big = pooledRandomBytes(2048);
    expect(big).toHaveLength(2048);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});
