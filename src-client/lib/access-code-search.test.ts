import { describe, expect, it } from 'vitest';
import { MAX_CODE_LENGTH } from '../../shared/discount-schemas.ts';
import { ACCESS_CODE_MAX_LENGTH, parseAccessCodeSearch } from './access-code-search.ts';

describe('parseAccessCodeSearch', () => {
  it('keeps a code, trimmed, and drops what cannot be one', () => {
    expect(parseAccessCodeSearch({ code: ' FanClub ' })).toEqual({ code: 'FanClub' });
    expect(parseAccessCodeSearch({})).toEqual({});
    expect(parseAccessCodeSearch({ code: 42 })).toEqual({});
    expect(parseAccessCodeSearch({ code: '   ' })).toEqual({});
    expect(parseAccessCodeSearch({ code: 'x'.repeat(41) })).toEqual({});
  });

  it('has the same longest code as the server', () => {
    expect(ACCESS_CODE_MAX_LENGTH).toBe(MAX_CODE_LENGTH);
  });
});
