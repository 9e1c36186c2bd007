import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, createTestAppOn, type Engine, type TestApp } from './test-app.ts';
import { migratedTemplate, scratchPostgres, testPostgresUrl } from './test-postgres.ts';

export interface SeededCopies {
  /** A new app on its own copy of the seeded data; its `close` removes the copy. */
  app: () => Promise<TestApp>;
  /** Removes the seeded original. */
  close: () => Promise<void>;
}

/**
 * Apps on `engine` that each start from the same data, seeded once (`seed` on a first app) and copied
 * per test: the SQLite file copied, or CREATE DATABASE … TEMPLATE on PostgreSQL. Each copy's clock reads
 * what the seeding app's read when `seed` was done, as if the test had seeded it itself. For a file whose every
 * test needs the same costly data (the demo catalogue, made through the event editor's services): each
 * test still has a database of its own, for the price of a copy instead of the seeding.
 */
export async function seededCopies(
  engine: Engine,
  seed: (t: TestApp) => Promise<void>,
): Promise<SeededCopies> {
  if (engine === 'sqlite') {
    const source = createTestApp();
    await seed(source);
    const at = source.clock.now();
    // Everything in the main file, so a copy of that file alone is the whole database.
    source.deps.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return {
      app: async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-test-'));
        copyFileSync(path.join(source.dataDir, 'jalsa.db'), path.join(dataDir, 'jalsa.db'));
        const t = createTestApp({ DATA_DIR: dataDir });
        t.clock.set(at);
        return t;
      },
      close: async () => source.close(),
    };
  }
  const server = testPostgresUrl('seededCopies');
  if (!server) throw new Error('seededCopies: no test PostgreSQL');
  const source = await scratchPostgres(server, 'jalsa_seeded', await migratedTemplate(server));
  const first = await createTestAppOn('postgres', { DATABASE_URL: source.url });
  await seed(first);
  const at = first.clock.now();
  // Ends the first app's pool only: the database is ours, the template of every copy.
  await first.close();
  const sourceName = new URL(source.url).pathname.slice(1);
  return {
    app: async () => {
      const copy = await copyOf(server, sourceName);
      const t = await createTestAppOn('postgres', { DATABASE_URL: copy.url });
      t.clock.set(at);
      return {
        ...t,
        close: async () => {
          await t.close();
          await copy.drop({ waitForClosing: true });
        },
      };
    },
    close: () => source.drop({ waitForClosing: true }),
  };
}

/** A copy of `template`, waiting for the pool that seeded it to finish closing (a pool's end resolves first). */
async function copyOf(server: string, template: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await scratchPostgres(server, 'jalsa_test', template);
    } catch (error) {
      // 55006: the template is still in use by another session.
      if ((error as { code?: string }).code !== '55006' || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
