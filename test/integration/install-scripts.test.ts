import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Lock {
  packages: Record<string, { hasInstallScript?: boolean }>;
}

/**
 * Issue 22: npm 12 skips every dependency install script that package.json's `allowScripts` does not
 * list (npm 11 only warns). Each one in the lock must be decided on purpose: allowed when the app needs
 * it, denied by name when it does not. better-sqlite3 is listed too although the lock does not mark it:
 * npm infers `node-gyp rebuild` from its binding.gyp, and its prebuilt Node-API binary makes that
 * compile unnecessary (ADR 0011).
 */
it('allowScripts decides every install script in the lock', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    allowScripts: Record<string, boolean>;
  };
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts.length).toBeGreaterThan(0);
  const undecided = [...new Set(withScripts)].filter((name) => !(name in pkg.allowScripts));
  expect(undecided, 'install scripts that allowScripts neither allows nor denies').toEqual([]);
  expect(pkg.allowScripts).toMatchObject({ esbuild: true, 'better-sqlite3': false });
});
