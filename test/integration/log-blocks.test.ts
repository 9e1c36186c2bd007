import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/fault-process.ts';

/**
 * The server's log goes to stdout in blocks (ADR 0028): these run a real process and read its stdout
 * through a pipe, as a process manager would.
 */
const LOGGER = path.resolve(import.meta.dirname, '../../src-server/logger.ts');

function runLogging(script: string, stdin: 'ignore' | 'pipe' = 'ignore') {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: [stdin, 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

const messages = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('the log written in blocks', () => {
  it('writes every line before an ordinary exit', async () => {
    const run = runLogging(
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});
       const logger = createLogger('info');
       for (let i = 0; i < 3; i++) logger.info('line ' + i);
       process.exit(0);`,
    );
    expect(await run.exited).toBe(0);
    expect(messages(run.output())).toEqual(['line 0', 'line 1', 'line 2']);
  });

  it('writes the lines before a crash by an uncaught error', async () => {
    const run = runLogging(
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});
       createLogger('info').error('about to fail');
       setTimeout(() => { throw new Error('boom'); }, 10);`,
    );
    expect(await run.exited).not.toBe(0);
    expect(messages(run.output())).toEqual(['about to fail']);
  });

  it('exits, and keeps serving until then, when whatever read its stdout has gone', async () => {
    // A worker whose primary died writes its last lines into a pipe nobody reads any more (the
    // primary's stdout went with whatever started it): the write fails with EPIPE, and the process
    // must still end, not retry the write for ever (sonic-boom's flushSync retries only EAGAIN/EBUSY).
    const run = runLogging(
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});
       const logger = createLogger('info');
       logger.info('first');
       process.stdin.resume();
       process.stdin.on('end', () => {
         for (let i = 0; i < 200; i++) logger.info('after the reader left ' + i + ' ' + 'x'.repeat(100));
         logger.warn('last words');
         process.exit(3);
       });`,
      'pipe',
    );
    await waitUntil(() => messages(run.output()).includes('first'), 'the first line');
    run.child.stdout!.destroy();
    run.child.stdin!.end();
    const code = await Promise.race([
      run.exited,
      new Promise((resolve) => setTimeout(() => resolve('hung'), 10_000)),
    ]);
    if (code === 'hung') run.child.kill('SIGKILL');
    expect(code).toBe(3);
  });

  it('writes a quiet process’s lines without waiting for a block to fill or for the exit', async () => {
    const run = runLogging(
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});
       createLogger('info').info('alone');
       setTimeout(() => {}, 60_000);`,
    );
    try {
      await waitUntil(() => messages(run.output()).includes('alone'), 'the line while the process runs');
      expect(run.child.exitCode).toBeNull();
    } finally {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  });
});
