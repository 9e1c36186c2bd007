import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const major = (version: string) => Number(version.split('.')[0]);

/**
 * Issue 24: the supported Node.js lines are stated in five places, and they must agree: the pinned
 * development version (.node-version), package.json's engines, the versions CI also runs the suite on
 * (.ci/run), the Dockerfile's base image and README.
 */
it('.node-version, engines, CI, the Dockerfile and README name the same Node.js lines', () => {
  const pinned = read('.node-version').trim();
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);

  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  const engineMajors = [...engines.matchAll(/\^(\d+)\./g)].map((m) => Number(m[1])).sort();

  const ciVersions = /OTHER_NODE_VERSIONS=\(([^)]*)\)/.exec(read('.ci/run'))![1]!.trim().split(/\s+/);
  const testedMajors = [pinned, ...ciVersions].map(major).sort();
  expect(testedMajors).toEqual(engineMajors);
  // The pinned version is the newest line, so development happens on what new installs get.
  expect(major(pinned)).toBe(Math.max(...engineMajors));

  const dockerImages = [...read('Dockerfile').matchAll(/^FROM node:(\S+?)-/gm)].map((m) => m[1]);
  expect(dockerImages.length).toBeGreaterThan(0);
  for (const image of dockerImages) expect(image).toBe(pinned);

  const readme = read('README.md');
  expect(readme).toContain(`Node.js ${engineMajors.join(', ').replace(/, (\d+)$/, ' or $1')}`);
  expect(readme).toContain(pinned);
});

it('runs on a supported line', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  expect(engines).toContain(`^${major(process.versions.node)}.`);
});

it('every entry point refuses an unsupported Node before it loads anything else', () => {
  // `npm ci` is not engine-strict (.npmrc), so the entry points are where an old Node is turned away.
  expect(read('.npmrc')).toMatch(/^engine-strict=false$/m);
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const entries = new Set(
    Object.values(scripts).flatMap((command) =>
      [...command.matchAll(/\btsx (?:watch [^"]*?)?((?:scripts|src-server)\/[\w/-]+\.ts)/g)].map(
        (m) => m[1]!,
      ),
    ),
  );
  for (const name of ['src-server/index.ts', 'scripts/ensure-build.ts', 'scripts/user-role.ts']) {
    expect(entries).toContain(name);
  }
  const exempt = new Set(['scripts/report-bundle-size.ts']); // reads dist/ only, never the database
  for (const entry of entries) {
    if (exempt.has(entry)) continue;
    const firstImport = /^import [^\n]*$/m.exec(read(entry))?.[0];
    expect(firstImport, entry).toMatch(
      /^import '(?:\.{1,2}\/)+(?:src-server\/)?process\/require-supported-node\.ts';$/,
    );
  }
});
