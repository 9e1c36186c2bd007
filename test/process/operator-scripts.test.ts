import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from '../../src-server/db/client.ts';
import { contactMessages } from '../../src-server/db/schema/contact.ts';
import { createOldDatabase } from '../helpers/old-database.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFolder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-operator-'));
  folders.push(dir);
  return dir;
}

/** `npm run <script>` as an operator types it, on `env` alone (no .env here: cwd is the data folder). */
function run(script: string, args: string[], env: Record<string, string>, shellPrefix = '') {
  const command = [
    process.execPath,
    '--import',
    import.meta.resolve('tsx'),
    path.join(ROOT, script),
    ...args,
  ];
  const quoted = command.map((part) => `'${part}'`).join(' ');
  const result = spawnSync('/bin/sh', ['-c', `${shellPrefix}exec ${quoted}`], {
    cwd: env.DATA_DIR,
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', ...env },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

const NO_STACK_TRACE = /^\s+at /m;

describe('operator scripts (issue 37)', () => {
  it('doctor names missing settings instead of crashing, and never migrates; db:migrate backs up first', () => {
    const dataDir = dataFolder();
    const bare = run('scripts/doctor.ts', [], { NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(bare.status).toBe(1);
    expect(bare.out).toContain('✗ settings: the other checks run once these are fixed:');
    expect(bare.out).toContain('PUBLIC_URL: PUBLIC_URL is required when NODE_ENV=production');
    expect(bare.out).not.toMatch(NO_STACK_TRACE);

    const { pending } = createOldDatabase(dataDir);
    const secret = { APP_SECRET: 'a'.repeat(32) };
    const doctor = run('scripts/doctor.ts', ['ops@example.in'], { DATA_DIR: dataDir, ...secret });
    expect(doctor.status, doctor.out).toBe(0);
    expect(doctor.out).toContain(`${pending} migration(s) pending: the next start backs the database up`);
    expect(existsSync(path.join(dataDir, 'backups'))).toBe(false);
    // A site on the simulator and the file mailbox works, and the doctor says what it does not do.
    expect(doctor.out).toContain('warning: this site takes no money');
    expect(doctor.out).toContain('warning: mail stays in DATA_DIR/mail, nobody receives it');
    expect(doctor.out).not.toContain('All checks passed');

    const migrate = run('src-server/db/migrate-cli.ts', [], { DATA_DIR: dataDir, ...secret });
    expect(migrate.status, migrate.out).toBe(0);
    expect(migrate.out).toContain(`before applying ${pending} migration(s)`);
    const [backup] = readdirSync(path.join(dataDir, 'backups'));
    expect(backup).toMatch(/-before-upgrade$/);
    const copy = new Database(path.join(dataDir, 'backups', backup!, 'jalsa.db'), { readonly: true });
    expect(copy.prepare('select count(*) as n from contact_messages').get()).toEqual({ n: 1 });
    copy.close();
  });

  it.runIf(process.getuid?.() === 0)(
    'a backup run as root leaves DATA_DIR to its owner, so the service user still starts',
    () => {
      const scratch = scratchDatabase('jalsa-operator-root-');
      folders.push(scratch.dataDir);
      scratch.database.close();
      const serviceUser = { uid: 1000, gid: 1000 };
      for (const entry of [scratch.dataDir, databaseFile(scratch.dataDir)])
        chownSync(entry, serviceUser.uid, serviceUser.gid);
      const backup = run('scripts/db-backup.ts', [], { DATA_DIR: scratch.dataDir });
      expect(backup.status, backup.out).toBe(0);
      const backups = path.join(scratch.dataDir, 'backups');
      const [folder] = readdirSync(backups);
      for (const entry of [backups, path.join(backups, folder!), path.join(backups, folder!, 'jalsa.db')]) {
        expect(statSync(entry), entry).toMatchObject(serviceUser);
      }
    },
  );

  it('a backup on a full disk says so in one line and leaves no empty newest backup', () => {
    const scratch = scratchDatabase('jalsa-operator-full-');
    folders.push(scratch.dataDir);
    // About 3 MB of messages, against a limit of 1 MB on any file the backup writes.
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      firstName: `F${i}`,
      lastName: 'L',
      email: 'a@b.in',
      mobile: '9876543210',
      message: 'x'.repeat(1000),
      createdAt: '2026-11-21T00:00:00Z',
    }));
    scratch.database.sqlite.transaction(() => {
      for (const row of rows) scratch.database.db.insert(contactMessages).values(row).run();
    })();
    const backups = path.join(scratch.dataDir, 'backups');
    expect(run('scripts/db-backup.ts', [], { DATA_DIR: scratch.dataDir }).status).toBe(0);
    const before = readdirSync(backups);

    // RLIMIT_FSIZE with SIGXFSZ ignored: a write past 1 MB fails with EFBIG, as on a full disk.
    const full = run(
      'scripts/db-backup.ts',
      [],
      { DATA_DIR: scratch.dataDir },
      "trap '' XFSZ; ulimit -f 1024; ",
    );
    expect(full.status, full.out).toBe(1);
    expect(full.out).toMatch(/^backup into \S+ failed: .+\nThe earlier backups in \S+ are untouched\.\n$/);
    expect(full.out).not.toMatch(NO_STACK_TRACE);
    expect(readdirSync(backups)).toEqual(before);
  });
});
