import { z } from 'zod';

/**
 * Uploaded event images (docs/decisions/0018-image-storage.md): what kinds there are, the sizes the
 * pages show them at, and the URLs this installation gives them. The server makes every size from one
 * upload; a size is part of the file's name, so the URL of one size names the others.
 */
export const IMAGE_KINDS = ['poster', 'banner', 'artist'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The sizes made of each kind, the first being the one saved on the event:
 * - poster: the event card (600 × 800, shown at most ≈ 300 px wide, so sharp on a 2× phone) and a
 *   large one for link previews;
 * - banner: the event page's wide picture (shown 2:1 on a phone, 12:5 up to 1152 px on a desktop);
 * - artist: the round photo in the line-up (96 px, 3× on a phone).
 */
export const IMAGE_SIZES = {
  poster: [
    { width: 600, height: 800 },
    { width: 1200, height: 1600 },
  ],
  banner: [{ width: 1200, height: 600 }],
  artist: [{ width: 300, height: 300 }],
} as const satisfies Record<ImageKind, readonly ImageSize[]>;

/** Smallest picture accepted of each kind: half the saved size each way (it is enlarged to fit). */
export const MIN_IMAGE_SIZE: Record<ImageKind, ImageSize> = {
  poster: { width: 300, height: 400 },
  banner: { width: 600, height: 300 },
  artist: { width: 150, height: 150 },
};

export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Largest picture decoded (width × height): a 50-megapixel photo, far above any phone's usual one. */
export const MAX_UPLOAD_PIXELS = 50_000_000;
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const IMAGE_MESSAGES = {
  tooLarge: 'This image is larger than 8 MB. Please choose a smaller one.',
  notAnImage: 'Please choose a JPEG, PNG or WebP image.',
  unreadable: 'This image could not be read. Please choose another JPEG, PNG or WebP file.',
  tooManyPixels: 'This image has too many pixels (50 megapixels at most). Please choose a smaller one.',
  tooSmall: (kind: ImageKind) => {
    const min = MIN_IMAGE_SIZE[kind];
    return `This image is too small: a ${KIND_LABELS[kind].toLowerCase()} needs at least ${min.width} × ${min.height} pixels.`;
  },
  kindInvalid: 'Unknown image kind',
  tooMany: 'Too many uploads. Please wait a while and try again.',
  storageUnavailable: 'Images cannot be stored or shown right now. Please try again in a few minutes.',
  notOurs: 'Please upload the image here.',
  posterMissing: 'Add a poster image.',
} as const;

export const KIND_LABELS: Record<ImageKind, string> = {
  poster: 'Poster',
  banner: 'Banner',
  artist: 'Artist photo',
};

export const sizeName = (size: ImageSize) => `${size.width}x${size.height}`;

/** The names of every size made, e.g. '600x800'. */
const SIZE_NAMES = [...new Set(Object.values(IMAGE_SIZES).flatMap((sizes) => sizes.map(sizeName)))];

/** An uploaded file's name: 32 hex digits of the upload's SHA-256, its size, `.webp`. */
export const UPLOAD_FILE_PATTERN = new RegExp(`^([0-9a-f]{32})\\.(${SIZE_NAMES.join('|')})\\.webp$`);

export const uploadUrl = (hash: string, size: ImageSize) => `/uploads/${hash}.${sizeName(size)}.webp`;

/** The URL of another size made from the same upload as `url`; other URLs (demo pictures) as they are. */
export function otherSizeOf(url: string, size: ImageSize): string {
  const match = /^\/uploads\/([0-9a-f]{32})\.\d+x\d+\.webp$/.exec(url);
  return match ? uploadUrl(match[1]!, size) : url;
}

/**
 * A picture URL an event may carry for `kind`: one this installation made by an upload, in the size
 * saved for that kind, or one of the demo catalogue's own pictures (served from public/images).
 */
export function eventImageUrl(kind: ImageKind) {
  const saved = sizeName(IMAGE_SIZES[kind][0]);
  const uploaded = new RegExp(`^/uploads/[0-9a-f]{32}\\.${saved}\\.webp$`);
  const demo =
    kind === 'artist' ? /^\/images\/artists\/[a-z0-9-]+\.webp$/ : /^\/images\/events\/[a-z0-9-]+\.webp$/;
  return z
    .string()
    .max(200, IMAGE_MESSAGES.notOurs)
    .refine((url) => uploaded.test(url) || demo.test(url), IMAGE_MESSAGES.notOurs);
}

/** What the upload route answers: the URL to save on the event, and every size made. */
export interface UploadedImage {
  url: string;
  sizes: { url: string; width: number; height: number }[];
}
