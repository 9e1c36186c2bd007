import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { NUL_IN_TEXT_MESSAGE, pathOfNulInText, refuseNulInText } from './nul-in-text.ts';

describe('U+0000 in an input', () => {
  it('is found in a value or a key, at any depth, with its path', () => {
    expect(pathOfNulInText('a\u0000')).toEqual([]);
    expect(pathOfNulInText({ name: 'Asha', about: 'x\u0000' })).toEqual(['about']);
    expect(pathOfNulInText({ tickets: [{ id: 't1' }, { id: '\u0000' }] })).toEqual(['tickets', 1, 'id']);
    expect(pathOfNulInText({ answers: { 'q\u0000': 'yes' } })).toEqual(['answers', 'q\u0000']);
    expect(pathOfNulInText({ name: 'Asha', n: 1, ok: true, none: null, list: ['a', 2] })).toBeNull();
    expect(pathOfNulInText(undefined)).toBeNull();
  });

  it('is found under 100,000 nested arrays at once, without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`);
    const started = performance.now();
    expect(pathOfNulInText(deep)).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('is refused as a bad request of that field', () => {
    expect(() => refuseNulInText({ name: 'Asha' })).not.toThrow();
    try {
      refuseNulInText({ name: 'A\u0000' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe('BAD_REQUEST');
      expect((error as TRPCError).message).toBe(NUL_IN_TEXT_MESSAGE);
    }
  });
});
