import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A stand-in for the built client (an index.html and one hashed asset), for tests that serve it. */
export function fakeClientDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Jalsa</title></head><body><div id="root"></div></body></html>',
  );
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}
