import type { DbOrTx } from './client.ts';
import { oncePer } from './once-per.ts';

type Builders = Record<string, (db: DbOrTx) => unknown>;

/**
 * Drizzle prepared queries by name, each built on first use for a database or an open transaction and
 * kept while it lives (a transaction runs them on its own connection, so it gets its own): building a
 * query costs several times more than running it on the paths every buyer of a rush takes
 * (docs/benchmarks.md). `builders` names each query and how to build it.
 */
export function preparedQueries<B extends Builders>(builders: B) {
  type Queries = { [K in keyof B]: ReturnType<B[K]> };
  const builtFor = oncePer((_db: DbOrTx): Partial<Queries> => ({}));
  return function query<K extends keyof B>(db: DbOrTx, name: K): Queries[K] {
    const built = builtFor(db);
    let prepared = built[name];
    if (prepared === undefined) {
      prepared = builders[name]!(db) as Queries[K];
      built[name] = prepared;
    }
    return prepared as Queries[K];
  };
}
