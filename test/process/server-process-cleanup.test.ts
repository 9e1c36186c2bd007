import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { faultDataDir, waitUntil } from '../helpers/fault-process.ts';
import { procStat } from '../helpers/proc-stat.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scratch = faultDataDir();
afterAll(() => scratch.remove());

/**
 * Issue 24: vitest workers that aborted left WEB_CONCURRENCY primaries and their workers running with
 * no parent. A stand-in for a test process starts a two-worker server with the shared helper and is
 * then killed with SIGKILL, so none of its clean-up runs: the server's whole process group must go.
 */
it('a server outlives no test process, even one killed before its clean-up', async () => {
  const script = `
    import { startServerProcess } from './test/helpers/server-process.ts';
    const server = await startServerProcess({
      dataDir: ${JSON.stringify(scratch.dataDir)},
      env: { WEB_CONCURRENCY: '2', SEED_DEMO_DATA: 'false', APP_SECRET: 'x'.repeat(40) },
    });
    console.log('server', server.child.pid);
    setInterval(() => {}, 1000);
  `;
  const testProcess = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  testProcess.stdout.on('data', (chunk) => {
    printed += chunk;
  });
  await waitUntil(
    () => /server \d+/.test(printed),
    'the server to start',
    () => printed,
  );
  const group = Number(/server (\d+)/.exec(printed)![1]);
  await waitUntil(
    () => membersOf(group).length >= 3,
    'the primary and two workers',
    () => printed,
  );

  testProcess.kill('SIGKILL');

  await waitUntil(
    () => membersOf(group).length === 0,
    'the server group to end',
    () => membersOf(group).map(describeProcess).join('\n'),
  );
  expect(membersOf(group)).toEqual([]);
}, 60_000);

/** Live processes (not zombies) whose process group is `group`. */
function membersOf(group: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = procStat(pid);
      return stat !== undefined && stat.state !== 'Z' && stat.processGroup === group;
    });
}

/** pid, state, parent and command line of a process, for the failure message. */
function describeProcess(pid: number): string {
  const stat = procStat(pid);
  if (!stat) return `${pid} (gone)`;
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return `${pid} (gone)`;
  }
  return `${pid} ${stat.state} parent ${stat.parent}: ${command}`;
}
