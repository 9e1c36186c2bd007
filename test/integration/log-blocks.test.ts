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
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, errors: () => errors, exited };
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

  it('exits when whatever read its stdout has gone, its last line still in the block', async () => {
    // A cluster worker whose primary died logs one line and exits at once; the primary's stdout went
    // with whatever started it, so the write at exit fails with EPIPE. It must end, not retry the
    // write for ever with its event loop blocked (sonic-boom's flushSync retries all but EAGAIN/EBUSY
    // errors every 100 ms). The line is logged right after the reader left, before the block's
    // quarter-second flush could notice the broken pipe.
    const run = runLogging(
      `const { createLogger } = await import(${JSON.stringify(LOGGER)});
       const logger = createLogger('info');
       process.stdin.resume();
       process.stdin.on('end', () => {
         logger.warn('primary process is gone: exiting');
         process.exit(3);
       });
       process.stderr.write('ready');`,
      'pipe',
    );
    await waitUntil(() => run.errors().includes('ready'), 'the process to start');
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
