import { randomBytes, randomFillSync } from 'node:crypto';

/** Random bytes drawn from the system's CSPRNG a block at a time (as Node's own `randomUUID` does). */
const BLOCK_BYTES = 4096;
const block = Buffer.alloc(BLOCK_BYTES);
let used = BLOCK_BYTES;

/**
 * `size` fresh random bytes, as unguessable as `randomBytes(size)`: every byte is handed out once, from
 * a block refilled by `randomFillSync` when spent. A call to `randomBytes` per id cost several µs on
 * Proceed's path (three per Proceed, issue 21); copying a few bytes out of a block costs almost none.
 * The caller owns the returned buffer.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > BLOCK_BYTES / 4) return randomBytes(size);
  if (used + size > BLOCK_BYTES) {
    randomFillSync(block);
    used = 0;
  }
  const bytes = Buffer.allocUnsafe(size);
  block.copy(bytes, 0, used, used + size);
  block.fill(0, used, used + size); // handed out: never kept where it could be read again
  used += size;
  return bytes;
}
