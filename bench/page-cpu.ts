import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { type CDPSession, chromium } from 'playwright-core';
import { report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Lighthouse's mobile CPU slowdown, so the figures read like its bootup-time audit. */
const CPU_SLOWDOWN = 4;
/** A task longer than this blocks input (Lighthouse's total blocking time counts what is over it). */
const LONG_TASK_MS = 50;

export interface PageCpuArgs {
  /** Loads of each page; the figures are medians. */
  loads: number;
  /** Also trace one more load of each page and list each long task: when, how long, what ran in it. */
  tasks: boolean;
}

interface Load {
  /** Main-thread JavaScript, parsing and garbage collection in the page, ms (V8 samples, no idle). */
  scriptMs: number;
  /** Sum over long tasks of their time past LONG_TASK_MS, from first byte until the page is quiet. */
  blockingMs: number;
  longestTaskMs: number;
  /** Script ms by file: each chunk under its name without the content hash, or 'page' for the HTML. */
  byFile: Map<string, number>;
}

/**
 * The storefront's main-thread cost per page load, in a real Chromium at phone size with the CPU slowed
 * 4× (as Lighthouse's mobile run does), measured from V8's own CPU profile and the page's long tasks
 * instead of Lighthouse's simulated score. Lighthouse's score moves by ±10 on this VM between runs a
 * minute apart; the median of the measured script time over `--loads` fresh visits moves by a few
 * per cent, so two builds can be told apart. It also names the chunks the time goes to.
 * To compare with an older commit, copy this file into that commit's checkout and run it there.
 * Flags: --loads N (7); --tasks (one more traced load per page: each long task and what ran in it).
 */
export async function runPageCpu(args: PageCpuArgs) {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const server = await startBenchServer({ CLIENT_DIR: path.join(ROOT, 'dist/client') });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const eventId = await firstEventId(server.baseURL);
    const pages = [
      { page: '/', url: `${server.baseURL}/` },
      { page: '/events/{id}', url: `${server.baseURL}/events/${eventId}` },
    ];
    const rows: Record<string, string | number>[] = [];
    const results: Record<string, unknown>[] = [];
    for (const { page, url } of pages) {
      const loads: Load[] = [];
      // One load first that is not counted: Chromium's own first-run work (its code cache, fonts).
      await measureLoad(browser, url);
      for (let i = 0; i < args.loads; i += 1) loads.push(await measureLoad(browser, url));
      const script = median(loads.map((l) => l.scriptMs));
      const blocking = median(loads.map((l) => l.blockingMs));
      const longest = median(loads.map((l) => l.longestTaskMs));
      const files = topFiles(loads, 5);
      rows.push({
        page,
        'script ms (median)': script,
        'script ms (each load)': loads.map((l) => l.scriptMs).join(' '),
        'blocking ms (median)': blocking,
        'longest task ms': longest,
        'top files (median ms)': files.map(([file, ms]) => `${file} ${ms}`).join(', '),
      });
      results.push({ page, scriptMs: script, blockingMs: blocking, longestTaskMs: longest, files });
      if (args.tasks) printLongTasks(page, await traceLoad(browser, url));
    }
    report(
      `Main-thread work per page load (phone size, CPU ${CPU_SLOWDOWN}× slower; ${args.loads} loads)`,
      rows,
      {
        bench: 'page-cpu',
        loads: args.loads,
        results,
      },
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The first upcoming event's id: from `events.page`, or `events.list` in a build from before issue 25. */
async function firstEventId(baseURL: string): Promise<string> {
  const paged = await fetch(`${baseURL}/trpc/events.page?input=${encodeURIComponent('{}')}`);
  const answer = paged.ok
    ? ((await paged.json()) as { result: { data: { items: { id: string }[] } } }).result.data.items
    : ((await (await fetch(`${baseURL}/trpc/events.list`)).json()) as { result: { data: { id: string }[] } })
        .result.data;
  const id = answer[0]?.id;
  if (!id) throw new Error('the catalogue returned no events');
  return id;
}

async function measureLoad(browser: import('playwright-core').Browser, url: string): Promise<Load> {
  // A fresh context each time: a first visit, nothing cached, as Lighthouse loads a page.
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const tasks: number[] = [];
      (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'networkidle' });
    // Whatever the page schedules once idle (the first visit's city prompt waits up to 1.5 s).
    await page.waitForTimeout(2_000);
    const profile = await stopProfile(cdp);
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    return {
      ...scriptTime(profile, new URL(url).origin),
      blockingMs: Math.round(tasks.reduce((sum, d) => sum + Math.max(0, d - LONG_TASK_MS), 0)),
      longestTaskMs: Math.round(Math.max(0, ...tasks)),
    };
  } finally {
    await context.close();
  }
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

async function stopProfile(cdp: CDPSession): Promise<CpuProfile> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  return profile;
}

/** V8's samples, without its idle and '(program)' (native work outside JavaScript), summed by file. */
function scriptTime(profile: CpuProfile, origin: string): Pick<Load, 'scriptMs' | 'byFile'> {
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFile = new Map<string, number>();
  let total = 0;
  for (const [i, id] of profile.samples.entries()) {
    const frame = nodeById.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const file = fileName(frame.url, origin) ?? frame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  return { scriptMs: Math.round(total), byFile };
}

function fileName(url: string, origin: string): string | null {
  if (!url) return null;
  if (!url.startsWith(origin)) return url;
  const asset = /\/assets\/(.+?)-[\w-]{8}\.js$/.exec(url);
  if (asset) return asset[1]!;
  return url.slice(origin.length).includes('.js') ? url.slice(origin.length) : 'page';
}

function topFiles(loads: Load[], count: number): [string, number][] {
  const files = new Set(loads.flatMap((l) => [...l.byFile.keys()]));
  return [...files]
    .map((file): [string, number] => [file, median(loads.map((l) => Math.round(l.byFile.get(file) ?? 0)))])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface LongTask {
  /** Start, ms after the navigation began. */
  atMs: number;
  durationMs: number;
  /** What the task ran, largest first: its direct children (a script evaluated, a timer, a frame, layout). */
  parts: [string, number][];
  /** Where its JavaScript went (V8 samples inside the task), by file, largest first. */
  files: [string, number][];
  /** Its hottest functions (self time), as `function@file`. */
  functions: [string, number][];
}

/**
 * One traced load (Chromium's timeline, as Lighthouse records it, plus V8's samples), cut into the main
 * thread's tasks over LONG_TASK_MS, each with what ran inside: which script evaluated, which timer or
 * frame callback, how much layout, and the files and functions V8 sampled in it. The CPU profile and the
 * trace share one clock, so a sample belongs to the task whose span holds it.
 */
async function traceLoad(browser: import('playwright-core').Browser, url: string): Promise<LongTask[]> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink'],
    });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(2_000);
    const profile = (await cdp.send('Profiler.stop')) as unknown as {
      profile: CpuProfile & { startTime: number };
    };
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    return longTasks(trace.traceEvents, profile.profile, new URL(url).origin);
  } finally {
    await context.close();
  }
}

