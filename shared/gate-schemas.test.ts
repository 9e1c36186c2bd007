import { describe, expect, it } from 'vitest';
import { GateUploadInput, MAX_SCANS_PER_TICKET, MAX_SCANS_PER_UPLOAD, uploadBatch } from './gate-schemas.ts';

const scan = (bookingId: string, i: number) => ({
  scanId: `scan-${bookingId}-${i}`,
  token: `${bookingId}~1.signature`,
  decision: 'refuse' as const,
  persons: 0,
  scannedAt: '2026-12-05T13:30:00.000Z',
});

describe('uploadBatch: what a device sends in one upload (issue 35)', () => {
  it('stops before a ticket’s scans would pass the per-ticket bound, so the upload is never refused', () => {
    const queue = [
      ...Array.from({ length: MAX_SCANS_PER_TICKET }, (_, i) => scan('A', i)),
      scan('B', 0),
      scan('A', 99),
      scan('C', 0),
    ];
    const batch = uploadBatch(queue);
    expect(batch).toEqual(queue.slice(0, MAX_SCANS_PER_TICKET + 1));
    const input = { slotId: 's', gate: 'North gate', deviceId: 'd' };
    expect(GateUploadInput.safeParse({ ...input, scans: batch }).success).toBe(true);
    // The whole queue is what the server refuses.
    expect(GateUploadInput.safeParse({ ...input, scans: queue }).error?.issues[0]?.message).toBe(
      `Send at most ${MAX_SCANS_PER_TICKET} scans of one ticket at once`,
    );
  });

  it('takes at most MAX_SCANS_PER_UPLOAD scans', () => {
    const queue = Array.from({ length: MAX_SCANS_PER_UPLOAD + 5 }, (_, i) => scan(`T${i}`, 0));
    expect(uploadBatch(queue)).toHaveLength(MAX_SCANS_PER_UPLOAD);
  });
});
