import { TRPCError } from '@trpc/server';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

const EMAIL = 'asha.rao@example.com';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';

/** A failed sign-up insert as Drizzle reports it on PostgreSQL: the values in message and params, the key in detail. */
function failedSignUp(): DrizzleQueryError {
  const cause = Object.assign(
    new Error('duplicate key value violates unique constraint "users_email_unique"'),
    {
      code: '23505',
      constraint: 'users_email_unique',
      detail: `Key (email)=(${EMAIL}) already exists.`,
    },
  );
  return new DrizzleQueryError(
    'insert into "users" ("name", "email", "password_hash") values ($1, $2, $3)',
    ['Asha', EMAIL, HASH],
    cause,
  );
}

function logged(err: unknown): { text: string; line: Record<string, unknown> } {
  const lines: string[] = [];
  createLogger('trace', { write: (line: string) => lines.push(line) }).error({ err }, 'Unhandled error');
  return { text: lines.join(''), line: JSON.parse(lines[0]!) };
}

describe('a failed query in the log', () => {
  it('names its statement and its database error, never the values it carried', () => {
    const { text, line } = logged(failedSignUp());
    expect(text).toContain('Failed query: insert into \\"users\\"');
    expect(text).toContain('users_email_unique');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('argon2id');
    expect((line.err as { stack: string }).stack).toMatch(/\n\s+at /);
  });

  it('also when an error that wraps it copied its message (tRPC)', () => {
    const wrapped = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: failedSignUp() });
    expect(wrapped.message).toContain(EMAIL);
    const { text, line } = logged(wrapped);
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('argon2id');
    expect(line.err).toMatchObject({ type: 'TRPCError', code: 'INTERNAL_SERVER_ERROR' });
    expect(text).toContain('Failed query: insert into');
  });

  it('leaves every other error as it was', () => {
    const { line } = logged(Object.assign(new Error('boom'), { code: 'E_BOOM' }));
    expect(line.err).toMatchObject({ type: 'Error', message: 'boom', code: 'E_BOOM' });
  });
});
