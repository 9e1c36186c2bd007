import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../../test/helpers/scratch-database.ts';
import type { Db, DbOrTx } from '../client.ts';
import { users } from '../schema/accounts.ts';
import { writeTransaction } from '../write-transaction.ts';
import { changes, row, runSync, type Steps, savepoint } from './steps.ts';

// `savepoint(tx, steps)` on SQLite's driver: a nested SAVEPOINT inside the running synchronous
// transaction (PostgreSQL's is proved by test/integration/engine-confirm.test.ts).
describe('savepoint on SQLite', () => {
  let scratch: ScratchDatabase;
  let db: Db;
  const at = new Date().toISOString();

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-steps-');
    db = scratch.database.db;
    db.insert(users)
      .values({ id: 'u1', email: 'a@example.com', name: 'A', createdAt: at, updatedAt: at })
      .run();
  });
  afterEach(() => scratch.remove());

  const rename = (tx: DbOrTx, name: string) =>
    changes(tx.update(users).set({ name }).where(eq(users.id, 'u1')));
  const nameOf = (tx: DbOrTx) => row(tx.select({ name: users.name }).from(users).where(eq(users.id, 'u1')));
  const duplicate = (tx: DbOrTx) =>
    changes(
      tx.insert(users).values({ id: 'u1', email: 'b@example.com', name: 'B', createdAt: at, updatedAt: at }),
    );

  it('undoes the writes of steps that throw, hands the error to the caller, and the transaction goes on', async () => {
    const seen = await writeTransaction(db, (tx) =>
      runSync(
        (function* (): Steps<{ error: string; inside: string | null | undefined }> {
          yield* rename(tx, 'Before');
          let error = '';
          try {
            yield* savepoint(
              tx,
              (function* () {
                yield* rename(tx, 'Inside');
                yield* duplicate(tx);
              })(),
            );
          } catch (err) {
            error = String(err);
          }
          const inside = (yield* nameOf(tx))?.name;
          yield* changes(
            tx
              .insert(users)
              .values({ id: 'u2', email: 'c@example.com', name: 'C', createdAt: at, updatedAt: at }),
          );
          return { error, inside };
        })(),
      ),
    );
    expect(seen.error).toMatch(/UNIQUE/);
    // The savepoint's rename is undone, the write before it stands, and the transaction committed.
    expect(seen.inside).toBe('Before');
    expect(db.select({ id: users.id, name: users.name }).from(users).all()).toEqual([
      { id: 'u1', name: 'Before' },
      { id: 'u2', name: 'C' },
    ]);
  });

  it("keeps the steps' writes and returns their result when they succeed; nested savepoints unwind alone", async () => {
    const result = await writeTransaction(db, (tx) =>
      runSync(
        savepoint(
          tx,
          (function* () {
            yield* rename(tx, 'Outer');
            try {
              yield* savepoint(
                tx,
                (function* () {
                  yield* rename(tx, 'Inner');
                  throw new Error('refused');
                })(),
              );
            } catch {
              // The inner savepoint alone is rolled back.
            }
            return (yield* nameOf(tx))?.name;
          })(),
        ),
      ),
    );
    expect(result).toBe('Outer');
    expect(db.select({ name: users.name }).from(users).where(eq(users.id, 'u1')).get()?.name).toBe('Outer');
  });
});
