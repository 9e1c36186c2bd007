// First: refuse an unsupported Node before anything loads the SQLite driver.
import '../src-server/process/require-supported-node.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// `npm start` serves dist/client. Build it when it is missing or older than any client or shared
// source, so a fresh clone (or a pull) serves the current code without a separate build step.
const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/client/index.html');

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

// A production image ships dist/client without the client's sources: nothing to check there.
if (!existsSync(path.join(root, 'src-client'))) process.exit(0);

const sources = ['src-client', 'shared', 'public'].map((d) => newestMtime(path.join(root, d)));
const stale = !existsSync(builtIndex) || Math.max(...sources) > statSync(builtIndex).mtimeMs;
if (stale) {
  console.log('Building the client (dist/client)...');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
