import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { copyMigratedTemplate } from './migrated-template.ts';

export interface ScratchDatabase {
  dataDir: string;
  /** The test's own connection. */
  database: DatabaseHandle;
  /** Another connection to the same file, as a second process would have; closed by `remove`. */
  connect: () => DatabaseHandle;
  remove: () => void;
}

/** A fresh, migrated SQLite file (a copy of the migrated template) in a temporary data folder, removed with every connection to it. */
export function scratchDatabase(prefix = 'jalsa-scratch-'): ScratchDatabase {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  copyMigratedTemplate(databaseFile(dataDir));
  const database = openDatabase(databaseFile(dataDir));
  const others: DatabaseHandle[] = [];
  return {
    dataDir,
    database,
    connect: () => {
      const other = openDatabase(databaseFile(dataDir));
      others.push(other);
      return other;
    },
    remove: () => {
      for (const handle of [...others, database]) {
        if (handle.sqlite.open) {
          if (handle.sqlite.inTransaction) handle.sqlite.exec('ROLLBACK');
          handle.close();
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
