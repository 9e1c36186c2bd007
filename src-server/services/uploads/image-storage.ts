/**
 * Where uploaded images are kept, by key (a file name such as `<hash>.600x800.webp`). Keys name their
 * content, so a stored image never changes: `put` of a key that exists may skip the write. Chosen in
 * compose-deps.ts: a DATA_DIR folder by default, or an S3-compatible bucket every server shares
 * (docs/decisions/0018-image-storage.md, 0049-s3-image-storage.md).
 */
export interface ImageStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when there is no such key. */
  get(key: string): Promise<Uint8Array<ArrayBuffer> | null>;
  exists(key: string): Promise<boolean>;
}

/**
 * The store could not be reached, did not answer in time, or refused: the image routes answer 503 with
 * a message the editor shows, and the log gets this message (which names the store, never a secret).
 */
export class ImageStorageUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageStorageUnavailable';
  }
}

/** Keys are plain file names: no separators, no dots at the start, nothing a path could climb out by. */
const SAFE_KEY = /^[0-9A-Za-z][0-9A-Za-z._-]{0,199}$/;

export function requireImageKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`not an image key: ${key}`);
  return key;
}
