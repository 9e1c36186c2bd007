import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from './client.ts';

describe('compiled statement reuse', () => {
  afterEach(() => vi.restoreAllMocks());

  it('compiles each SQL text once, however often it is prepared', () => {
    const compile = vi.spyOn(Database.prototype, 'prepare');
    const { sqlite, close } = openDatabase(':memory:');
    try {
      const compiledBefore = compile.mock.calls.length;
      for (let i = 0; i < 3; i += 1) sqlite.prepare('select 1 as one').get();
      sqlite.prepare('select 2 as two').get();
      expect(compile.mock.calls.slice(compiledBefore).map(([source]) => source)).toEqual([
        'select 1 as one',
        'select 2 as two',
      ]);
    } finally {
      close();
    }
  });

  it('gives every caller a statement in the default row mode, whatever an earlier caller set', () => {
    const { sqlite, close } = openDatabase(':memory:');
    try {
      expect(sqlite.prepare('select 1 as one').raw().get()).toEqual([1]);
      expect(sqlite.prepare('select 1 as one').get()).toEqual({ one: 1 });
      expect(sqlite.prepare('select 1 as one').pluck().get()).toBe(1);
      expect(sqlite.prepare('select 1 as one').all()).toEqual([{ one: 1 }]);
    } finally {
      close();
    }
  });
});
