import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOTH_ENGINES_WITHIN, ON_BOTH_ENGINES, ONE_ENGINE } from './engines-of-integration-files.ts';

const root = path.resolve(import.meta.dirname, '../..');
const files = readdirSync(path.join(root, 'test/integration'))
  .filter((name) => /\.test\.tsx?$/.test(name))
  .map((name) => `test/integration/${name}`)
  .sort();

describe('the engines of the integration files (issue 38: the integration suite on both engines)', () => {
  it('puts every file on both engines, or names the one engine it keeps and why, exactly once', () => {
    const places = files.map((file) => {
      const where = [
        ON_BOTH_ENGINES.includes(file) && 'ON_BOTH_ENGINES',
        BOTH_ENGINES_WITHIN.test(file) && 'engine-*',
        file in ONE_ENGINE && 'ONE_ENGINE',
      ].filter(Boolean);
      return `${file}: ${where.join(', ') || 'nowhere'}`;
    });
    expect(places.filter((line) => !/: (ON_BOTH_ENGINES|engine-\*|ONE_ENGINE)$/.test(line))).toEqual([]);
  });

  it('names only files that exist, in a sorted list without repeats', () => {
    const listed = [...ON_BOTH_ENGINES, ...Object.keys(ONE_ENGINE)];
    expect(listed.filter((file) => !files.includes(file))).toEqual([]);
    expect(ON_BOTH_ENGINES).toEqual([...new Set(ON_BOTH_ENGINES)].sort());
  });

  it('keeps most of the suite on both engines', () => {
    const single = files.filter((file) => file in ONE_ENGINE).length;
    expect(single / files.length).toBeLessThan(0.2);
  });
});