function longTasks(
  events: TraceEvent[],
  profile: CpuProfile & { startTime: number },
  origin: string,
): LongTask[] {
  // The page's renderer: of the main threads traced (about:blank's may be another process), the one
  // that evaluated the page's scripts.
  const mains = events.filter(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
  );
  const scriptsOn = (m: TraceEvent) =>
    events.filter(
      (e) =>
        e.pid === m.pid &&
        e.tid === m.tid &&
        e.name === 'EvaluateScript' &&
        String(e.args?.data?.url ?? '').startsWith(origin),
    ).length;
  const main = mains.sort((a, b) => scriptsOn(b) - scriptsOn(a))[0];
  if (!main) return [];
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
  const start =
    events.find((e) => e.pid === main.pid && e.name === 'navigationStart')?.ts ??
    Math.min(...onMain.map((e) => e.ts));
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) / 1000 > LONG_TASK_MS);
  // The samples' times, on the trace's clock.
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const sampleTimes: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) {
    t += delta;
    sampleTimes.push(t);
  }
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    // Direct children only: an event not inside another event of the task.
    const direct = inside.filter(
      (e) =>
        !inside.some(
          (o) =>
            o !== e &&
            o.ts <= e.ts &&
            o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) &&
            (o.dur ?? 0) > (e.dur ?? 0),
        ),
    );
    const parts = new Map<string, number>();
    for (const e of direct) {
      const key = describe(e, origin);
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const files = new Map<string, number>();
    const functions = new Map<string, number>();
    for (const [i, id] of profile.samples.entries()) {
      const at = sampleTimes[i]!;
      if (at < task.ts || at > end) continue;
      const frame = nodeById.get(id)?.callFrame;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') continue;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const file = fileName(frame.url, origin) ?? frame.functionName;
      files.set(file, (files.get(file) ?? 0) + ms);
      const fn = `${frame.functionName || '(anonymous)'}@${file}:${(frame.lineNumber ?? 0) + 1}:${(frame.columnNumber ?? 0) + 1}`;
      functions.set(fn, (functions.get(fn) ?? 0) + ms);
    }
    return {
      atMs: Math.round((task.ts - start) / 1000),
      durationMs: Math.round((task.dur ?? 0) / 1000),
      parts: largest(parts, 4),
      files: largest(files, 4),
      functions: largest(functions, 4),
    };
  });
}

function describe(event: TraceEvent, origin: string): string {
  const data = event.args?.data ?? {};
  const url = typeof data.url === 'string' ? data.url : '';
  const where = url ? ` ${fileName(url, origin) ?? url}` : '';
  if (event.name === 'EventDispatch') return `event ${String(data.type ?? '')}`;
  if (event.name === 'FunctionCall')
    return `call${where}${data.functionName ? ` ${String(data.functionName)}` : ''}`;
  return `${event.name}${where}`;
}

function largest(map: Map<string, number>, count: number): [string, number][] {
  return [...map.entries()]
    .map(([key, ms]): [string, number] => [key, Math.round(ms)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}

function printLongTasks(page: string, tasks: LongTask[]) {
  console.log(`\nLong tasks on ${page} (one traced load; ms at ${CPU_SLOWDOWN}× slowdown)`);
  const list = (entries: [string, number][]) => entries.map(([name, ms]) => `${name} ${ms}`).join(', ');
  for (const task of tasks) {
    console.log(`  at ${task.atMs} ms: ${task.durationMs} ms: ${list(task.parts)}`);
    if (task.files.length > 0) console.log(`    files: ${list(task.files)}`);
    if (task.functions.length > 0) console.log(`    hottest: ${list(task.functions)}`);
  }
}
