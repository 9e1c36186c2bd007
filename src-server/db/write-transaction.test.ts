import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScratchDatabase, scratchDatabase } from '../../test/helpers/scratch-database.ts';
import type { DatabaseHandle } from './client.ts';
import { users } from './schema/accounts.ts';
import { writeTransaction } from './write-transaction.ts';
import { writesAlongsideOtherProcesses } from './write-when-free.ts';

// Two connections on one file stand for two server processes: SQLite's locks are per connection.
describe('writeTransaction', () => {
  let scratch: ScratchDatabase;
  let ours: DatabaseHandle;
  let other: DatabaseHandle;

  beforeEach(() => {
    scratch = scratchDatabase('jalsa-write-tx-');
    ours = scratch.database;
    other = scratch.connect();
    writesAlongsideOtherProcesses(ours.sqlite);
    const now = new Date().toISOString();
    ours.db
      .insert(users)
      .values({ id: 'u1', email: 'a@example.com', name: 'A', createdAt: now, updatedAt: now })
      .run();
  });

  afterEach(() => scratch.remove());

  const nameOf = () => ours.db.select({ name: users.name }).from(users).where(eq(users.id, 'u1')).get()?.name;

  it('holds the write lock from its first read, so another writer cannot slip in before its write', async () => {
    // A deferred transaction only reads here; the other connection's commit in between would make
    // its write fail with SQLITE_BUSY_SNAPSHOT. Begun IMMEDIATE, the other writer is the one refused.
    let otherWriter: unknown;
    const renamed = await writeTransaction(ours.db, (tx) => {
      const before = tx.select({ name: users.name }).from(users).where(eq(users.id, 'u1')).get()?.name;
      other.sqlite.pragma('busy_timeout = 0');
      try {
        other.sqlite.prepare("UPDATE users SET name = 'Other' WHERE id = 'u1'").run();
      } catch (err) {
        otherWriter = err;
      }
      tx.update(users)
        .set({ name: `${before} renamed` })
        .where(eq(users.id, 'u1'))
        .run();
      return `${before} renamed`;
    });
    expect(renamed).toBe('A renamed');
    expect(nameOf()).toBe('A renamed');
    expect(otherWriter).toMatchObject({ code: 'SQLITE_BUSY' });
  });

  it('rolls back everything when the work throws, and passes the error on', async () => {
    await expect(
      writeTransaction(ours.db, (tx) => {
        tx.update(users).set({ name: 'Half done' }).where(eq(users.id, 'u1')).run();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(nameOf()).toBe('A');
  });

  it('waits for a lock another connection holds, then commits', async () => {
    other.sqlite.exec('BEGIN IMMEDIATE');
    setTimeout(() => other.sqlite.exec('COMMIT'), 20);
    await writeTransaction(ours.db, (tx) => {
      tx.update(users).set({ name: 'After the wait' }).where(eq(users.id, 'u1')).run();
    });
    expect(nameOf()).toBe('After the wait');
  });
});
