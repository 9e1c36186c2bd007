import { pooledRandomBytes } from '../pooled-random.ts';

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, then 74 random bits. Ids made
 * later sort after earlier ones, so the rows of a busy table and every index keyed by the id are
 * appended at the end of their B-trees instead of landing on a random page: in a rush, the pages a
 * checkpoint copies back from the WAL stay few (docs/benchmarks.md). Still unguessable.
 */
export function timeOrderedUuid(now: number = Date.now()): string {
  const bytes = pooledRandomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
