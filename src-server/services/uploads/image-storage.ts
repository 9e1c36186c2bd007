/**
 * Where uploaded images are kept, by key (a file name such as `<hash>.600x800.webp`). Keys name their
 * content, so a stored image never changes: `put` of a key that exists may skip the write. Chosen in
 * compose-deps.ts (a DATA_DIR folder today; an S3-compatible bucket could implement the same three
 * calls, docs/decisions/0018-image-storage.md).
 */
export interface ImageStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when there is no such key. */
  get(key: string): Promise<Uint8Array<ArrayBuffer> | null>;
  exists(key: string): Promise<boolean>;
}
