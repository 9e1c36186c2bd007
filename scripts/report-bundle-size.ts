import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Prints the gzipped JavaScript a first visit downloads before the page can render, from Vite's
 * manifest (`build.manifest: true`):
 *  - home page `/`: the entry and every chunk it imports statically (what index.html preloads), the
 *    app's start-up (src-client/start-app.tsx, which the entry imports once the hero is painted) and
 *    every chunk that imports statically, plus any classic script index.html loads;
 *  - event page `/events/{id}`: the same, plus the event route's lazy chunk and its static imports,
 *    which the router fetches before it renders that page.
 * Chunks loaded later (dialogs, other routes, the staff's route definitions) are not counted. Budgets
 * (issue 6, issue 39): home ≤ HOME_TARGET_BYTES, event page ≤ EVENT_TARGET_BYTES.
 * Run by `npm run build` and by `npm run bench -- bundle`; the last line is the figures as JSON.
 * Printing never fails the build (`npm start` builds too, and must start for a self-hoster); the budget
 * is enforced by test/e2e/bundle-budget.test.ts, which measures the client the e2e run built.
 */
export const HOME_TARGET_BYTES = 110 * 1024;
/** The event page's first visit: the home page's files and the event route's chunk with its imports. */
export const EVENT_TARGET_BYTES = 120 * 1024;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export function reportBundleSize(dist = path.resolve(import.meta.dirname, '../dist/client')) {
  const { home, event, sizeOf, homeBytes, eventBytes } = measureBundle(dist);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

  const rows = event.map((file) => ({
    file,
    'KB gzipped': Number(((sizeOf.get(file) ?? 0) / 1024).toFixed(1)),
    home: home.includes(file) ? 'yes' : '',
    event: 'yes',
  }));
  console.table(rows);
  console.log(`Home page initial JavaScript: ${kb(homeBytes)} gzipped (${home.length} files)`);
  console.log(`Event page initial JavaScript: ${kb(eventBytes)} gzipped (${event.length} files)`);
  const summary = {
    bench: 'bundle',
    homeInitialJsGzipBytes: homeBytes,
    homeFiles: home.length,
    eventInitialJsGzipBytes: eventBytes,
    eventFiles: event.length,
    homeTargetBytes: HOME_TARGET_BYTES,
    eventTargetBytes: EVENT_TARGET_BYTES,
    pass: homeBytes <= HOME_TARGET_BYTES && eventBytes <= EVENT_TARGET_BYTES,
  };
  console.log(JSON.stringify(summary));
  return summary;
}

/**
 * The files a first visit to home and to an event page loads before rendering (in load order), the
 * gzipped size of each, and the totals.
 */
export function measureBundle(dist: string) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('No entry in the Vite manifest');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const classicScripts = [...html.matchAll(/<script(?![^>]*type="module")[^>]+src="([^"]+\.js)"/g)].map((m) =>
    m[1]!.replace(/^\//, ''),
  );

  const startKey = Object.keys(manifest).find((key) => key.endsWith('start-app.tsx'));
  if (!startKey) throw new Error("No start-app chunk (the app's start-up) in the Vite manifest");
  const home = [...new Set([...classicScripts, ...staticClosure(manifest, [entryKey, startKey])])];
  const eventKey = Object.keys(manifest).find((key) => key.endsWith('routes/buyer/event-detail.lazy.tsx'));
  if (!eventKey) throw new Error('No event-detail route chunk in the Vite manifest');
  const event = [...new Set([...home, ...staticClosure(manifest, [entryKey, startKey, eventKey])])];

  const sizeOf = new Map<string, number>();
  for (const file of event) sizeOf.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
  const total = (files: string[]) => files.reduce((sum, f) => sum + (sizeOf.get(f) ?? 0), 0);
  return { home, event, sizeOf, homeBytes: total(home), eventBytes: total(event) };
}

/** The files of the given manifest chunks and everything they import statically, in load order. */
function staticClosure(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Chunk ${key} is missing from the Vite manifest`);
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) reportBundleSize();
