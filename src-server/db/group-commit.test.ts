import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../test/helpers/scratch-database.ts';
import type { DatabaseHandle } from './client.ts';
import { GroupCommit } from './group-commit.ts';
import { writesAlongsideOtherProcesses } from './write-when-free.ts';

describe('GroupCommit', () => {
  let scratch: ScratchDatabase;
  let ours: DatabaseHandle;
  /** Another connection: it sees only what has been committed. */
  let reader: DatabaseHandle;
  let group: GroupCommit;

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-group-commit-');
    ours = scratch.database;
    reader = scratch.connect();
    ours.sqlite.exec('CREATE TABLE marks (n INTEGER NOT NULL UNIQUE)');
    group = new GroupCommit(ours.sqlite);
  });

  afterEach(() => scratch.remove());

  const committed = () => reader.sqlite.prepare('SELECT n FROM marks ORDER BY rowid').pluck().all();
  const insert = (n: number) => () => ours.sqlite.prepare('INSERT INTO marks (n) VALUES (?)').run(n).changes;

  it('commits the writes handed in together once, in arrival order, and answers each after the commit', async () => {
    const seenByOthers: unknown[][] = [];
    const writes = [1, 2, 3].map((n) =>
      group.write(() => {
        seenByOthers.push(committed());
        return insert(n)() * n;
      }),
    );
    // Nothing runs before the window closes.
    expect(committed()).toEqual([]);
    // The first caller hears back only once the whole group is committed.
    const seenByFirstCaller = writes[0]!.then(() => committed());

    expect(await Promise.all(writes)).toEqual([1, 2, 3]);
    expect(await seenByFirstCaller).toEqual([1, 2, 3]);
    // While the group ran, no write of it was visible elsewhere: one transaction, not three.
    expect(seenByOthers).toEqual([[], [], []]);
    expect(committed()).toEqual([1, 2, 3]);
  });

  it('fails only the write that failed; the others commit', async () => {
    const results = await Promise.allSettled([
      group.write(insert(1)),
      group.write(insert(1)), // UNIQUE
      group.write(insert(2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(committed()).toEqual([1, 2]);
  });

  it('undoes all of a failed transaction function (a savepoint in the group), and nothing else', async () => {
    const twoThenFail = ours.sqlite.transaction(() => {
      insert(20)();
      insert(21)();
      throw new Error('Sold Out');
    });
    const results = await Promise.allSettled([
      group.write(insert(1)),
      group.write(() => twoThenFail()),
      group.write(insert(2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'Sold Out' });
    expect(committed()).toEqual([1, 2]);
  });

  it('fails every write, and keeps none, when SQLite rolls the whole transaction back', async () => {
    // What SQLite does on a full disk or an I/O error mid-transaction, simulated.
    const diskFull = () => {
      ours.sqlite.exec('ROLLBACK');
      throw new Error('database or disk is full');
    };
    let ranAfter = false;
    const results = await Promise.allSettled([
      group.write(insert(1)),
      group.write(diskFull),
      group.write(() => {
        ranAfter = true;
        return insert(2)();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(ranAfter).toBe(false);
    expect(committed()).toEqual([]);
    // The connection is usable again afterwards.
    await group.write(insert(3));
    expect(committed()).toEqual([3]);
  });

  it('commits a full group without waiting for the window, and starts a new group after it', async () => {
    const slow = new GroupCommit(ours.sqlite, { windowMs: 60_000, maxWrites: 3 });
    const full = [1, 2, 3].map((n) => slow.write(insert(n)));
    await expect(Promise.all(full)).resolves.toEqual([1, 1, 1]);
    expect(committed()).toEqual([1, 2, 3]);

    const capped = new GroupCommit(ours.sqlite, { windowMs: 20, maxWrites: 2 });
    const seen: number[] = [];
    await Promise.all(
      [4, 5, 6].map((n) =>
        capped.write(() => {
          seen.push(committed().length);
          return insert(n)();
        }),
      ),
    );
    // 4 and 5 filled a group and committed together; 6 waited for the next one.
    expect(seen).toEqual([3, 3, 5]);
  });

  it('commits groups in the order they closed while the lock is held by another process', async () => {
    const holder = scratch.connect();
    writesAlongsideOtherProcesses(ours.sqlite);
    holder.sqlite.exec('BEGIN IMMEDIATE');
    const first = group.write(insert(1));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the first group is waiting for the lock
    const second = group.write(insert(2));
    await new Promise((resolve) => setTimeout(resolve, 20)); // and so is the second
    holder.sqlite.exec('COMMIT');
    await Promise.all([first, second]);
    expect(committed()).toEqual([1, 2]);
  });

  it('refuses a write handed in by another write, and a write that is not synchronous', async () => {
    let inner: Promise<unknown> | undefined;
    const outer = group.write(() => {
      inner = group.write(insert(9));
      return insert(1)();
    });
    const asynchronous = group.write(async () => insert(2)());
    await expect(outer).resolves.toBe(1);
    await expect(inner).rejects.toThrow('A grouped write cannot hand in another write');
    await expect(asynchronous).rejects.toThrow('A grouped write must be synchronous');
  });
});
