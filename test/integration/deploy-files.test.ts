import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The top-level blocks of compose.yaml's `services:`, by name (no YAML parser in the lock). */
function services(compose: string): Record<string, string> {
  const body = compose.slice(compose.indexOf('\nservices:\n') + 11, compose.indexOf('\nvolumes:\n'));
  return Object.fromEntries(
    body.split(/\n(?= {2}[a-z][\w-]*:\n)/).map((block) => [/^\s*([\w-]+):/.exec(block)![1], block]),
  );
}

// No Docker engine here: the compose file is checked by reading it (issue 37).
it('compose.yaml stays within what docker-compose 1.27+ reads, and caps every container log', () => {
  const compose = read('compose.yaml');
  expect(compose).not.toMatch(/^version:/m);
  // The long env_file form (path/required) needs Compose 2.24; Debian's docker-compose 1.29 refuses it.
  expect(compose).toMatch(/env_file:\n\s+- \.env\n/);
  expect(compose).not.toMatch(/^\s+required:/m);
  const all = services(compose);
  expect(Object.keys(all)).toEqual(['app', 'caddy']);
  for (const [name, block] of Object.entries(all)) {
    expect(block, name).toMatch(
      /logging:\n\s+driver: json-file\n\s+options:\n\s+max-size: \S+\n\s+max-file: "\d+"/,
    );
  }
  // Behind Caddy on compose's own network the app listens on every interface of its container: said
  // explicitly, since with TRUST_PROXY an unset HOST means 127.0.0.1.
  expect(all.app).toContain('TRUST_PROXY: "true"');
  expect(all.app).toContain('HOST: "0.0.0.0"');
  expect(all.app).not.toMatch(/^\s+ports:/m);
});
