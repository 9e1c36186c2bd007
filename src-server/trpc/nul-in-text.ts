import { TRPCError } from '@trpc/server';
import { ZodRealError } from 'zod';

export const NUL_IN_TEXT_MESSAGE = 'Text must not contain the null character (U+0000)';

/**
 * The path of the first string in `input` (a value or an object's key) that holds U+0000, or null.
 * PostgreSQL's text and jsonb cannot hold that character: every statement given one failed, so an id,
 * a search or a name with it answered 500 on PostgreSQL (and a search 500 on SQLite, whose full-text
 * query cannot hold it either), and data holding it could not move from SQLite to PostgreSQL. No field
 * of this app means it, so it is refused for every procedure, on both engines, before any schema runs.
 * Walked with a stack of its own: a 64 KB body can nest arrays deeper than a recursive walk could go.
 */
export function pathOfNulInText(input: unknown): (string | number)[] | null {
  // Each entry links to its parent rather than copying its path: copies would cost depth² on deep input.
  type Entry = { value: unknown; key: string | number; parent: Entry | null };
  const pathTo = (entry: Entry | null, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at = entry; at?.parent; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const pending: Entry[] = [{ value: input, key: '', parent: null }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    const { value } = entry;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathTo(entry);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], key: i, parent: entry });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return pathTo(entry, key);
        pending.push({ value: inner, key, parent: entry });
      }
    }
  }
  return null;
}

/**
 * Refuses an input holding U+0000 anywhere as a validation error of that field (400, its message), as a
 * schema's refusal is thrown: a ZodRealError (zod's ZodError is no Error, which tRPC would wrap).
 */
export function refuseNulInText(input: unknown): void {
  const path = pathOfNulInText(input);
  if (!path) return;
  throw new TRPCError({
    code: 'BAD_REQUEST',
    message: NUL_IN_TEXT_MESSAGE,
    cause: new ZodRealError([{ code: 'custom', path, message: NUL_IN_TEXT_MESSAGE, input: undefined }]),
  });
}
