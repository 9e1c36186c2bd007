import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startupProblems } from '../../src-server/startup-check.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'jalsa-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://tickets.example.in',
  DATA_DIR: path.join(scratch, 'data'),
};

describe('a production start (issue 22)', () => {
  it('names every missing setting at once, in one readable message, and exits 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src-server/index.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: path.join(scratch, 'bare') },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Jalsa cannot start: 3 settings need attention/);
    expect(run.stderr).toContain('- PUBLIC_URL: PUBLIC_URL is required when NODE_ENV=production');
    expect(run.stderr).toContain('- Set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET');
    expect(run.stderr).toContain('- RESEND_API_KEY: set it');
    // No stack trace.
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('starts with every setting in place, mail in the file mailbox only when chosen explicitly', () => {
    const ready = { ...PRODUCTION, ALLOW_PAYMENT_SIMULATOR: 'true', RESEND_API_KEY: 're_123' };
    expect(startupProblems(ready)).toEqual([]);
    const { RESEND_API_KEY: _, ...noMail } = ready;
    expect(startupProblems(noMail)).toEqual([expect.stringMatching(/^RESEND_API_KEY: /)]);
    expect(startupProblems({ ...noMail, ALLOW_FILE_MAILBOX: 'true' })).toEqual([]);
  });

  it('says which data folder cannot be written, with its path and the user', () => {
    const aFile = path.join(scratch, 'not-a-folder');
    writeFileSync(aFile, '');
    const problems = startupProblems({ DATA_DIR: path.join(aFile, 'data') });
    expect(problems).toEqual([
      expect.stringMatching(
        /^DATA_DIR: .*not-a-folder\/data cannot be created or written by user \S+ \(uid \d+\)/,
      ),
    ]);
  });

  it('names the S3 settings missing when only some are set, never their values (issue 38)', () => {
    const problems = startupProblems({
      DATA_DIR: PRODUCTION.DATA_DIR,
      S3_BUCKET: 'jalsa-images',
      S3_SECRET_ACCESS_KEY: 'very-secret-value',
    });
    expect(problems).toEqual([expect.stringMatching(/^S3_BUCKET: .*Missing: S3_REGION, S3_ACCESS_KEY_ID$/)]);
    expect(problems.join('\n')).not.toContain('very-secret-value');
  });

  it('names half-set platform GST and e-invoicing settings in the same message, not a stack trace', () => {
    const problems = startupProblems({
      DATA_DIR: PRODUCTION.DATA_DIR,
      PLATFORM_GSTIN: '29AAGCB7383J1Z4',
      EINVOICE_IRP_URL: 'https://gsp.example.in',
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^PLATFORM_GSTIN: PLATFORM_GSTIN, PLATFORM_LEGAL_NAME, PLATFORM_ADDRESS and PLATFORM_STATE go together/,
      ),
      expect.stringMatching(/^EINVOICE_IRP_URL: EINVOICE_IRP_URL .* and EINVOICE_IRP_TOKEN go together/),
    ]);
    // A GSTIN of another state than the one named is refused the same way.
    expect(
      startupProblems({
        DATA_DIR: PRODUCTION.DATA_DIR,
        PLATFORM_GSTIN: '29AAGCB7383J1Z4',
        PLATFORM_LEGAL_NAME: 'Jalsa Platform Pvt Ltd',
        PLATFORM_ADDRESS: '1 MG Road, Pune',
        PLATFORM_STATE: 'Maharashtra',
      }),
    ).toEqual([expect.stringMatching(/^PLATFORM_GSTIN: /)]);
  });

  it('reports a malformed setting by name instead of a stack trace', () => {
    expect(startupProblems({ PORT: 'eighty', DATA_DIR: PRODUCTION.DATA_DIR })).toEqual([
      expect.stringMatching(/^PORT: /),
    ]);
  });

  it('reads .env in the working directory, and the real environment wins over it', () => {
    const folder = mkdtempSync(path.join(scratch, 'dotenv-'));
    writeFileSync(
      path.join(folder, '.env'),
      'NODE_ENV=production\nPUBLIC_URL=https://tickets.example.in\nALLOW_PAYMENT_SIMULATOR=true\nDATA_DIR=./data\n',
    );
    const check = (env: Record<string, string>) => {
      const script = `import { startupProblems } from ${JSON.stringify(path.join(ROOT, 'src-server/startup-check.ts'))};
        console.log(JSON.stringify(startupProblems()));`;
      const run = spawnSync(
        process.execPath,
        ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script],
        { cwd: folder, encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, ...env } },
      );
      expect(run.stderr).toBe('');
      return JSON.parse(run.stdout) as string[];
    };
    // Production from the file: only the mail provider is missing.
    expect(check({})).toEqual([expect.stringMatching(/^RESEND_API_KEY: /)]);
    expect(check({ NODE_ENV: 'development' })).toEqual([]);
  });
});
