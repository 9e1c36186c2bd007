import { readFileSync } from 'node:fs';

/**
 * Reads a V8 .cpuprofile (from `BENCH_CPU_PROF=dir npm run bench -- …`) and prints the functions with
 * the most self time, and the files (packages) they live in.
 * Usage: `npx tsx bench/profile-top.ts <file.cpuprofile> [rows] [name,name,…]`. With names, it also
 * prints each named function's inclusive time (itself and everything it calls, counted once per sample
 * however deep it recurses): what a hook costs in all, e.g. `takeQuotaSeatsIn,takeDiscountUseIn`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, rowsArg, namesArg] = process.argv.slice(2);
if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [rows]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfMs = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) {
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const totalMs = (profile.endTime - profile.startTime) / 1000;

const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const place = placeOf(url);
  const key = `${functionName || '(anonymous)'}  ${place}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
}
const rows = Number(rowsArg ?? 30);
const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([name, ms]) => ({
      'self ms': Math.round(ms),
      '%': Number(((100 * ms) / totalMs).toFixed(1)),
      name,
    }));
console.log(`Profile: ${Math.round(totalMs)} ms`);
console.table(top(byFunction));
console.table(top(byPlace));
if (namesArg) console.table(inclusive(namesArg.split(',').filter(Boolean)));

/** Per named function: the time of every sample with it on the stack. */
function inclusive(names: string[]) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map(names.map((name) => [name, 0]));
  for (const [id, ms] of selfMs) {
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (totals.has(name)) onStack.add(name);
    }
    for (const name of onStack) totals.set(name, totals.get(name)! + ms);
  }
  return names.map((name) => ({
    'inclusive ms': Math.round(totals.get(name)!),
    '%': Number(((100 * totals.get(name)!) / totalMs).toFixed(1)),
    name,
  }));
}

function placeOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/(src-server|bench|shared)\//, '$1/');
}
