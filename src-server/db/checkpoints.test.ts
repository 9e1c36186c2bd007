import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../test/helpers/scratch-database.ts';
import { AUTOCHECKPOINT_PAGES, checkpointOffTheRequestPath } from './checkpoints.ts';
import { databaseFile } from './client.ts';

describe('checkpoints off the request path', () => {
  let scratch: ScratchDatabase;
  let stop: (() => void) | undefined;
  beforeEach(() => {
    scratch = scratchDatabase('jalsa-checkpoints-');
  });
  afterEach(() => {
    stop?.();
    scratch.remove();
  });

  const file = () => databaseFile(scratch.dataDir);
  const walPages = () =>
    (scratch.database.sqlite.pragma('wal_autocheckpoint') as { wal_autocheckpoint: number }[])[0]!
      .wal_autocheckpoint;
  /** Writes a few hundred pages, far fewer than the in-line checkpoint's threshold. */
  const write = () => {
    const { sqlite } = scratch.database;
    sqlite.exec('create table filler (body text)');
    const insert = sqlite.prepare('insert into filler (body) values (?)');
    sqlite.transaction(() => {
      for (let i = 0; i < 300; i++) insert.run('x'.repeat(4000));
    })();
  };

  it('leaves commits in the WAL, then copies them into the database file on its timer', async () => {
    stop = checkpointOffTheRequestPath(scratch.database.sqlite, 50);
    expect(walPages()).toBe(AUTOCHECKPOINT_PAGES);
    const before = statSync(file()).size;
    write();
    // The commit did not checkpoint in line: the new pages are only in the WAL.
    expect(statSync(file()).size).toBe(before);
    await expect
      .poll(() => statSync(file()).size, { timeout: 5_000, interval: 20 })
      .toBeGreaterThan(before + 300 * 4000);
  });

  it('stops: after the stop no checkpoint runs', async () => {
    stop = checkpointOffTheRequestPath(scratch.database.sqlite, 20);
    stop();
    const before = statSync(file()).size;
    write();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statSync(file()).size).toBe(before);
  });
});
