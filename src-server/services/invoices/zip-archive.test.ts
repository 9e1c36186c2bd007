import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../test/helpers/zip-entries.ts';
import { zipArchive } from './zip-archive.ts';

describe('zipArchive', () => {
  it('writes files that a ZIP reader gets back byte for byte, names in UTF-8', () => {
    const files = [
      { name: 'b2b.csv', data: new TextEncoder().encode('\uFEFFGSTIN/UIN of Recipient,Rate\r\n') },
      { name: 'empty.csv', data: new Uint8Array() },
      { name: 'hsn-₹.csv', data: new TextEncoder().encode('x'.repeat(10_000)) },
    ];
    const zip = zipArchive(files);
    expect(readZip(zip)).toEqual(new Map(files.map((f) => [f.name, Buffer.from(f.data)])));
  });

  it('is read by the system unzip when there is one', () => {
    let hasUnzip = true;
    try {
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      hasUnzip = false;
    }
    if (!hasUnzip) return;
    const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-zip-'));
    try {
      writeFileSync(
        path.join(dir, 'a.zip'),
        zipArchive([{ name: 'docs.csv', data: Buffer.from('a,b\r\n') }]),
      );
      execFileSync('unzip', ['-q', 'a.zip'], { cwd: dir });
      expect(readFileSync(path.join(dir, 'docs.csv'), 'utf8')).toBe('a,b\r\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
