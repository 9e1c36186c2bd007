import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ImageStorage, requireImageKey } from './image-storage.ts';

/**
 * Images as files in one folder (`DATA_DIR/uploads`). A write goes to a temporary name first and is
 * renamed into place, so a reader (or a crash) never sees half a file under its real name.
 */
export function createDiskImageStorage(folder: string): ImageStorage {
  const fileOf = (key: string) => path.join(folder, requireImageKey(key));
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(folder, { recursive: true });
      const temporary = path.join(folder, `.${randomUUID()}.tmp`);
      try {
        await writeFile(temporary, bytes, { mode: 0o644 });
        await rename(temporary, file);
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}
