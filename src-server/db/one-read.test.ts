import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../test/helpers/scratch-database.ts';
import type { DatabaseHandle } from './client.ts';
import { inOneRead } from './one-read.ts';

// A second connection on the same file stands for another request's write landing between two reads.
describe('inOneRead', () => {
  let scratch: ScratchDatabase;
  let ours: DatabaseHandle;
  let other: DatabaseHandle;

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-one-read-');
    ours = scratch.database;
    other = scratch.connect();
    ours.sqlite.exec('create table counted (n integer)');
    ours.sqlite.exec('insert into counted values (1), (2)');
  });

  afterEach(() => scratch.remove());

  const count = () => ours.sqlite.prepare('select count(*) from counted').pluck().get() as number;
  const otherWrites = () => other.sqlite.prepare('insert into counted values (3)').run();

  it('reads one snapshot: a write committed between its reads is not seen until it ends', () => {
    const [before, after] = inOneRead(ours.db, () => {
      const first = count();
      otherWrites();
      return [first, count()];
    });
    expect([before, after]).toEqual([2, 2]);
    expect(count()).toBe(3);
    expect(ours.sqlite.inTransaction).toBe(false);
  });

  it('without it, the same two reads disagree (what it prevents)', () => {
    const first = count();
    otherWrites();
    expect([first, count()]).toEqual([2, 3]);
  });

  it('joins a transaction already open instead of nesting one, and ends on an error', () => {
    ours.sqlite.exec('begin');
    expect(inOneRead(ours.db, () => ours.sqlite.inTransaction)).toBe(true);
    ours.sqlite.exec('commit');
    expect(() =>
      inOneRead(ours.db, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(ours.sqlite.inTransaction).toBe(false);
  });
});
