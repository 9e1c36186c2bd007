import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/client.ts';
import { contactMessages } from '../../src-server/db/schema/contact.ts';

describe('npm run db:backup', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('copies a live database, including commits still in the WAL, into a file that passes integrity_check', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-backup-'));
    dirs.push(dataDir);
    // The live handle stays open (as the server's would) and its commits are only in the WAL.
    const live = openDatabase(path.join(dataDir, 'jalsa.db'));
    live.sqlite.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 25; i++) {
      live.db
        .insert(contactMessages)
        .values({
          firstName: `F${i}`,
          lastName: 'L',
          email: 'a@b.in',
          mobile: '9876543210',
          message: 'hi',
          createdAt: '2026-11-21T00:00:00Z',
        })
        .run();
    }
    const target = path.join(dataDir, 'copy.db');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', target], {
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    live.close();

    const copy = new Database(target, { readonly: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select count(*) as n from contact_messages').get()).toEqual({ n: 25 });
    copy.close();
  });
});
