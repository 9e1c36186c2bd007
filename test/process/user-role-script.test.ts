import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/fault-process.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs a package script's file as `npm run <script> -- args` would, returning its exit status and output. */
/**
 * Runs without blocking this process: a synchronous run kept the test's event loop from seeing the
 * server close an idle keep-alive connection, and the next fetch then failed on that dead socket.
 */
async function runScript(file: string, args: string[], dataDir: string) {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
    });
    return { status: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { status: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

async function trpc(server: ServerProcess, procedure: string, input?: unknown, cookie?: string) {
  const headers: Record<string, string> = { origin: server.baseURL, 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const res =
    input === undefined
      ? await fetch(`${server.baseURL}/trpc/${procedure}`, { headers })
      : await fetch(`${server.baseURL}/trpc/${procedure}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(input),
        });
  const body = (await res.json()) as { result?: { data: unknown } };
  return {
    status: res.status,
    data: body.result?.data,
    cookie: res.headers.getSetCookie()[0]?.split(';')[0],
  };
}

// Each case starts real server processes and runs the script several times (a tsx start each): minutes on a
// loaded 2-core machine, not the integration tests' usual 20 s.
describe('npm run user:role', { timeout: 90_000 }, () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  beforeEach(allowLocalServers);
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  function scratch() {
    const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-role-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  it('sets a role on the running server’s database, which the next request sees; says so when there is no account', async () => {
    const dataDir = scratch();
    const server = await startServerProcess({ dataDir, env: { SEED_DEMO_DATA: 'false' } });
    cleanup.push(() => server.stop());
    const signUp = await trpc(server, 'auth.signUp', {
      name: 'Kavya Rao',
      email: 'kavya@example.com',
      mobile: '',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      acceptTerms: true,
    });
    expect(signUp.status).toBe(200);
    const access = async () => (await trpc(server, 'console.access', undefined, signUp.cookie)).data;
    expect(await access()).toEqual({ role: 'none', teamEvents: 0 });

    const made = await runScript('scripts/user-role.ts', ['Kavya@Example.com', 'admin'], dataDir);
    expect(made).toEqual({
      status: 0,
      out: 'Kavya@Example.com is now an admin (admin page at /admin) (was none).\n',
    });
    expect(await access()).toEqual({ role: 'admin', teamEvents: 0 });
    expect((await trpc(server, 'admin.organiserRequests', undefined, signUp.cookie)).status).toBe(200);

    expect(
      (await runScript('scripts/user-role.ts', ['kavya@example.com', 'organiser'], dataDir)).status,
    ).toBe(0);
    expect(await access()).toEqual({ role: 'organiser', teamEvents: 0 });
    expect((await trpc(server, 'admin.organiserRequests', undefined, signUp.cookie)).status).toBe(403);
    expect((await runScript('scripts/user-role.ts', ['kavya@example.com', 'none'], dataDir)).status).toBe(0);
    expect(await access()).toEqual({ role: 'none', teamEvents: 0 });

    const nobody = await runScript('scripts/user-role.ts', ['nobody@example.com', 'admin'], dataDir);
    expect(nobody).toEqual({
      status: 1,
      out: 'No account with the e-mail address nobody@example.com. Sign up first, then run this again.\n',
    });
    const usage = await runScript('scripts/user-role.ts', ['kavya@example.com', 'superuser'], dataDir);
    expect(usage).toEqual({ status: 2, out: 'Usage: npm run user:role -- <email> admin|organiser|none\n' });

    // user:staff keeps working beside it, per event now (docs/decisions/0022): it names the event.
    expect(await runScript('scripts/user-staff.ts', ['kavya@example.com'], dataDir)).toEqual({
      status: 2,
      out: 'Usage: npm run user:staff -- <email> --event <eventId> [--revoke]\n',
    });
    expect(
      await runScript('scripts/user-staff.ts', ['kavya@example.com', '--event', 'evt-nope'], dataDir),
    ).toEqual({
      status: 1,
      out: 'No event with the id evt-nope.\n',
    });
    expect((await trpc(server, 'gate.events', undefined, signUp.cookie)).data).toEqual([]);
  });

  it('prints the demo admin and organiser sign-in once at a development start, and those accounts work; nothing of it in production', async () => {
    const devDir = scratch();
    const dev = await startServerProcess({
      dataDir: devDir,
      env: { NODE_ENV: 'development', LOG_LEVEL: 'info' },
    });
    cleanup.push(() => dev.stop());
    // The log goes out in blocks at least every quarter second: wait for the line.
    await waitUntil(
      () => dev.output().includes('Demo sign-in'),
      'the demo sign-in line',
      () => dev.output(),
    );
    const lines = dev
      .output()
      .split('\n')
      .filter((l) => l.includes('Demo sign-in'));
    expect(lines).toHaveLength(1);
    const found = [...lines[0]!.matchAll(/(admin|organiser) (\S+@demo\.jalsa\.local) \/ (demo-\S+?)[;"]/g)];
    expect(found.map((m) => [m[1], m[2]])).toEqual([
      ['admin', 'admin@demo.jalsa.local'],
      ['organiser', 'organiser@demo.jalsa.local'],
    ]);
    for (const [, role, email, password] of found) {
      const signIn = await trpc(dev, 'auth.signIn', { email, password });
      expect(signIn.status, `${email} signs in`).toBe(200);
      expect((await trpc(dev, 'console.access', undefined, signIn.cookie)).data).toMatchObject({ role });
      if (role === 'organiser') {
        const events = (await trpc(dev, 'console.myEvents', undefined, signIn.cookie)).data as unknown[];
        expect(events.length).toBeGreaterThanOrEqual(24);
      }
    }

    const prodDir = scratch();
    const prod = await startServerProcess({
      dataDir: prodDir,
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PUBLIC_URL: 'https://tickets.example.in',
        ALLOW_PAYMENT_SIMULATOR: 'true',
        ALLOW_FILE_MAILBOX: 'true',
        // Demo events even in production (asked for explicitly): still no demo sign-in.
        SEED_DEMO_DATA: 'true',
      },
    });
    cleanup.push(() => prod.stop());
    await prod.stop();
    // Read after the stop, when every line the server wrote is out.
    expect(prod.output()).toContain('Jalsa is listening');
    expect(prod.output()).not.toContain('Demo sign-in');
    const db = new Database(path.join(prodDir, 'jalsa.db'), { readonly: true });
    const demo = db
      .prepare(
        "select email, password_hash as hash from users where email like '%@demo.jalsa.local' order by email",
      )
      .all();
    db.close();
    // The demo organiser owns the demo events but has no password; there is no demo admin.
    expect(demo).toEqual([
      { email: 'audience@demo.jalsa.local', hash: null },
      { email: 'organiser@demo.jalsa.local', hash: null },
    ]);
  });
});
