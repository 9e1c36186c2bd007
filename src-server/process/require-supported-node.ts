import { readFileSync } from 'node:fs';
import path from 'node:path';
import { unsupportedNodeMessage } from './supported-node.ts';

// Imported first by every entry point (the server, `npm start`'s build check, the CLIs). On an
// unsupported Node the SQLite driver crashes the process on first use (Node 20 segfaults), so refuse
// here, before anything opens the database, with a message that says what to do instead. `npm ci`
// itself is not engine-strict: it installs exactly the lock on any Node (.npmrc).
const packageJson = path.resolve(import.meta.dirname, '../../package.json');
const { engines } = JSON.parse(readFileSync(packageJson, 'utf8')) as { engines: { node: string } };
const refusal = unsupportedNodeMessage(process.versions.node, engines.node);
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
