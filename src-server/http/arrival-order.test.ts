import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { inArrivalOrder } from './arrival-order.ts';

/** Keeps the CPU busy, as a reservation's synchronous SQLite work does. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Counts the event loop's iterations (one setImmediate each) until stopped. */
function countLoopIterations() {
  let iteration = 0;
  let counting = true;
  const count = () => {
    iteration += 1;
    if (counting) setImmediate(count);
  };
  count();
  return {
    iteration: () => iteration,
    stop: () => {
      counting = false;
    },
  };
}

describe('inArrivalOrder', () => {
  it('runs a request at once when nobody is waiting', async () => {
    const calls: string[] = [];
    const handle = inArrivalOrder((name: string) => {
      calls.push(name);
      return name;
    });
    expect(handle('first')).toBe('first');
    expect(calls).toEqual(['first']);
  });

  it('starts queued requests in the order they arrived, with the event loop running between them', async () => {
    const loop = countLoopIterations();
    const startedIn = new Map<string, number>();
    const handle = inArrivalOrder((name: string) => {
      startedIn.set(name, loop.iteration());
      busyFor(3); // longer than a turn: whoever comes next waits
      return name;
    });
    const names = ['a', 'b', 'c', 'd', 'e'];
    expect(await Promise.all(names.map((name) => handle(name)))).toEqual(names);
    loop.stop();
    expect([...startedIn.keys()]).toEqual(names);
    // The loop (which reads the sockets) ran before the queue started, and again between the queued
    // ones: they are too slow to all run back to back. How many per turn is the queue's own business.
    const queued = names.slice(1).map((name) => startedIn.get(name));
    expect(queued[0]).toBeGreaterThan(startedIn.get('a')!);
    expect(new Set(queued).size).toBeGreaterThan(1);
  });

  it('queues a request that arrives while others wait behind them, even at the start of a turn', async () => {
    const started: string[] = [];
    const handle = inArrivalOrder((name: string) => {
      started.push(name);
      busyFor(3);
      return name;
    });
    const early = ['a', 'b', 'c'].map((name) => handle(name));
    // Arrives in a later iteration of the loop, once the turn that ran `a` is over.
    const late = new Promise((resolve) => setImmediate(() => resolve(handle('late'))));
    await Promise.all([...early, late]);
    expect(started).toEqual(['a', 'b', 'c', 'late']);
  });

  it('starts several cheap queued requests per turn once it has seen how long they take', async () => {
    const loop = countLoopIterations();
    const startedIn = new Map<string, number>();
    // A long turn, so that a loop iteration stretched by a busy machine still counts as cheap.
    const turnMs = 50;
    const handle = inArrivalOrder((name: string) => {
      startedIn.set(name, loop.iteration());
      if (name === 'slow') busyFor(turnMs + 1); // uses the turn, so the rest queue
      return name;
    }, turnMs);
    const cheap = Array.from({ length: 10 }, (_, i) => `cheap ${i}`);
    await Promise.all([handle('slow'), ...cheap.map((name) => handle(name))]);
    loop.stop();
    // The first queued one starts alone (nothing measured yet); it took next to nothing, so later turns
    // start several at once instead of one per iteration.
    const iterations = new Set(cheap.map((name) => startedIn.get(name)));
    expect(iterations.size).toBeLessThan(cheap.length);
    expect([...startedIn.keys()]).toEqual(['slow', ...cheap]);
  });

  it('passes a handler’s rejection to its caller and goes on with the queue', async () => {
    const handle = inArrivalOrder((name: string) => {
      busyFor(3);
      if (name === 'bad') throw new Error('boom');
      return name;
    });
    const first = handle('first');
    const bad = handle('bad');
    const after = handle('after');
    expect(first).toBe('first');
    await expect(bad).rejects.toThrow('boom');
    await expect(after).resolves.toBe('after');
  });
});

describe('inArrivalOrder behind a real HTTP server', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  /**
   * Each request keeps the server busy for 150 ms. The client (another process) sends r0; r1, r2 and
   * r3 at once while r0 runs; r4 while r1 runs; and r5 on r1's connection 20 ms after r1's answer,
   * while r2 runs. Every connection is open beforehand. r4 arrived before r5, so it must start first.
   * Without the queue, r1 to r3 run in one round, and the next round follows epoll's list, in which
   * r1's connection kept its place ahead of r4's: r5 starts before r4.
   */
  it('starts a request that arrived while the server was busy before later ones', { retry: 2 }, async () => {
    const started: string[] = [];
    const handle = inArrivalOrder((name: string) => {
      started.push(name);
      busyFor(150);
      return name;
    });
    server = createServer(async (req, res) => {
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('r');
      // Opening the connections costs nothing, so it cannot change the order of the others.
      res.end(name ? await handle(name) : 'open');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    await runClient(port);
    expect(started).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5']);
  });
});

/** The client in its own process, so the server's busy handler cannot delay what it sends. */
function runClient(port: number): Promise<void> {
  const script = `
    const http = require('node:http');
    const get = (agent, name) => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: ${port}, path: name ? '/?r=' + name : '/', agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
    const agents = [0, 1, 2, 3, 4].map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    const after = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    Promise.all(agents.map((agent) => get(agent, null))).then(() => {
      const r0 = get(agents[0], 'r0');
      const r1 = after(30).then(() => get(agents[1], 'r1')).then(() => after(20)).then(() => get(agents[1], 'r5'));
      const rest = after(30).then(() => Promise.all([get(agents[2], 'r2'), get(agents[3], 'r3')]));
      const r4 = after(200).then(() => get(agents[4], 'r4'));
      return Promise.all([r0, r1, rest, r4]);
    }).then(() => { agents.forEach((a) => a.destroy()); process.exit(0); },
      (err) => { console.error(err); process.exit(1); });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`client exited with ${code}`))));
  });
}
