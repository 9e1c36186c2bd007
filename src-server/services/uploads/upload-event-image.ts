import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import {
  IMAGE_MESSAGES,
  IMAGE_SIZES,
  type ImageKind,
  MAX_UPLOAD_PIXELS,
  MIN_IMAGE_SIZE,
  sizeName,
  type UploadedImage,
  uploadUrl,
} from '../../../shared/event-images.ts';
import { badRequest } from '../../errors.ts';
import type { ImageStorage } from './image-storage.ts';

type Format = 'jpeg' | 'png' | 'webp';

/**
 * Turns an uploaded picture into the sizes the pages show (shared/event-images.ts), as WebP, and keeps
 * them in `storage`. The file is judged by its content only: its first bytes must be a JPEG, PNG or
 * WebP signature before any decoder sees it (an SVG or GIF never reaches librsvg or giflib), and sharp
 * must read the same format from it. Pictures of more than MAX_UPLOAD_PIXELS are refused from their
 * header, before decoding. The outputs carry no metadata (sharp's default: no EXIF, no GPS position)
 * and are turned upright by the EXIF orientation first.
 *
 * Files are named by the upload's SHA-256 and size: the same picture uploaded again is found stored
 * and not encoded twice.
 */
export async function uploadEventImage(
  storage: ImageStorage,
  kind: ImageKind,
  bytes: Uint8Array,
): Promise<UploadedImage> {
  return inTurn(() => processUpload(storage, kind, bytes));
}

async function processUpload(
  storage: ImageStorage,
  kind: ImageKind,
  bytes: Uint8Array,
): Promise<UploadedImage> {
  const format = sniffFormat(bytes);
  if (!format) throw badRequest(IMAGE_MESSAGES.notAnImage);
  const options = { limitInputPixels: MAX_UPLOAD_PIXELS, autoOrient: true, failOn: 'error' } as const;
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(IMAGE_MESSAGES.unreadable);
  }
  if (metadata.format !== format) throw badRequest(IMAGE_MESSAGES.notAnImage);
  if (metadata.width * metadata.height > MAX_UPLOAD_PIXELS) throw badRequest(IMAGE_MESSAGES.tooManyPixels);
  const upright = metadata.autoOrient ?? metadata;
  const min = MIN_IMAGE_SIZE[kind];
  if (upright.width < min.width || upright.height < min.height)
    throw badRequest(IMAGE_MESSAGES.tooSmall(kind));

  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  const sizes = IMAGE_SIZES[kind];
  for (const size of sizes) {
    const key = `${hash}.${sizeName(size)}.webp`;
    if (await storage.exists(key)) continue;
    let output: Buffer;
    try {
      output = await sharp(bytes, options)
        .resize(size.width, size.height, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80, effort: 4 })
        .toBuffer();
    } catch {
      throw badRequest(IMAGE_MESSAGES.unreadable);
    }
    await storage.put(key, output);
  }
  return {
    url: uploadUrl(hash, sizes[0]),
    sizes: sizes.map((size) => ({ url: uploadUrl(hash, size), ...size })),
  };
}

/**
 * At most two pictures are decoded at once in this process: a 50-megapixel photo takes a few hundred MB
 * while it is resized, and the thread pool they share also serves file and crypto work for buyers.
 * Others wait their turn (the 8 MB body already read), in arrival order.
 */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** The format the file's signature announces, if it is one we accept. */
function sniffFormat(bytes: Uint8Array): Format | null {
  const starts = (offset: number, ...expected: number[]) =>
    expected.every((byte, i) => bytes[offset + i] === byte);
  if (starts(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  // RIFF....WEBP
  if (starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  return null;
}
