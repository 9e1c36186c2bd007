import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';

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

/** deploy/compose.postgres.yaml read as compose reads it: YAML with its anchors and `<<` merge keys. */
function composeFile(file: string) {
  return parse(read(file), { merge: true }) as {
    services: Record<string, Record<string, unknown> & { environment?: Record<string, string> }>;
    volumes: Record<string, unknown>;
  };
}

// Several app servers on one PostgreSQL (issue 38, ADR 0035); no Docker here, so the file is parsed.
it('deploy/compose.postgres.yaml: PostgreSQL 15 with a volume and healthcheck, two app replicas on it sharing uploads, restart policies', () => {
  const compose = composeFile('deploy/compose.postgres.yaml');
  expect(read('deploy/compose.postgres.yaml')).not.toMatch(/^version:/m);
  const { postgres, caddy, ...rest } = compose.services;
  const replicas = Object.keys(rest);
  expect(replicas).toEqual(['app1', 'app2']);

  expect(postgres!.image).toMatch(/^postgres:15(\.|$)/);
  expect(postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data');
  expect((postgres!.healthcheck as { test: string[] }).test).toContain('pg_isready');
  expect(postgres).not.toHaveProperty('ports');

  for (const name of replicas) {
    const app = compose.services[name]!;
    expect(app.environment!.DATABASE_URL, name).toMatch(
      /^postgres:\/\/jalsa:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/jalsa$/,
    );
    // Every replica signs with the one secret, or one's tickets fail at the other's gate.
    expect(app.environment!.APP_SECRET, name).toMatch(/^\$\{APP_SECRET:\?/);
    expect(app.environment).toMatchObject({ NODE_ENV: 'production', TRUST_PROXY: 'true', HOST: '0.0.0.0' });
    expect((app.healthcheck as { test: string[] }).test.join(' '), name).toContain('/healthz');
    expect(app.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(app.volumes, name).toContain('jalsa-uploads:/app/data/uploads');
    expect(app, name).not.toHaveProperty('ports');
  }
  // Each replica its own DATA_DIR; uploads in one volume both see.
  const dataDirs = replicas.map((name) =>
    (compose.services[name]!.volumes as string[]).find((v) => v.endsWith(':/app/data')),
  );
  expect(new Set(dataDirs).size).toBe(replicas.length);

  for (const [name, service] of Object.entries(compose.services)) {
    expect(service.restart, name).toBe('unless-stopped');
    expect(service.logging, name).toEqual({
      driver: 'json-file',
      options: { 'max-size': '10m', 'max-file': '5' },
    });
  }
  const used = Object.values(compose.services).flatMap((s) => (s.volumes as string[] | undefined) ?? []);
  for (const volume of used.filter((v) => !v.startsWith('.')).map((v) => v.split(':')[0]!)) {
    expect(compose.volumes, volume).toHaveProperty(volume);
  }
  // The image the replicas run carries PostgreSQL's migrations, which a start on PostgreSQL applies.
  expect(read('Dockerfile')).toMatch(/^COPY .*\/app\/migrations-pg \.\/migrations-pg$/m);
  expect(caddy!.depends_on).toEqual(
    Object.fromEntries(replicas.map((name) => [name, { condition: 'service_healthy' }])),
  );
});

it('deploy/Caddyfile.postgres load-balances every replica of the compose file, with active health checks', () => {
  const compose = composeFile('deploy/compose.postgres.yaml');
  const caddy = compose.services.caddy!;
  const mounted = (caddy.volumes as string[]).find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'))!;
  const caddyfile = read(path.join('deploy', mounted.split(':')[0]!));
  const proxy = /^\s*reverse_proxy ([^{\n]+)\{([^}]*)\}/m.exec(caddyfile);
  expect(proxy, 'one reverse_proxy block').not.toBeNull();
  const replicas = Object.keys(compose.services).filter((name) => name.startsWith('app'));
  expect(proxy![1]!.trim().split(/\s+/).sort()).toEqual(replicas.map((name) => `${name}:3000`).sort());
  const options = Object.fromEntries(
    proxy![2]!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.split(/\s+/)[0], line.split(/\s+/).slice(1).join(' ')]),
  );
  expect(options).toMatchObject({ lb_policy: 'least_conn', health_uri: '/healthz' });
  expect(options).toHaveProperty('health_interval');
  expect(options).toHaveProperty('lb_try_duration');
  // The route the health checks ask for exists: the app answers it (src-server/app.ts).
  expect(read('src-server/app.ts')).toContain("app.get('/healthz'");
});
