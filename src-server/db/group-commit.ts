import type Database from 'better-sqlite3';
import { oncePer } from './once-per.ts';
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
 * Each write must be synchronous, and one statement or one transaction function: nested in the
 * group's transaction, a better-sqlite3 transaction function becomes a savepoint, so a write that
 * fails undoes only itself and its caller gets the error, while the others still commit. A failed
 * COMMIT fails every write in the group, none of which is then in the database. Groups commit one
 * after another in the order they closed, also while one waits for another process's lock.
 *
 * The window is a real timer: a test with fake timers must advance them for a grouped write to finish.
 */
export class GroupCommit {
  #pending: Pending[] = [];
  #timer: NodeJS.Timeout | undefined;
  /** The last group's commit: the next one starts only once it has settled. */
  #committing: Promise<void> = Promise.resolve();
  #running = false;
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
    // A write handed in by another write would land in a later group: the two would not be atomic.
    if (this.#running) return Promise.reject(new Error('A grouped write cannot hand in another write'));
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.#pending.length === 1) {
        this.#timer = setTimeout(() => this.#close(), this.#windowMs);
      } else if (this.#pending.length === this.#maxWrites) {
        // A full group closes at once: a commit's pause stays short however large the rush.
        clearTimeout(this.#timer);
        this.#close();
      }
    });
  }

  #close(): void {
    const writes = this.#pending;
    this.#pending = [];
    this.#committing = this.#committing.then(() => this.#commit(writes));
  }

  async #commit(writes: Pending[]): Promise<void> {
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
    this.#running = true;
    try {
      for (const pending of writes) outcomes.push(this.#runOne(pending));
    } finally {
      this.#running = false;
    }
    return outcomes;
  }

  #runOne(pending: Pending): Outcome {
    try {
      const value = pending.write();
      if (typeof (value as { then?: unknown } | null)?.then === 'function') {
        return { ok: false, error: new TypeError('A grouped write must be synchronous') };
      }
      return { ok: true, value };
    } catch (error) {
      // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: then nothing of
      // the group is kept, and every caller must hear so rather than have later writes autocommit.
      if (!this.#sqlite.inTransaction) throw error;
      return { ok: false, error };
    }
  }
}

/** The connection's one group commit. */
export const groupCommitOf = oncePer((sqlite: Database.Database) => new GroupCommit(sqlite));
