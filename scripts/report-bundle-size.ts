import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Prints the gzipped size of the JavaScript a first visit to the home page downloads: the entry script
 * and the chunks index.html preloads (lazy route chunks load later, on navigation).
 */
const dist = path.resolve(import.meta.dirname, '../dist/client');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
].map((m) => m[1]!);
let total = 0;
for (const src of scripts) {
  const bytes = gzipSync(readFileSync(path.join(dist, src))).length;
  total += bytes;
  console.log(`  ${src}  ${(bytes / 1024).toFixed(1)} KB gzipped`);
}
console.log(
  `Home page initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${scripts.length} files)`,
);
console.log(JSON.stringify({ homeInitialJsGzipBytes: total, files: scripts.length }));
