import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { TestApp } from './test-app.ts';

/**
 * A real picture made by sharp: a gradient-free noise-less block of colour with a darker stripe along
 * its top, so a test can tell after auto-rotation which edge was the top.
 */
export async function makeImage(
  format: 'jpeg' | 'png' | 'webp' | 'gif',
  width: number,
  height: number,
  options: { orientation?: number } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const stripe = await sharp({
    create: { width, height: Math.max(1, Math.round(height / 10)), channels: 3, background: '#111111' },
  })
    .png()
    .toBuffer();
  let image = sharp({ create: { width, height, channels: 3, background: '#e8c547' } }).composite([
    { input: stripe, top: 0, left: 0 },
  ]);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  const bytes = await image.toFormat(format).toBuffer();
  return new Uint8Array(bytes);
}

/**
 * A PNG whose header claims `width` × `height` pixels with next to no data: a decompression bomb as far
 * as anything that trusts the header and starts decoding is concerned. A few KB, whatever it claims.
 */
export function pixelBombPng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  // A few rows of zeros; the rest of the claimed picture is missing.
  const rows = deflateSync(Buffer.alloc((width * 3 + 1) * 4));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', rows),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** Posts a picture to the editor's upload route as the browser does (same-origin Origin, cookie). */
export async function uploadImage(
  t: TestApp,
  eventId: string,
  kind: string,
  body: BodyInit | undefined,
  options: { cookie?: string; origin?: string | null } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin !== null) headers.origin = options.origin ?? 'http://localhost';
  const res = await t.request(`/api/organiser/events/${encodeURIComponent(eventId)}/images?kind=${kind}`, {
    method: 'POST',
    headers,
    body,
  });
  const json = (await res.json()) as {
    url?: string;
    sizes?: { url: string; width: number; height: number }[];
    error?: { message: string };
  };
  return { status: res.status, body: json };
}
