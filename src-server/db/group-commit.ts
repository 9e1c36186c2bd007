import type Database from 'better-sqlite3';
import { writeWhenFree } from './write-when-free.ts';

/** A write to commit with others: one statement, or one transaction function (nested, a savepoint). */
type Write<T> = () => T;

interface Pending {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for the writes of a rush: the writes handed in within a short window (2 ms from the
 * first) run, in arrival order, inside a single BEGIN IMMEDIATE … COMMIT, and each caller hears of its
 * own write only once that commit is done. One commit per buyer wrote the same table and index pages
 * to the WAL again and again (16–17 frames per Proceed), and the automatic checkpoints those frames
 * caused stalled every buyer in line; committing a few buyers' writes together writes each page once
 * (docs/benchmarks.md). Durability is unchanged: no answer goes out before its commit. A buyer alone
 * waits the window, a few milliseconds beside the gateway's own round trip.
 *
 * Each write must be one statement or one transaction function: nested in the group's transaction, a
 * better-sqlite3 transaction function becomes a savepoint, so a write that fails undoes only itself
 * and its caller gets the error, while the others still commit. A failed COMMIT fails every write in
 * the group, none of which is then in the database.
 */
export class GroupCommit {
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #sqlite: Database.Database;
  readonly #runAll: Database.Transaction<(writes: Pending[]) => Outcome[]>;
  readonly #windowMs: number;
  readonly #maxWrites: number;

  constructor(sqlite: Database.Database, options: { windowMs?: number; maxWrites?: number } = {}) {
    this.#sqlite = sqlite;
    this.#runAll = sqlite.transaction((writes: Pending[]) => this.#runInOrder(writes));
    this.#windowMs = options.windowMs ?? 2;
    this.#maxWrites = options.maxWrites ?? 64;
  }

  write<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.#pending.length === 1) {
        this.#timer = setTimeout(() => void this.#commit(), this.#windowMs);
      } else if (this.#pending.length === this.#maxWrites) {
        // A full group goes on the loop's next turn, not at the end of the window: a commit's pause
        // stays short however large the rush.
        clearTimeout(this.#timer);
        setImmediate(() => void this.#commit());
      }
    });
  }

  async #commit(): Promise<void> {
    const writes = this.#pending;
    this.#pending = [];
    let outcomes: Outcome[];
    try {
      outcomes = await writeWhenFree(this.#sqlite, () => this.#runAll.immediate(writes));
    } catch (err) {
      for (const pending of writes) pending.reject(err);
      return;
    }
    outcomes.forEach((outcome, i) => {
      const pending = writes[i]!;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  #runInOrder(writes: Pending[]): Outcome[] {
    const outcomes: Outcome[] = [];
    for (const pending of writes) {
      try {
        outcomes.push({ ok: true, value: pending.write() });
      } catch (error) {
        // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: then nothing of
        // the group is kept, and every caller must hear so rather than have later writes autocommit.
        if (!this.#sqlite.inTransaction) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}

const groups = new WeakMap<Database.Database, GroupCommit>();

/** The connection's one group commit. */
export function groupCommitOf(sqlite: Database.Database): GroupCommit {
  let group = groups.get(sqlite);
  if (!group) {
    group = new GroupCommit(sqlite);
    groups.set(sqlite, group);
  }
  return group;
}
