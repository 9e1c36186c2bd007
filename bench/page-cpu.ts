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
 * Flags: --loads N (7).
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
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
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
