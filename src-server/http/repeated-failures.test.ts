import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { failureLog } from './repeated-failures.ts';

describe('failureLog', () => {
  it("counts a database failure as one kind whatever the query's parameters (PostgreSQL's wrapped errors)", () => {
    const lines: { msg: string; repeats?: number }[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
    let at = 0;
    const log = failureLog(() => new Date(at));
    const full = (param: string) =>
      new DrizzleQueryError(
        'insert into rate_limit_hits values ($1)',
        [param],
        new Error('No space left on device'),
      );
    for (let i = 0; i < 10; i++) log(logger, full(`2026-01-01T00:00:0${i}.000Z`), 'procedure failed');
    expect(lines).toHaveLength(1);
    at += 60_000;
    log(logger, full('later'), 'procedure failed');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.repeats).toBe(9);
    // Another failure of the database is another kind.
    log(logger, new DrizzleQueryError('select 1', [], new Error('deadlock detected')), 'procedure failed');
    expect(lines).toHaveLength(3);
  });
});
