import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../test/helpers/scratch-database.ts';
import type { DatabaseHandle } from './client.ts';
import { writesAlongsideOtherProcesses, writeWhenFree } from './write-when-free.ts';

// Two connections on one file stand for two server processes: SQLite's locks are per connection.
describe('writeWhenFree', () => {
  let scratch: ScratchDatabase;
  let other: DatabaseHandle;
  let ours: DatabaseHandle;
  /** openDatabase's busy time-out. */
  let usualTimeoutMs: number;

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-write-lock-');
    other = scratch.database;
    ours = scratch.connect();
    ours.sqlite.exec('CREATE TABLE marks (n INTEGER NOT NULL)');
    writesAlongsideOtherProcesses(ours.sqlite);
    usualTimeoutMs = ours.sqlite.pragma('busy_timeout', { simple: true }) as number;
  });

  afterEach(() => scratch.remove());

  const insertMark = (n: number) => () => ours.sqlite.prepare('INSERT INTO marks (n) VALUES (?)').run(n);
  const marks = () => ours.sqlite.prepare('SELECT n FROM marks ORDER BY rowid').pluck().all();

  it('waits for a lock held elsewhere without stopping the event loop, then writes', async () => {
    other.sqlite.exec('BEGIN IMMEDIATE');
    other.sqlite.prepare('INSERT INTO marks (n) VALUES (1)').run();
    // The holder commits from a timer: it can only run if the waiting write gives the loop back (a
    // write waiting in SQLite's busy handler would block this thread until its time-out, then fail).
    let ticksWhileWaiting = 0;
    const ticker = setInterval(() => {
      ticksWhileWaiting += 1;
    }, 1);
    setTimeout(() => other.sqlite.exec('COMMIT'), 30);

    const started = Date.now();
    await writeWhenFree(ours.sqlite, insertMark(2));
    clearInterval(ticker);

    expect(marks()).toEqual([1, 2]);
    expect(ticksWhileWaiting).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(usualTimeoutMs);
  });

  it('writes at once when the lock is free, and keeps the usual busy time-out for other writes', async () => {
    await writeWhenFree(ours.sqlite, insertMark(7));
    expect(marks()).toEqual([7]);
    expect(ours.sqlite.pragma('busy_timeout', { simple: true })).toBe(usualTimeoutMs);
  });

  it('passes other errors straight on, without trying again, and still restores the time-out', async () => {
    let attempts = 0;
    const failing = () => {
      attempts += 1;
      return ours.sqlite.prepare('INSERT INTO marks (n) VALUES (NULL)').run();
    };
    await expect(writeWhenFree(ours.sqlite, failing)).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT_NOTNULL',
    });
    expect(attempts).toBe(1);
    expect(ours.sqlite.pragma('busy_timeout', { simple: true })).toBe(usualTimeoutMs);
  });

  it('gives up like SQLite does when the lock is never freed', async () => {
    other.sqlite.exec('BEGIN IMMEDIATE');
    // A short time-out of the connection's own keeps the test short: retries for 50 ms, then one
    // last attempt that waits 50 ms in SQLite's busy handler.
    ours.sqlite.pragma('busy_timeout = 50');
    const started = Date.now();
    await expect(writeWhenFree(ours.sqlite, insertMark(3))).rejects.toMatchObject({
      code: 'SQLITE_BUSY',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(marks()).toEqual([]);
    expect(ours.sqlite.pragma('busy_timeout', { simple: true })).toBe(50);
  });

  it('is the plain write on a connection no other server process shares', async () => {
    const alone = scratch.connect();
    other.sqlite.exec('BEGIN IMMEDIATE');
    alone.sqlite.pragma('busy_timeout = 0');
    let attempts = 0;
    const write = () => {
      attempts += 1;
      return alone.sqlite.prepare('INSERT INTO marks (n) VALUES (4)').run();
    };
    await expect(writeWhenFree(alone.sqlite, write)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(attempts).toBe(1);
  });
});
