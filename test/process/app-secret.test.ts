import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

/**
 * Without APP_SECRET the server generates one on first start and keeps it beside the database, so
 * issued tickets (their QR signatures) stay valid across restarts, with one process or several.
 */
describe('the generated app secret', () => {
  const dirs: string[] = [];
  beforeEach(allowLocalServers);
  const scratch = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-secret-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  // No APP_SECRET in the environment: the server must make its own.
  const noSecret = { SEED_DEMO_DATA: 'false' };

  it('is written once, readable by the owner only, and kept across restarts', async () => {
    const dataDir = scratch();
    const first = await startServerProcess({ dataDir, env: noSecret });
    await first.stop();
    const file = path.join(dataDir, 'app-secret');
    const secret = readFileSync(file, 'utf8');
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = await startServerProcess({ dataDir, env: noSecret });
    await second.stop();
    expect(readFileSync(file, 'utf8')).toBe(secret);
  }, 60_000);

  it('is generated and kept the same way with two workers', async () => {
    const dataDir = scratch();
    const server = await startServerProcess({ dataDir, env: { ...noSecret, WEB_CONCURRENCY: '2' } });
    const file = path.join(dataDir, 'app-secret');
    const secret = readFileSync(file, 'utf8');
    const written = statSync(file).mtimeMs;
    await server.stop();
    expect(readFileSync(file, 'utf8')).toBe(secret);
    expect(statSync(file).mtimeMs).toBe(written);
  }, 60_000);
});
