import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 18 put every write transaction on one path (write-transaction.ts: BEGIN IMMEDIATE, started when
// the write lock is free); issue 35 item 6 found new code beside it that calls `db.transaction(…)`
// directly, and two server processes answered 500 (SQLITE_BUSY) on team invitations. This keeps it so:
// outside src-server/db/, a transaction is opened only through writeTransaction (a `tx.transaction`
// inside one is a savepoint of it, which is fine).

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
/** A transaction opened on a database handle rather than on the transaction it runs in. */
const BARE_TRANSACTION = /(?:\bdb|\bdatabase|\bsqlite|\$client)\s*\.\s*transaction\s*\(/;

describe('write transactions in src-server', () => {
  it('are opened only through writeTransaction, outside the database layer', () => {
    const bare = sourceFiles(SERVER_DIR)
      .filter((file) => !path.relative(SERVER_DIR, file).startsWith(`db${path.sep}`))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            BARE_TRANSACTION.test(line) &&
            !line.trimStart().startsWith('*') &&
            !line.trimStart().startsWith('//')
              ? [`${path.relative(SERVER_DIR, file)}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(bare).toEqual([]);
  });

  it('would see the forms a bare transaction takes', () => {
    for (const line of [
      'db.transaction((tx) => {',
      'return deps.db.transaction(work)',
      'ctx.db .transaction (',
      'db.$client.transaction(fn)',
    ]) {
      expect(BARE_TRANSACTION.test(line), line).toBe(true);
    }
    for (const line of ['tx.transaction((savepoint) => {', 'writeTransaction(db, (tx) => {']) {
      expect(BARE_TRANSACTION.test(line), line).toBe(false);
    }
  });
});

// ADR 0045: a service runs its steps on whichever engine it is given, through `runnerFor(db)`. Issue 38
// found the waiting room's join and admitter calling `sqliteRunner` directly, which answered 500 on
// PostgreSQL; only the runner's own dispatch may name an engine's runner.
const ENGINE_RUNNER = /\b(?:sqliteRunner|postgresRunner)\s*\(/;
const RUNNER_DISPATCH = path.join('db', 'engine', 'runner.ts');

describe('engine runners in src-server', () => {
  it('are picked only by runnerFor, never named by a service', () => {
    const named = sourceFiles(SERVER_DIR)
      .filter((file) => path.relative(SERVER_DIR, file) !== RUNNER_DISPATCH)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            ENGINE_RUNNER.test(line) && !/^\s*(?:\*|\/\/)/.test(line)
              ? [`${path.relative(SERVER_DIR, file)}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(named).toEqual([]);
  });

  it('would see a service naming one', () => {
    expect(ENGINE_RUNNER.test('const runner = sqliteRunner(deps.db);')).toBe(true);
    expect(ENGINE_RUNNER.test('await postgresRunner (db).write(steps)')).toBe(true);
    expect(ENGINE_RUNNER.test('const runner = runnerFor(deps.db);')).toBe(false);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
