import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Layers point down: app.ts and compose-deps.ts assemble http/, trpc/, integrations/ and services/;
// services hold the domain rules and are handed their providers. A cycle, or a service reaching up
// into a layer above it, means a module can no longer be understood (or loaded) on its own.

const SERVER_DIR = import.meta.dirname;

describe('imports in src-server', () => {
  const graph = importGraph(SERVER_DIR);

  it('form no cycle', () => {
    const cycles = findCycles(graph).map((cycle) => cycle.map(relative).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('never lead from services/ to integrations/, http/ or trpc/', () => {
    const upward = [...graph]
      .filter(([file]) => relative(file).startsWith('services/'))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => /^(integrations|http|trpc)\//.test(relative(target)))
          .map((target) => `${relative(file)} → ${relative(target)}`),
      );
    expect(upward).toEqual([]);
  });

  it('are all seen, including multi-line, type-only, re-exported and dynamic ones', () => {
    expect(importsOf(sampleSource, '/x/a.ts').sort()).toEqual([
      '/x/b.ts',
      '/x/c.ts',
      '/x/d.ts',
      '/x/e.ts',
      '/x/f.ts',
      '/y/g.ts',
    ]);
  });

  it('would report a cycle', () => {
    const sample = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts', '/d.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', []],
    ]);
    expect(findCycles(sample)).toEqual([['/a.ts', '/b.ts', '/c.ts', '/a.ts']]);
    expect(findCycles(new Map([['/a.ts', ['/a.ts']]]))).toEqual([['/a.ts', '/a.ts']]);
  });
});

const sampleSource = `
import {
  one,
  two,
} from './b.ts';
import type { Three } from "./c.ts";
export { four } from './d.ts';
import './e.ts';
const lazy = () => import('./f.ts');
import { z } from 'zod';
import { g } from '../y/g.ts';
export const notAnImport = './h.ts';
`;

/** Every non-test .ts file under `dir`, with the files under `dir` it imports (relative specifiers only). */
function importGraph(dir: string): Map<string, string[]> {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => path.join(dir, name));
  const inside = new Set(files);
  return new Map(
    files.map((file) => [file, importsOf(readFileSync(file, 'utf8'), file).filter((t) => inside.has(t))]),
  );
}

/**
 * The files `source` imports by relative path, resolved against `file`. Type-only imports count: a
 * cycle through types still ties the modules together. Bare specifiers (packages) are skipped.
 */
function importsOf(source: string, file: string): string[] {
  const statics = source.matchAll(/^\s*(?:import|export)\b(?:[^'"`;]*?\bfrom)?\s*['"]([^'"]+)['"]/gm);
  const dynamics = source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g);
  return [...statics, ...dynamics]
    .map((match) => match[1] as string)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier));
}

/** One cycle per strongly tied group of files, as a path that returns to where it started. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    if (done.has(file)) return;
    const back = onPath.indexOf(file);
    if (back >= 0) {
      cycles.push([...onPath.slice(back), file]);
      return;
    }
    onPath.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    onPath.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return cycles;
}

function relative(file: string): string {
  return path.relative(SERVER_DIR, file).split(path.sep).join('/');
}
